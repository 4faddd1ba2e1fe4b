// "Edit and resend" (issue 37): the prompt's words in a box to change; "Fork and send" starts the
// fork with them (forkActions.tsx) and closes, or keeps the dialog open with the reason it could not.
import { useEffect, useRef, useState } from "react";
import "./editResendDialog.css";
import { escapeCloses } from "./promptDialog.js";

export interface EditResendDialogProps {
  readonly prompt: string;
  /** The session runs in a worktree: offer its fork a new worktree of its own. */
  readonly worktreeChoice?: boolean;
  /** Starts the fork with the edited words; resolves with the reason it did not, or undefined. */
  readonly send: (text: string, inNewWorktree: boolean) => Promise<string | undefined>;
  readonly onClose: () => void;
}

export function EditResendDialog({ prompt, worktreeChoice = false, send, onClose }: EditResendDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState(prompt);
  const [newWorktree, setNewWorktree] = useState(false);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);

  useEffect(() => {
    const d = dialog.current;
    if (d !== null && !d.open) d.showModal();
    return () => d?.close();
  }, []);

  const submit = async (): Promise<void> => {
    if (sending || text.trim() === "") return;
    setSending(true);
    const failed = await send(text, worktreeChoice && newWorktree);
    setSending(false);
    if (failed !== undefined) return setProblem(failed);
    onClose();
  };
  const close = (): void => {
    if (!sending) onClose();
  };

  return (
    <dialog
      ref={dialog}
      className="edit-resend"
      aria-labelledby="edit-resend-title"
      {...escapeCloses(close)}
    >
      <h2 id="edit-resend-title">Edit and resend in a new tab</h2>
      <p className="edit-resend-note">The new tab continues this session from just before the prompt; this session stays as it is.</p>
      <textarea aria-label="Edited prompt" value={text} rows={6} autoFocus onChange={(e) => setText(e.target.value)} />
      {worktreeChoice ? (
        <label className="edit-resend-worktree">
          <input type="checkbox" checked={newWorktree} onChange={(e) => setNewWorktree(e.target.checked)} disabled={sending} />
          In a new worktree (from this worktree's last commit)
        </label>
      ) : null}
      {problem !== undefined ? (
        <div className="edit-resend-problem" role="alert">
          Not sent: {problem}
        </div>
      ) : null}
      <div className="edit-resend-actions">
        <button type="button" onClick={close} disabled={sending}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={() => void submit()} disabled={sending || text.trim() === ""}>
          {sending ? "Starting…" : "Fork and send"}
        </button>
      </div>
    </dialog>
  );
}

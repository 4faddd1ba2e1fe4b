// The dialog a refused removal opens: it names the uncommitted files and the commits no other
// branch holds, and only "Rescue and remove" goes on, committing everything to a rescue branch
// first. The branch's name is shown once it exists.
import { useState } from "react";
import { createPortal } from "react-dom";
import type { WorktreeInfo, WorktreeRemoval } from "../../shared/worktrees.js";
import { api } from "../apiClient.js";
import { VisibleText } from "../util/VisibleText.js";
import { ChangedFiles } from "./ChangedFiles.js";
import { IgnoredNote } from "./IgnoredNote.js";

export interface Refusal {
  readonly worktree: WorktreeInfo;
  /** Why the main side refused, as it said it. */
  readonly message: string;
}

type State = { readonly kind: "asking" } | { readonly kind: "working" } | { readonly kind: "done"; readonly removal: WorktreeRemoval } | { readonly kind: "failed"; readonly message: string };

export function RescueDialog({ tabId, refusal, onChanged, onClose }: { tabId: string; refusal: Refusal; onChanged: () => Promise<void>; onClose: () => void }) {
  const [state, setState] = useState<State>({ kind: "asking" });
  const w = refusal.worktree;
  const files = w.dirt?.files ?? [];
  const moreCommits = (w.unmerged ?? 0) - (w.unmergedCommits?.length ?? 0);
  const rescue = async (): Promise<void> => {
    setState({ kind: "working" });
    const result = await api().removeWorktree(tabId, w.path, true);
    setState(result.ok ? { kind: "done", removal: result.value } : { kind: "failed", message: result.error.message });
    await onChanged();
  };
  // Esc closes the dialog only: the window's Esc would interrupt the session.
  const closeOnEscape = (e: React.KeyboardEvent): void => {
    if (e.key !== "Escape") return;
    e.preventDefault();
    if (state.kind !== "working") onClose();
  };
  // Drawn over the whole window: inside the dock panel it would be cut to the panel's height.
  return createPortal(
    <div className="wt-dialog" role="dialog" aria-label="Remove worktree" aria-modal="true" onKeyDown={closeOnEscape}>
      <h4>
        Remove <VisibleText text={w.path} />?
      </h4>
      <p className="wt-refusal">
        <VisibleText text={refusal.message} />
      </p>
      {files.length > 0 ? (
        <>
          <div>Uncommitted files:</div>
          <ChangedFiles label="Uncommitted files" files={files} />
        </>
      ) : null}
      {(w.unmerged ?? 0) > 0 ? (
        <>
          <div>
            {w.unmerged} commit(s) on <VisibleText text={w.branch ?? w.head?.shortSha ?? "HEAD"} /> that no other branch holds:
          </div>
          <ul aria-label="Unpushed commits">
            {(w.unmergedCommits ?? []).map((c) => (
              <li key={c.shortSha}>
                <code>{c.shortSha}</code> <VisibleText text={c.subject} />
              </li>
            ))}
            {moreCommits > 0 ? <li className="wt-dim">and {moreCommits} more</li> : null}
          </ul>
        </>
      ) : null}
      <IgnoredNote ignored={w.ignored} />
      {state.kind === "done" ? (
        <p role="status">
          {state.removal.kind === "rescued-and-removed" ? (
            <>
              Removed. Everything it held is on the branch <code className="wt-rescue-branch"><VisibleText text={state.removal.rescueBranch} /></code>.
            </>
          ) : (
            "Removed."
          )}
        </p>
      ) : null}
      {state.kind === "failed" ? (
        <p role="alert">
          <VisibleText text={state.message} />
        </p>
      ) : null}
      <div className="wt-dialog-actions">
        {state.kind === "asking" || state.kind === "failed" ? <button onClick={() => void rescue()}>Rescue and remove</button> : null}
        {state.kind === "working" ? <span>Rescuing…</span> : null}
        {/* Focus starts on the harmless choice. */}
        <button onClick={onClose} autoFocus>
          {state.kind === "done" ? "Close" : "Cancel"}
        </button>
      </div>
    </div>,
    document.body,
  );
}

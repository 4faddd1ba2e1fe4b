// "Continue in terminal" on every session list entry and session tab: copies the command that
// resumes the session under `baton claude` (shared/continueCommand.ts) and says so briefly; when
// the clipboard refuses, the note shows the command to copy by hand.
import { useEffect } from "react";
import { create } from "zustand";
import { continueCommand } from "../../shared/continueCommand.js";
import { VisibleText } from "../util/VisibleText.js";
import "./continueInTerminal.css";

/** How long the confirmation stays. */
const NoteMs = 4000;

interface CopyNoteState {
  readonly text: string | undefined;
  readonly failed: boolean;
  readonly seq: number;
}

const useCopyNote = create<CopyNoteState>()(() => ({ text: undefined, failed: false, seq: 0 }));

export async function copyContinueCommand(sessionId: string, cwd: string | undefined): Promise<void> {
  const command = continueCommand(sessionId, cwd);
  let failed = false;
  try {
    await navigator.clipboard.writeText(command);
  } catch {
    failed = true;
  }
  useCopyNote.setState((s) => ({ text: command, failed, seq: s.seq + 1 }));
}

export function ContinueInTerminalButton({ sessionId, cwd, title }: { sessionId: string; cwd: string | undefined; title: string }) {
  return (
    <button
      className="continue-terminal"
      aria-label={`Continue in terminal: ${title}`}
      title="Continue in terminal (copies the command that resumes it under baton claude)"
      onClick={() => void copyContinueCommand(sessionId, cwd)}
    >
      ⌨
    </button>
  );
}

/** The confirmation, at the bottom of the window (App). */
export function CopyNote() {
  const { text, failed, seq } = useCopyNote();
  useEffect(() => {
    if (text === undefined) return;
    const timer = setTimeout(() => useCopyNote.setState((s) => (s.seq === seq ? { text: undefined } : {})), failed ? NoteMs * 3 : NoteMs);
    return () => clearTimeout(timer);
  }, [seq, text, failed]);
  return (
    <div className="copy-note" role="status" aria-label="Copy note">
      {text === undefined ? null : failed ? (
        <>
          Could not copy. Run this in a terminal: <code className="copy-command"><VisibleText text={text} /></code>
        </>
      ) : (
        <>
          Copied: <code className="copy-command"><VisibleText text={text} /></code>
        </>
      )}
    </div>
  );
}

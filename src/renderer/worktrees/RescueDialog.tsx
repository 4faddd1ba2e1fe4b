// The dialog a refused removal opens: it names the uncommitted files and the commits no other
// branch holds, and only "Rescue and remove" goes on, committing everything to a rescue branch
// first. The branch's name is shown once it exists.
import { useState } from "react";
import type { WorktreeInfo, WorktreeRemoval } from "../../shared/worktrees.js";
import { api } from "../apiClient.js";
import { VisibleText } from "../util/VisibleText.js";

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
  const rescue = async (): Promise<void> => {
    setState({ kind: "working" });
    const result = await api().removeWorktree(tabId, w.path, true);
    setState(result.ok ? { kind: "done", removal: result.value } : { kind: "failed", message: result.error.message });
    await onChanged();
  };
  return (
    <div className="wt-dialog" role="dialog" aria-label="Remove worktree" aria-modal="true">
      <h4>
        Remove <VisibleText text={w.path} />?
      </h4>
      <p className="wt-refusal">
        <VisibleText text={refusal.message} />
      </p>
      {files.length > 0 ? (
        <>
          <div>Uncommitted files:</div>
          <ul aria-label="Uncommitted files">
            {files.map((f) => (
              <li key={f.path}>
                <code>{f.code}</code> <VisibleText text={f.path} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {(w.unmerged ?? 0) > 0 ? (
        <p aria-label="Unpushed commits">
          {w.unmerged} commit(s) on <VisibleText text={w.branch ?? w.head?.shortSha ?? "HEAD"} /> that no other branch holds
        </p>
      ) : null}
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
        <button onClick={onClose}>{state.kind === "done" ? "Close" : "Cancel"}</button>
      </div>
    </div>
  );
}

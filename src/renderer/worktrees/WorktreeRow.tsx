// One worktree in the Worktrees tab: what it is (branch, HEAD, ahead/behind, dirt, lock, why it
// is orphaned, the agent that made it) and its actions. Text from git and the history is drawn
// through VisibleText.
import { useEffect, useMemo, useRef, useState } from "react";
import type { WorktreeAgent, WorktreeInfo, WorktreeMerge, WorktreeOpenTarget } from "../../shared/worktrees.js";
import { api } from "../apiClient.js";
import { selectWhenShown, showSession } from "../actions.js";
import { select, useApp } from "../state/appState.js";
import { agentCardId } from "./agentWorktree.js";
import { ChangedFiles } from "./ChangedFiles.js";
import { IgnoredNote } from "./IgnoredNote.js";
import { WorktreeDiff } from "./WorktreeDiff.js";
import { formatDuration } from "../util/format.js";
import { VisibleText } from "../util/VisibleText.js";

/** Refusals the rescue dialog answers; anything else is shown in the row. */
const RescuableCodes = new Set(["worktree_dirty", "worktree_unmerged"]);

interface RowProps {
  readonly tabId: string;
  readonly worktree: WorktreeInfo;
  /** Set while an agent card asked for this worktree; a new value scrolls it into view again. */
  readonly focusSeq?: number | undefined;
  readonly onChanged: () => Promise<void>;
  readonly onRefused: (worktree: WorktreeInfo, message: string) => void;
}

type Output = { readonly kind: "diff"; readonly text: string } | { readonly kind: "note"; readonly text: string; readonly error?: boolean };

export function WorktreeRow({ tabId, worktree: w, focusSeq, onChanged, onRefused }: RowProps) {
  const row = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (focusSeq !== undefined) row.current?.scrollIntoView({ block: "nearest" });
  }, [focusSeq]);
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [output, setOutput] = useState<Output>();
  const files = w.dirt?.files ?? [];
  const diff = async (): Promise<void> => {
    const r = await api().worktreeDiff(tabId, w.path);
    setOutput(r.ok ? { kind: "diff", text: r.value } : { kind: "note", text: r.error.message, error: true });
  };
  const openIn = async (where: WorktreeOpenTarget): Promise<void> => {
    const r = await api().openWorktree(tabId, w.path, where);
    setOutput(r.ok ? { kind: "note", text: `Opened with ${r.value.program}` } : { kind: "note", text: r.error.message, error: true });
  };
  const merge = async (): Promise<void> => {
    const r = await api().mergeWorktree(tabId, w.path);
    setOutput(r.ok ? { kind: "note", text: mergeText(r.value), error: r.value.kind === "conflict" } : { kind: "note", text: r.error.message, error: true });
    await onChanged();
  };
  // Always confirmed first: the listing may be stale, and the main side decides whether it is clean.
  const remove = async (): Promise<void> => {
    setConfirming(false);
    const r = await api().removeWorktree(tabId, w.path, false);
    if (r.ok) {
      await onChanged();
      return;
    }
    if (RescuableCodes.has(r.error.code)) {
      onRefused(w, r.error.message);
      await onChanged();
    } else setOutput({ kind: "note", text: r.error.message, error: true });
  };
  return (
    <li ref={row} className={`wt-row ${focusSeq !== undefined ? "wt-focused" : ""}`} aria-label={`Worktree ${w.path}`} aria-current={focusSeq !== undefined ? "true" : undefined} data-path={w.path}>
      <div className="wt-line">
        <span className="wt-path">
          <VisibleText text={w.path} />
        </span>
        {w.isMain ? <span className="wt-badge">main</span> : null}
        <span className="wt-branch">{w.branch !== undefined ? <VisibleText text={w.branch} /> : "(detached)"}</span>
        {w.locked ? <span className="wt-badge" title={w.lockReason}>locked{w.lockReason !== undefined ? <>: <VisibleText text={w.lockReason} /></> : null}</span> : null}
        {w.orphaned !== undefined ? <span className="wt-badge wt-orphaned">orphaned: {w.orphaned}</span> : null}
        {w.sessionRunning === true ? <span className="wt-badge" title="A session in a tab runs here: it is not removed until that tab closes">session running</span> : null}
      </div>
      {w.head !== undefined ? (
        <div className="wt-head-commit">
          <code>{w.head.shortSha}</code> <VisibleText text={w.head.subject} /> <span className="wt-dim">{age(w.head.time)} ago</span>
        </div>
      ) : null}
      <div className="wt-line wt-dim">
        {w.base !== undefined ? (
          <span>
            {w.ahead ?? 0} ahead, {w.behind ?? 0} behind <VisibleText text={w.base} />
          </span>
        ) : null}
        {(w.unmerged ?? 0) > 0 ? <span>{w.unmerged} unmerged commit(s)</span> : null}
        {w.dirt !== undefined ? (
          <button className="wt-dirt" aria-expanded={open} disabled={files.length === 0} onClick={() => setOpen(!open)}>
            {files.length === 0 ? "clean" : `${w.dirt.staged} staged, ${w.dirt.unstaged} unstaged, ${w.dirt.untracked} untracked`}
          </button>
        ) : null}
      </div>
      {open && files.length > 0 ? (
        <ChangedFiles className="wt-files" label="Changed files" files={files} />
      ) : null}
      {w.agent !== undefined ? <AgentLink tabId={tabId} agent={w.agent} /> : null}
      {w.agent === undefined && w.agentIdFromName !== undefined ? <div className="wt-dim">agent {w.agentIdFromName} (from the folder name)</div> : null}
      {w.problem !== undefined ? (
        <div className="wt-problem">
          <VisibleText text={w.problem} />
        </div>
      ) : null}
      {w.orphaned !== "unregistered" ? (
        <div className="wt-actions">
          {/* git keeps a worktree whose folder is gone: nothing to open, but it can still be removed. */}
          {w.prunable ? null : (
            <>
              <button onClick={() => void openIn("folder")}>Open folder</button>
              <button onClick={() => void openIn("terminal")}>Open terminal</button>
            </>
          )}
          {w.isMain ? null : (
            <>
              <button onClick={() => void diff()}>Diff</button>
              <button onClick={() => void merge()}>Merge</button>
              {confirming ? (
                <span className="wt-confirm" role="alertdialog" aria-label="Confirm remove">
                  Remove this worktree? <button onClick={() => void remove()}>Confirm remove</button>
                  <button onClick={() => setConfirming(false)}>Cancel</button>
                  <IgnoredNote ignored={w.ignored} />
                </span>
              ) : (
                <button onClick={() => setConfirming(true)}>Remove</button>
              )}
            </>
          )}
        </div>
      ) : null}
      {output?.kind === "diff" ? <WorktreeDiff text={output.text} /> : null}
      {output?.kind === "note" ? (
        <p className={output.error === true ? "wt-problem" : "wt-note"} role="status">
          <VisibleText text={output.text} />
        </p>
      ) : null}
    </li>
  );
}

/**
 * The agent that made the worktree: a button that selects its card, in this tab or, for an agent
 * of another session, in that session's tab (opened from history when no tab has it).
 */
function AgentLink({ tabId, agent }: { tabId: string; agent: WorktreeAgent }) {
  // Searched when the tab's transcript changes, not on every change of the app state.
  const transcript = useApp((s) => s.tabs[tabId]?.transcript);
  const blockId = useMemo(() => (transcript === undefined ? undefined : agentCardId(transcript, agent)), [transcript, agent]);
  const label = `${agent.agentType ?? "agent"} ${agent.description ?? agent.agentId}`;
  const openCard = async (): Promise<void> => {
    if (blockId !== undefined) return select(tabId, blockId, true);
    const other = await showSession(agent.sessionId);
    if (other !== undefined) selectWhenShown(other, (transcript) => agentCardId(transcript, agent));
  };
  return (
    <div className="wt-agent wt-dim">
      made by{" "}
      <button className="link" onClick={() => void openCard()} title={blockId !== undefined ? "Select its card" : "Open its session and select its card"}>
        <VisibleText text={label} />
      </button>{" "}
      in session <code>{agent.sessionId.slice(0, 8)}</code> {agent.sessionLive ? "(running)" : "(ended)"}
    </div>
  );
}

function mergeText(m: WorktreeMerge): string {
  switch (m.kind) {
    case "up-to-date":
      return `${m.base} already holds it`;
    case "fast-forward":
      return `${m.base} fast-forwarded to ${m.to.slice(0, 8)}`;
    case "merge-commit":
      return `merged into ${m.base} as ${m.commit.slice(0, 8)}`;
    case "conflict":
      return `conflict merging into ${m.base} (nothing changed): ${m.files.join(", ")}`;
  }
}

function age(time: number): string {
  const ms = Math.max(0, Date.now() - time);
  const h = Math.floor(ms / 3_600_000);
  if (h >= 48) return `${Math.floor(h / 24)}d`;
  if (h >= 1) return `${h}h`;
  return formatDuration(ms) || "0s";
}

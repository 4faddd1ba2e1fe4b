// A subagent as one card. It subscribes to its own block by id, so a progress
// tick re-renders this card only; its expanded state lives in the app state keyed by toolUseId, so it
// survives ticks, new nested blocks, scrolling out of view and reopening the session.
import { memo, useEffect, useState } from "react";
import { MaxNestedBlocks, stepsNotStreamed, type Block, type SubagentRecord, type SubagentRetry } from "../../shared/transcript.js";
import type { SubagentPhase } from "../../shared/escalation.js";
import { api, report } from "../apiClient.js";
import { Markdown } from "../markdown/Markdown.js";
import { addLog, insertNested, select, setExpanded, showWorktree, useApp } from "../state/appState.js";
import { showAllSteps, useShowingAllSteps, useStepIds } from "../state/fullSteps.js";
import { useChildren, useExpanded, usePendingForAgent } from "../state/selectors.js";
import { elapsedMs, formatDuration, formatTokens, subagentIcon } from "../util/format.js";
import { shareView } from "../util/tokenShare.js";
import { Escalations } from "./EscalationView.js";
import { waitingOn } from "./escalationText.js";
import { NestedBlocks } from "./NestedBlocks.js";
import { PermissionPrompt } from "./PermissionPrompt.js";
import { useNow } from "./useNow.js";
import { useSelected } from "./useSelected.js";
import { Spinner } from "../util/Spinner.js";
import { VisibleText, visibleString } from "../util/VisibleText.js";

export const SubagentCard = memo(function SubagentCard({ tabId, block }: { tabId: string; block: Block }) {
  const call = block.call!;
  const record = call.subagent!;
  const expanded = useExpanded(call.toolUseId);
  const pending = usePendingForAgent(tabId, record.taskId);
  const selected = useSelected(tabId, block.id);
  const running = record.status === "running";
  // The clock ticks only while nothing better is known: progress reports carry the duration.
  const now = useNow(running && record.durationMs === undefined);
  const elapsed = record.durationMs ?? elapsedMs(call.startedAt, call.endedAt, now);
  const label = `Subagent ${record.subagentType}: ${record.description}`;
  // Expanded, the steps end with the agent's final text; the summary would only repeat it.
  const lastText = useApp((s) => {
    const ids = s.tabs[tabId]?.transcript.children.get(block.id);
    const last = ids?.[ids.length - 1];
    const b = last !== undefined ? s.tabs[tabId]?.transcript.blocksById.get(last) : undefined;
    return b?.kind === "text" ? b.text?.trim() : undefined;
  });
  const summary = record.summaryMarkdown ?? "";
  const showSummary = !running && summary !== "" && !(expanded && lastText === summary.trim());
  const waiting = pending.length > 0 || waitingOn(record.escalations) !== undefined;
  return (
    <article
      className={`card subagent ${selected ? "selected" : ""} ${waiting ? "waiting" : ""}`}
      aria-label={label}
      data-status={record.status}
      data-block-id={block.id}
      data-selected={selected}
      data-task-id={record.taskId}
    >
      <header className="card-head" onClick={() => select(tabId, block.id, false)}>
        <button
          className="expander"
          aria-expanded={expanded}
          aria-label={expanded ? "Collapse" : "Expand"}
          onClick={(e) => {
            e.stopPropagation();
            setExpanded(call.toolUseId, !expanded);
          }}
        >
          {expanded ? "▾" : "▸"}
        </button>
        <span className={`icon st-${record.status}`} aria-label={record.status}>
          {running ? <Spinner /> : subagentIcon(record.status)}
        </span>
        <span className="badge" aria-hidden="true">»</span>
        <button className="title-btn" onClick={() => select(tabId, block.id, false)} aria-label={`Inspect ${record.description}`}>
          <span className="agent-type"><VisibleText text={record.subagentType} /></span>
          <span className="summary"><VisibleText text={record.description} /></span>
        </button>
        {record.phase !== undefined ? <PhaseBadge phase={record.phase} /> : null}
        {record.background ? <span className="chip">background</span> : null}
        {record.worktree !== undefined ? <WorktreeBadge tabId={tabId} record={record} /> : null}
        <TokenShare tabId={tabId} record={record} />
        <span className="elapsed">
          <span>{formatDuration(elapsed)}</span>
        </span>
      </header>
      {running ? <ProgressLine record={record} /> : null}
      <Escalations tabId={tabId} record={record} />
      {pending.map((p) => (
        <PermissionPrompt key={p.requestId} tabId={tabId} request={p} />
      ))}
      {!running && record.error !== undefined ? (
        <div className="note error" aria-label="Why it ended"><VisibleText text={record.error} /></div>
      ) : null}
      {showSummary ? <Markdown className="summary-md" text={summary} /> : null}
      {!running && record.toolsUsed !== undefined && record.toolsUsed.length > 0 ? (
        <div className="dim tools-used" aria-label="Tools used">used <VisibleText text={record.toolsUsed.join(", ")} /></div>
      ) : null}
      {expanded ? <Expanded tabId={tabId} block={block} record={record} /> : null}
    </article>
  );
});

/** The agent ran in a git worktree of its own: the badge shows it in the Worktrees tab. */
export function WorktreeBadge({ tabId, record }: { tabId: string; record: SubagentRecord }) {
  const where = record.worktree?.path;
  const title = where !== undefined ? `Worktree ${where}${record.worktree?.branch !== undefined ? ` (${record.worktree.branch})` : ""}: show it in the Worktrees tab` : "Ran in a worktree of its own: show it in the Worktrees tab";
  return (
    <button
      className="chip worktree"
      title={visibleString(title)}
      aria-label={`Show the worktree of ${record.description}`}
      onClick={(e) => {
        e.stopPropagation();
        showWorktree({ tabId, agentId: record.taskId, agentLabel: `${record.subagentType} ${record.description}`, ...(where !== undefined ? { path: where } : {}) });
      }}
    >
      ⎇ worktree
    </button>
  );
}

/** The agent's share of the session's tokens, once the session's total is known (a live run's results, a restored session's files). */
function TokenShare({ tabId, record }: { tabId: string; record: SubagentRecord }) {
  const sessionTokens = useApp((s) => s.tabs[tabId]?.transcript.meta?.sessionInputTokens);
  const restored = useApp((s) => s.tabs[tabId]?.info.kind === "restored");
  const share = shareView(record, sessionTokens, restored);
  if (share === undefined) return null;
  return (
    <span className="chip token-share" title={share.why} aria-label={`Share of the session's tokens: ${share.text}`}>
      {share.text}
    </span>
  );
}

/** A Deliberate subagent's phase (clarifying → review → executing → completed). */
export function PhaseBadge({ phase }: { phase: SubagentPhase }) {
  return (
    <span className={`chip phase phase-${phase}`} data-phase={phase} title={`Phase: ${phase}`}>
      {phase}
    </span>
  );
}

function ProgressLine({ record }: { record: SubagentRecord }) {
  return (
    <div className="progress" aria-label="Progress">
      <span className="progress-text"><VisibleText text={record.progressLine ?? "Working…"} /></span>
      {record.retry !== undefined ? <span className="chip warning" aria-label="Retrying">{retryText(record.retry)}</span> : null}
      {record.lastToolName !== undefined ? <span className="chip"><VisibleText text={record.lastToolName} /></span> : null}
      <span className="tokens" aria-label="Tokens">{formatTokens(record.totalTokens)} tokens</span>
      {record.toolUses !== undefined ? <span className="dim">{record.toolUses} tools</span> : null}
    </div>
  );
}

/** "retrying (2/3, overloaded)": which attempt of how many, and why. */
export function retryText(retry: SubagentRetry): string {
  const parts = [retry.maxRetries !== undefined ? `${retry.attempt}/${retry.maxRetries}` : `attempt ${retry.attempt}`];
  if (retry.reason !== undefined) parts.push(retry.reason);
  return `retrying (${parts.join(", ")})`;
}

type LoadState = "idle" | "loading" | "loaded" | "failed";

function Expanded({ tabId, block, record }: { tabId: string; block: Block; record: SubagentRecord }) {
  const live = useChildren(tabId, block.id);
  const ids = useStepIds(tabId, block.id, live);
  const showingAll = useShowingAllSteps(tabId, block.id);
  const [load, setLoad] = useState<LoadState>("idle");
  const needsLoad = (ids.length === 0 || stepsNotStreamed(record)) && record.sidechainPath !== undefined;
  useEffect(() => {
    if (!needsLoad || load !== "idle") return;
    setLoad("loading");
    void loadSteps(tabId, record.toolUseId).then((blocks) => {
      if (blocks === undefined) return setLoad("failed");
      // The hub keeps the newest MaxNestedBlocks; older ones wait for "Show earlier steps".
      insertNested(tabId, block.id, blocks.slice(-MaxNestedBlocks));
      setLoad("loaded");
    });
  }, [needsLoad, load, tabId, block.id, record.toolUseId]);
  return (
    <div className="nested" role="group" aria-label={`Steps of ${record.description}`}>
      {record.droppedBlockCount > 0 && !showingAll ? <EarlierSteps tabId={tabId} cardId={block.id} record={record} live={live} /> : null}
      {needsLoad && load === "loading" ? <div className="note">Loading steps…</div> : null}
      {load === "failed" ? <div className="note error">The subagent's steps could not be loaded (see Console).</div> : null}
      {ids.length === 0 && !needsLoad ? <div className="note">No steps yet.</div> : null}
      <NestedBlocks tabId={tabId} ids={ids} />
    </div>
  );
}

/** The note over a capped step list, with the button that loads the rest from the sidechain. */
function EarlierSteps({ tabId, cardId, record, live }: { tabId: string; cardId: string; record: SubagentRecord; live: readonly string[] }) {
  const [load, setLoad] = useState<LoadState>("idle");
  const count = record.droppedBlockCount;
  const show = async (): Promise<void> => {
    setLoad("loading");
    const blocks = await loadSteps(tabId, record.toolUseId);
    const shown = new Set(live);
    if (blocks !== undefined && blocks.some((b) => !shown.has(b.id))) {
      showAllSteps(tabId, cardId, blocks);
      return;
    }
    if (blocks !== undefined) logProblem("Show earlier steps: the subagent's transcript has no steps beyond those shown", record.toolUseId);
    setLoad("failed");
  };
  return (
    <div className="note earlier-steps" role="status">
      {load === "failed" ? (
        <span className="error">The earlier steps could not be loaded (see Console). </span>
      ) : (
        <span>{count} earlier {count === 1 ? "step" : "steps"} not shown. </span>
      )}
      <button className="link-btn" disabled={load === "loading"} onClick={() => void show()}>
        {load === "loading" ? "Loading…" : load === "failed" ? "Try again" : `Show ${count} earlier ${count === 1 ? "step" : "steps"}`}
      </button>
    </div>
  );
}

/** A record's full step list, or undefined after logging why it could not be read. */
async function loadSteps(tabId: string, toolUseId: string): Promise<readonly Block[] | undefined> {
  try {
    return report("Load subagent steps", await api().loadSubagentBlocks(tabId, toolUseId));
  } catch (error) {
    logProblem(`Load subagent steps: ${String(error)}`, toolUseId);
    return undefined;
  }
}

function logProblem(message: string, toolUseId: string): void {
  addLog({ time: new Date().toISOString(), level: "error", source: "baton", message, fields: { toolUseId } });
}

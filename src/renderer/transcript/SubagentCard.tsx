// A subagent as one card (seed 004 §5, §7b). It subscribes to its own block by id, so a progress
// tick re-renders this card only; its expanded state lives in the store keyed by toolUseId, so it
// survives ticks, new nested blocks, scrolling out of view and reopening the session.
import { memo, useEffect, useState } from "react";
import type { Block, SubagentRecord } from "../../shared/transcript.js";
import { api, report } from "../apiClient.js";
import { Markdown } from "../markdown/Markdown.js";
import { insertNested, select, setExpanded, useApp } from "../store/appStore.js";
import { useChildren, useExpanded, usePendingForAgent } from "../store/selectors.js";
import { elapsedMs, formatDuration, formatTokens, subagentIcon } from "../util/format.js";
import { NestedBlocks } from "./NestedBlocks.js";
import { PermissionPrompt } from "./PermissionPrompt.js";
import { useNow } from "./useNow.js";
import { useSelected } from "./useSelected.js";

export const SubagentCard = memo(function SubagentCard({ tabId, block }: { tabId: string; block: Block }) {
  const call = block.call!;
  const record = call.subagent!;
  const expanded = useExpanded(call.toolUseId);
  const pending = usePendingForAgent(tabId, record.taskId);
  const selected = useSelected(tabId, block.id);
  const running = record.status === "running";
  const now = useNow(running);
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
  return (
    <article
      className={`card subagent ${selected ? "selected" : ""} ${pending.length > 0 ? "waiting" : ""}`}
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
          {running ? <span className="spinner" /> : subagentIcon(record.status)}
        </span>
        <span className="badge" aria-hidden="true">»</span>
        <button className="title-btn" onClick={() => select(tabId, block.id, false)} aria-label={`Inspect ${record.description}`}>
          <span className="agent-type">{record.subagentType}</span>
          <span className="summary">{record.description}</span>
        </button>
        {record.background ? <span className="chip">background</span> : null}
        <span className="elapsed">{formatDuration(elapsed)}</span>
      </header>
      {running ? <ProgressLine record={record} /> : null}
      {pending.map((p) => (
        <PermissionPrompt key={p.requestId} tabId={tabId} request={p} />
      ))}
      {showSummary ? <Markdown className="summary-md" text={summary} /> : null}
      {expanded ? <Expanded tabId={tabId} block={block} record={record} /> : null}
    </article>
  );
});

function ProgressLine({ record }: { record: SubagentRecord }) {
  return (
    <div className="progress" aria-label="Progress">
      <span className="progress-text">{record.progressLine ?? "Working…"}</span>
      {record.lastToolName !== undefined ? <span className="chip">{record.lastToolName}</span> : null}
      <span className="tokens" aria-label="Tokens">{formatTokens(record.totalTokens)} tokens</span>
      {record.toolUses !== undefined ? <span className="dim">{record.toolUses} tools</span> : null}
    </div>
  );
}

type LoadState = "idle" | "loading" | "failed";

function Expanded({ tabId, block, record }: { tabId: string; block: Block; record: SubagentRecord }) {
  const ids = useChildren(tabId, block.id);
  const [load, setLoad] = useState<LoadState>("idle");
  const needsLoad = ids.length === 0 && record.sidechainPath !== undefined;
  useEffect(() => {
    if (!needsLoad || load !== "idle") return;
    setLoad("loading");
    void api()
      .loadSubagentBlocks(tabId, record.toolUseId)
      .then((r) => {
        const blocks = report("Load subagent steps", r);
        if (blocks === undefined) setLoad("failed");
        else insertNested(tabId, block.id, blocks);
      });
  }, [needsLoad, load, tabId, block.id, record.toolUseId]);
  return (
    <div className="nested" role="group" aria-label={`Steps of ${record.description}`}>
      {record.droppedBlockCount > 0 ? <div className="note">{record.droppedBlockCount} earlier steps not shown</div> : null}
      {needsLoad && load === "loading" ? <div className="note">Loading steps…</div> : null}
      {load === "failed" ? <div className="note error">The subagent's steps could not be loaded (see Console).</div> : null}
      {ids.length === 0 && !needsLoad ? <div className="note">No steps yet.</div> : null}
      <NestedBlocks tabId={tabId} ids={ids} />
    </div>
  );
}

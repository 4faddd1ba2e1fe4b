// Everything about the selected subagent or tool call of the session in front.
import type { ReactNode } from "react";
import type { Block, SubagentRecord, ToolCallRecord } from "../../shared/transcript.js";
import { toolResultText } from "../../shared/toolErrorText.js";
import { Markdown } from "../markdown/Markdown.js";
import { useApp } from "../state/appState.js";
import { useStepBlock } from "../state/fullSteps.js";
import { clockTime, escalationHistory, waitingOn, waitingText } from "../transcript/escalationText.js";
import { PhaseBadge, WorktreeBadge } from "../transcript/SubagentCard.js";
import { ToolBody } from "../transcript/toolBodies.js";
import { elapsedMs, formatDuration, formatTokens } from "../util/format.js";
import { VisibleText } from "../util/VisibleText.js";
import { HitMarksScope } from "../util/HitMarks.js";
import { useBlockMarks } from "../transcript/findState.js";

function Row({ name, children }: { name: string; children: ReactNode }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** The selection of the session in front (each tab keeps its own: appState's `selectedByTab`), or nothing. */
export function Inspector() {
  const selection = useApp((s) => s.selection);
  // An earlier step of a fully shown card may live only in its kept copy (fullSteps.ts).
  const block = useStepBlock(selection?.tabId ?? "", selection?.blockId ?? "");
  // A find's hit in the selected call: its words are marked here too.
  const marks = useBlockMarks(selection?.tabId ?? "", selection?.blockId ?? "");
  if (block?.call === undefined) return <div className="empty">Select a subagent or tool call.</div>;
  return (
    <HitMarksScope marks={marks}>
      {block.call.subagent !== undefined ? (
        <SubagentDetails tabId={selection?.tabId ?? ""} block={block} record={block.call.subagent} />
      ) : (
        <ToolDetails call={block.call} tabId={selection?.tabId} />
      )}
    </HitMarksScope>
  );
}

/** The session's own count of its subagents (a turn result's `subagent_stats`, CLI 2.1.332+). */
function SessionAgents({ tabId }: { tabId: string }) {
  const stats = useApp((s) => s.tabs[tabId]?.transcript.meta?.subagentStats);
  if (stats === undefined) return null;
  const parts: string[] = [];
  const add = (value: number | undefined, label: string): void => {
    if (value !== undefined && (value > 0 || label === "spawned")) parts.push(`${value} ${label}`);
  };
  add(stats.spawned, "spawned");
  add(stats.completed, "completed");
  add(stats.failed, "failed");
  add(stats.killed, "killed");
  add(stats.refused, "refused");
  if (stats.maxDepth !== undefined) parts.push(`depth ≤ ${stats.maxDepth}`);
  return (
    <p className="dim" aria-label="Session subagents">
      This session's subagents: {parts.join(", ")}
    </p>
  );
}

function SubagentDetails({ tabId, block, record }: { tabId: string; block: Block; record: SubagentRecord }) {
  const call = block.call!;
  return (
    <div className="inspector-body" aria-label="Subagent details">
      <h3>» <VisibleText text={record.subagentType} /></h3>
      <dl className="props">
        <Row name="Description"><VisibleText text={record.description} /></Row>
        <Row name="Status">{record.status}</Row>
        {record.phase !== undefined ? <Row name="Phase"><PhaseBadge phase={record.phase} /></Row> : null}
        <Row name="Agent id">{record.taskId || "–"}</Row>
        <Row name="Model">{record.model ?? "–"}</Row>
        <Row name="Tokens">{formatTokens(record.totalTokens)}</Row>
        <Row name="Tool uses">{record.toolUses ?? "–"}</Row>
        <Row name="Duration">{formatDuration(record.durationMs ?? elapsedMs(call.startedAt, call.endedAt, Date.now()))}</Row>
        {record.background ? <Row name="Mode">background</Row> : null}
        {record.spawnDepth !== undefined ? <Row name="Depth">{record.spawnDepth}</Row> : null}
        {record.parentTaskId !== undefined ? <Row name="Started by">{record.parentTaskId}</Row> : null}
        {record.runId !== undefined ? <Row name="Run">{record.runId}</Row> : null}
        {record.toolsUsed !== undefined ? <Row name="Tools used"><VisibleText text={record.toolsUsed.join(", ") || "none"} /></Row> : null}
        {record.error !== undefined ? <Row name="Error"><VisibleText text={record.error} /></Row> : null}
        {record.worktree !== undefined ? (
          <Row name="Worktree">
            {record.worktree.path !== undefined ? <VisibleText text={record.worktree.path} /> : "its own (none kept, or not named yet)"}
            {record.worktree.branch !== undefined ? <> on <VisibleText text={record.worktree.branch} /></> : null} <WorktreeBadge tabId={tabId} record={record} />
          </Row>
        ) : null}
      </dl>
      <h4>Prompt</h4>
      <pre className="out"><VisibleText text={record.prompt} /></pre>
      {record.summaryMarkdown !== undefined ? (
        <>
          <h4>Summary</h4>
          <Markdown text={record.summaryMarkdown} />
        </>
      ) : null}
      <SessionAgents tabId={tabId} />
      {(record.escalations?.length ?? 0) > 0 || (record.phaseHistory?.length ?? 0) > 0 ? <EscalationHistory record={record} /> : null}
      <h4>Permission history</h4>
      {record.permissionHistory === undefined || record.permissionHistory.length === 0 ? (
        <div className="dim">No requests.</div>
      ) : (
        <ul className="perm-history">
          {record.permissionHistory.map((p) => (
            <li key={p.requestId}>
              {p.toolName} — <span className={`perm-badge ${p.state}`}>{p.state}</span>
              {p.decidedBy !== undefined ? <span className="dim"> by {p.decidedBy}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The agent's questions, plans, answers and reviews in time order (issue 24). */
function EscalationHistory({ record }: { record: SubagentRecord }) {
  const waiting = waitingOn(record.escalations);
  return (
    <>
      <h4>Questions and plans</h4>
      {waiting !== undefined ? <div className="node-waiting">◷ {waitingText(waiting)}</div> : null}
      <ol className="escalation-history" aria-label="Questions and plans">
        {escalationHistory(record.escalations, record.phaseHistory).map((entry) => (
          <li key={entry.key} className={`eh-${entry.kind}`} data-kind={entry.kind}>
            <div className="eh-head">
              <b>{entry.title}</b> <time className="dim" dateTime={entry.at}>{clockTime(entry.at)}</time>
            </div>
            {entry.isPlan ? (
              <Markdown className="plan-md" text={entry.text} />
            ) : entry.text !== "" ? (
              <div className="eh-text"><VisibleText text={entry.text} /></div>
            ) : null}
          </li>
        ))}
      </ol>
    </>
  );
}

function ToolDetails({ call, tabId }: { call: ToolCallRecord; tabId: string | undefined }) {
  return (
    <div className="inspector-body" aria-label="Tool call details">
      <h3><VisibleText text={call.name} /></h3>
      <dl className="props">
        <Row name="Status">{call.status}</Row>
        <Row name="Id">{call.toolUseId}</Row>
        <Row name="Started">{call.startedAt ?? "–"}</Row>
        <Row name="Ended">{call.endedAt ?? "–"}</Row>
        <Row name="Duration">{formatDuration(elapsedMs(call.startedAt, call.endedAt, Date.now()))}</Row>
        {call.permission !== undefined ? (
          <Row name="Permission">
            {call.permission.state}
            {call.permission.decidedBy !== undefined ? ` by ${call.permission.decidedBy}` : ""}
            {call.permission.message !== undefined ? <>: <VisibleText text={call.permission.message} /></> : ""}
          </Row>
        ) : null}
      </dl>
      <ToolBody call={call} tabId={tabId} />
      <h4>Input</h4>
      <pre className="json"><VisibleText text={JSON.stringify(call.input, null, 2)} /></pre>
      {call.result !== undefined ? (
        <>
          <h4>Result{call.result.isError ? " (error)" : ""}</h4>
          <pre className="out"><VisibleText text={toolResultText(call.result.text, call.result.isError)} /></pre>
          {call.result.structured !== undefined ? <pre className="json"><VisibleText text={JSON.stringify(call.result.structured, null, 2)} /></pre> : null}
        </>
      ) : null}
    </div>
  );
}

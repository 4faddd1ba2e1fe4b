// The session as a tree: conductor → subagents → nested subagents, with live status icons. They
// are glyphs, not spinners: the running cards spin already, and every animated element costs the
// page a style recalc per frame when there is no GPU.
import { memo, useRef } from "react";
import { select, useApp } from "../state/appState.js";
import { useShallow } from "zustand/shallow";
import { useChildren } from "../state/selectors.js";
import type { EscalationTarget, SubagentPhase } from "../../shared/escalation.js";
import type { SubagentRecord } from "../../shared/transcript.js";
import { waitingOn, waitingText } from "../transcript/escalationText.js";
import { commandTitle } from "../../shared/commandEcho.js";
import { agentIds, type AgentIds } from "../util/agentIds.js";
import { subagentIcon } from "../util/format.js";
import { VisibleText } from "../util/VisibleText.js";
import { statusText } from "./Toolbar.js";

function useSubagentIds(tabId: string, parentId: string): string {
  // A joined string keeps the tree from re-rendering on ticks that do not add or remove agents.
  // This selector runs on every update of the app state: it reads only the blocks a list gained since the
  // last answer (see agentIds), not every block each time.
  const ids = useChildren(tabId, parentId);
  const last = useRef<AgentIds | undefined>(undefined);
  return useApp((s) => {
    const transcript = s.tabs[tabId]?.transcript;
    if (transcript === undefined) return "";
    const next = agentIds(last.current, ids, transcript.agentEpoch, (id) => transcript.blocksById.get(id)?.call?.subagent !== undefined);
    last.current = next;
    return next.joined;
  });
}

export function Hierarchy() {
  const tabId = useApp((s) => s.activeTabId);
  const title = useApp((s) => (tabId !== undefined ? s.tabs[tabId]?.transcript.meta?.title ?? s.tabs[tabId]?.info.title : undefined));
  const status = useApp((s) => (tabId !== undefined ? s.tabs[tabId]?.transcript.meta?.status : undefined));
  const background = useApp((s) => (tabId !== undefined ? (s.tabs[tabId]?.transcript.meta?.backgroundAgents ?? 0) : 0));
  if (tabId === undefined) return <div className="empty">No session.</div>;
  // Running after its turn's result too, while background agents of the session live.
  const said = statusText(status ?? "idle", background);
  return (
    <ul className="tree" role="tree" aria-label="Agents">
      <li role="treeitem" aria-expanded={true} aria-selected={false}>
        <div className="node conductor" data-status={status ?? "idle"}>
          <span className={`icon st-${status ?? "idle"}`} role="img" aria-label={said} title={said}>{status === "running" ? subagentIcon("running") : "●"}</span> Conductor
          <span className="dim"> {title !== undefined ? <VisibleText text={commandTitle(title)} /> : null}</span>
        </div>
        <Children tabId={tabId} parentId="" />
      </li>
    </ul>
  );
}

function Children({ tabId, parentId }: { tabId: string; parentId: string }) {
  const joined = useSubagentIds(tabId, parentId);
  if (joined === "") return null;
  return (
    <ul role="group">
      {joined.split("\n").map((id) => (
        <Node key={id} tabId={tabId} id={id} />
      ))}
    </ul>
  );
}

type Shown = readonly [SubagentRecord["status"], string, string, SubagentPhase | "", EscalationTarget | "", boolean];
const NotShown: readonly [] = [];

const Node = memo(function Node({ tabId, id }: { tabId: string; id: string }) {
  // Only what the node shows: a progress tick of a running subagent does not re-render it.
  const shown = useApp(
    useShallow((s): Shown | typeof NotShown => {
      const record = s.tabs[tabId]?.transcript.blocksById.get(id)?.call?.subagent;
      return record === undefined ? NotShown : [record.status, record.subagentType, record.description, record.phase ?? "", waitingOn(record.escalations) ?? "", record.worktree !== undefined];
    }),
  );
  const selected = useApp((s) => s.selection?.tabId === tabId && s.selection.blockId === id);
  if (shown.length === 0) return null;
  const [status, subagentType, description, phase, waiting, isolated] = shown;
  return (
    <li role="treeitem" aria-selected={selected} aria-label={`${subagentType}: ${description}`}>
      <button
        className={`node ${selected ? "selected" : ""} ${waiting !== "" ? "waiting" : ""}`}
        onClick={() => select(tabId, id, true)}
        data-status={status}
        {...(phase !== "" ? { "data-phase": phase } : {})}
        {...(waiting !== "" ? { "data-waiting": waiting } : {})}
      >
        <span className={`icon st-${status}`}>{subagentIcon(status)}</span>
        <span className="agent-type"><VisibleText text={subagentType} /></span> <span className="node-desc"><VisibleText text={description} /></span>
        {phase !== "" ? <span className={`chip phase phase-${phase}`} data-phase={phase} title={`Phase: ${phase}`}>{phase}</span> : null}
        {waiting !== "" ? <WaitingFlag on={waiting} /> : null}
        {isolated ? <span className="node-worktree" role="img" aria-label="in its own worktree" title="Ran in a git worktree of its own">⎇</span> : null}
      </button>
      <Children tabId={tabId} parentId={id} />
    </li>
  );
});

/** An agent with an open question or plan: who it waits on. */
function WaitingFlag({ on }: { on: EscalationTarget }) {
  const said = waitingText(on);
  return (
    <span className={`node-waiting to-${on}`} role="img" aria-label={said} title={said}>
      <span aria-hidden="true">◷ {on === "person" ? "waiting for you" : "waiting"}</span>
    </span>
  );
}

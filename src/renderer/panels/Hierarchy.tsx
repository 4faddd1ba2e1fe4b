// The session as a tree: conductor → subagents → nested subagents, with live status icons. They
// are glyphs, not spinners: the running cards spin already, and every animated element costs the
// page a style recalc per frame when there is no GPU.
//
// A row starts with the agent's description (what a person tells agents apart by) and ends with its
// type as a small badge; the whole text is in the row's tooltip. The tree is one Tab stop with the
// ARIA tree's keys (hierarchyNav.ts): the rows are read from the app state when a key arrives.
import { memo, useEffect, useId, useRef, type KeyboardEvent } from "react";
import { select, useApp } from "../state/appState.js";
import { useShallow } from "zustand/shallow";
import { useChildren } from "../state/selectors.js";
import type { EscalationTarget, SubagentPhase } from "../../shared/escalation.js";
import type { SubagentRecord } from "../../shared/transcript.js";
import { ConductorNodeId } from "../../shared/sessionGraph.js";
import { waitingOn, waitingText } from "../transcript/escalationText.js";
import { ancestorsOf } from "../transcript/ancestors.js";
import { agentIds, type AgentIds } from "../util/agentIds.js";
import { subagentIcon } from "../util/format.js";
import { VisibleText, visibleString } from "../util/VisibleText.js";
import { statusText } from "./Toolbar.js";
import { registerKeyHelp } from "../keys/keyHelp.js";
import { foldedAfter, HierarchyKeys, treeKey, visibleRows } from "./hierarchyNav.js";
import { foldsOf, releaseActiveRow, setActiveRow, setFolds, useFolded, useIsActive } from "./hierarchyState.js";
import "./hierarchy.css";

registerKeyHelp({ where: "Hierarchy", keys: HierarchyKeys });

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

/** The rows of the tab's tree as shown now, read once per key press. */
function rowsOf(tabId: string) {
  const transcript = useApp.getState().tabs[tabId]?.transcript;
  const record = (id: string): SubagentRecord | undefined => transcript?.blocksById.get(id)?.call?.subagent;
  const childrenOf = (id: string): readonly string[] =>
    (transcript?.children.get(id === ConductorNodeId ? "" : id) ?? []).filter((child) => record(child) !== undefined);
  const labelOf = (id: string): string => (id === ConductorNodeId ? "Conductor" : (record(id)?.description ?? ""));
  return visibleRows(ConductorNodeId, childrenOf, labelOf, foldsOf(tabId));
}

function rowElement(tree: HTMLElement, id: string): HTMLElement | null {
  return tree.querySelector<HTMLElement>(`[role="treeitem"][data-row-id="${CSS.escape(id)}"]`);
}

export function Hierarchy() {
  const tabId = useApp((s) => s.activeTabId);
  const title = useApp((s) => (tabId !== undefined ? s.tabs[tabId]?.info.title : undefined));
  const status = useApp((s) => (tabId !== undefined ? s.tabs[tabId]?.transcript.meta?.status : undefined));
  const background = useApp((s) => (tabId !== undefined ? (s.tabs[tabId]?.transcript.meta?.backgroundAgents ?? 0) : 0));
  const hasAgents = useSubagentIds(tabId ?? "", "") !== "";
  const tree = useRef<HTMLUListElement>(null);
  useRevealSelection(tabId);
  const folded = useFolded(tabId ?? "", ConductorNodeId);
  const active = useIsActive(tabId ?? "", ConductorNodeId);
  if (tabId === undefined) return <div className="empty">No session.</div>;
  // Running after its turn's result too, while background agents of the session live.
  const said = statusText(status ?? "idle", background);
  const shownTitle = title;
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>): void => {
    if (e.altKey || e.ctrlKey || e.metaKey || tree.current === null) return;
    const current = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]')?.dataset["rowId"];
    if (current === undefined) return;
    const action = treeKey(rowsOf(tabId), current, e.key);
    if (action === undefined) return;
    e.preventDefault();
    if (action.kind === "fold") setFolds(tabId, foldedAfter(foldsOf(tabId), action));
    else if (action.kind === "select" && action.id !== ConductorNodeId) select(tabId, action.id, true);
    if (action.kind === "focus") {
      setActiveRow(tabId, action.id);
      rowElement(tree.current, action.id)?.focus();
    }
  };
  return (
    <ul
      className="tree"
      role="tree"
      aria-label="Agents"
      ref={tree}
      onKeyDown={onKeyDown}
      onFocus={(e) => {
        const id = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]')?.dataset["rowId"];
        if (id !== undefined) setActiveRow(tabId, id);
      }}
    >
      <li
        role="treeitem"
        data-row-id={ConductorNodeId}
        aria-level={1}
        aria-expanded={hasAgents ? !folded : undefined}
        aria-selected={false}
        aria-label={shownTitle !== undefined ? `Conductor: ${shownTitle}` : "Conductor"}
        tabIndex={active ? 0 : -1}
      >
        <div className="node conductor" data-status={status ?? "idle"} title={shownTitle !== undefined ? visibleString(shownTitle) : undefined}>
          <Twisty tabId={tabId} id={ConductorNodeId} shown={hasAgents} folded={folded} />
          <span className={`icon st-${status ?? "idle"}`} role="img" aria-label={said} title={said}>{status === "running" ? subagentIcon("running") : "●"}</span> Conductor
          <span className="dim node-desc">{shownTitle !== undefined ? <VisibleText text={shownTitle} /> : null}</span>
        </div>
        {hasAgents && !folded ? <Children tabId={tabId} parentId="" level={2} /> : null}
      </li>
    </ul>
  );
}

/** A selection made elsewhere (graph, transcript) unfolds the agents above it and takes the Tab stop. */
function useRevealSelection(tabId: string | undefined): void {
  const selected = useApp((s) => (tabId !== undefined && s.selection?.tabId === tabId ? s.selection.blockId : undefined));
  useEffect(() => {
    if (tabId === undefined || selected === undefined) return;
    const transcript = useApp.getState().tabs[tabId]?.transcript;
    const chain = transcript === undefined ? undefined : ancestorsOf(transcript, selected);
    if (chain === undefined || transcript?.blocksById.get(selected)?.call?.subagent === undefined) return;
    let folds = foldsOf(tabId);
    for (const id of [ConductorNodeId, ...chain.slice(0, -1)]) folds = foldedAfter(folds, { kind: "fold", id, open: true });
    setFolds(tabId, folds);
    setActiveRow(tabId, selected);
  }, [tabId, selected]);
}

/** The fold control for the mouse; the keyboard folds with Left and Right. */
function Twisty({ tabId, id, shown, folded }: { tabId: string; id: string; shown: boolean; folded: boolean }) {
  if (!shown) return <span className="twisty" aria-hidden="true" />;
  return (
    <span
      className="twisty"
      aria-hidden="true"
      onClick={(e) => {
        e.stopPropagation();
        setFolds(tabId, foldedAfter(foldsOf(tabId), { kind: "fold", id, open: folded }));
      }}
    >
      {folded ? "▸" : "▾"}
    </span>
  );
}

function Children({ tabId, parentId, level }: { tabId: string; parentId: string; level: number }) {
  const joined = useSubagentIds(tabId, parentId);
  if (joined === "") return null;
  return (
    <ul role="group">
      {joined.split("\n").map((id) => (
        <Node key={id} tabId={tabId} id={id} level={level} />
      ))}
    </ul>
  );
}

type Shown = readonly [SubagentRecord["status"], string, string, SubagentPhase | "", EscalationTarget | "", boolean];
const NotShown: readonly [] = [];

const Node = memo(function Node({ tabId, id, level }: { tabId: string; id: string; level: number }) {
  // Only what the node shows: a progress tick of a running subagent does not re-render it.
  const shown = useApp(
    useShallow((s): Shown | typeof NotShown => {
      const record = s.tabs[tabId]?.transcript.blocksById.get(id)?.call?.subagent;
      return record === undefined ? NotShown : [record.status, record.subagentType, record.description, record.phase ?? "", waitingOn(record.escalations) ?? "", record.worktree !== undefined];
    }),
  );
  const selected = useApp((s) => s.selection?.tabId === tabId && s.selection.blockId === id);
  const hasChildren = useSubagentIds(tabId, id) !== "";
  const folded = useFolded(tabId, id);
  const active = useIsActive(tabId, id);
  const describedBy = useId();
  const row = useRef<HTMLLIElement>(null);
  // A row that goes away gives the Tab stop back; a row selected elsewhere comes into view.
  useEffect(() => () => releaseActiveRow(tabId, id), [tabId, id]);
  useEffect(() => {
    if (selected) row.current?.querySelector(":scope > .node")?.scrollIntoView({ block: "nearest" });
  }, [selected]);
  if (shown.length === 0) return null;
  const [status, subagentType, description, phase, waiting, isolated] = shown;
  const details = [status, phase !== "" ? `phase ${phase}` : "", waiting !== "" ? waitingText(waiting) : "", isolated ? "in its own worktree" : ""].filter((d) => d !== "");
  return (
    <li
      ref={row}
      role="treeitem"
      data-row-id={id}
      aria-level={level}
      aria-expanded={hasChildren ? !folded : undefined}
      aria-selected={selected}
      aria-label={`${description} (${subagentType})`}
      aria-describedby={describedBy}
      tabIndex={active ? 0 : -1}
    >
      <div
        className={`node ${selected ? "selected" : ""} ${waiting !== "" ? "waiting" : ""}`}
        onClick={() => select(tabId, id, true)}
        title={visibleString(`${description}\n${subagentType}`)}
        data-status={status}
        {...(phase !== "" ? { "data-phase": phase } : {})}
        {...(waiting !== "" ? { "data-waiting": waiting } : {})}
      >
        <Twisty tabId={tabId} id={id} shown={hasChildren} folded={folded} />
        <span className={`icon st-${status}`} aria-hidden="true">{subagentIcon(status)}</span>
        <span className="node-desc"><VisibleText text={description} /></span>
        <span className="agent-badge"><VisibleText text={subagentType} /></span>
        {phase !== "" ? <span className={`chip phase phase-${phase}`} data-phase={phase} title={`Phase: ${phase}`}>{phase}</span> : null}
        {waiting !== "" ? <WaitingFlag on={waiting} /> : null}
        {isolated ? <span className="node-worktree" role="img" aria-label="in its own worktree" title="Ran in a git worktree of its own">⎇</span> : null}
        <span id={describedBy} hidden>{details.join(", ")}</span>
      </div>
      {hasChildren && !folded ? <Children tabId={tabId} parentId={id} level={level + 1} /> : null}
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

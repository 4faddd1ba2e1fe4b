// The session graph's nodes. Each reads only what it shows from the app state by its id, so a progress
// tick re-renders no node and a status change re-renders one. Types, descriptions and titles come
// from the model or a history file: drawn as text (VisibleText), never as HTML.
import { memo } from "react";
import { useShallow } from "zustand/shallow";
import { BaseEdge, Handle, Position, type EdgeProps, type NodeProps } from "@xyflow/react";
import { agentLabel, orchestrationOf, toneOf, type AgentPhase } from "../../shared/sessionGraph.js";
import type { SubagentStatus } from "../../shared/transcript.js";
import { select, useApp } from "../state/appState.js";
import { showSession } from "../actions.js";
import { subagentIcon } from "../util/format.js";
import { VisibleText } from "../util/VisibleText.js";
import { PackGutter } from "../../shared/sessionGraphLayout.js";
import type { FlowEdge, FlowNode } from "./useGraphStructure.js";

type Shown = readonly [SubagentStatus, string, string, boolean, AgentPhase | "", number, number];
const NotShown: readonly [] = [];

export const AgentNode = memo(function AgentNode({ id, data }: NodeProps<FlowNode>) {
  const { tabId, parentId, packed } = data;
  const shown = useApp(
    useShallow((s): Shown | typeof NotShown => {
      const record = s.tabs[tabId]?.transcript.blocksById.get(id)?.call?.subagent;
      if (record === undefined) return NotShown;
      const { phase, badges } = orchestrationOf(record);
      return [record.status, record.subagentType, record.description, record.background, phase ?? "", badges?.openQuestions ?? 0, badges?.plansInReview ?? 0];
    }),
  );
  const selected = useApp((s) => s.selection?.tabId === tabId && s.selection.blockId === id);
  if (shown.length === 0) return null;
  const [status, subagentType, description, background, phase, questions, plans] = shown;
  return (
    <>
      <Handle type="target" position={packed ? Position.Left : Position.Top} isConnectable={false} />
      <button
        className={`graph-node tone-${toneOf(status)}${selected ? " selected" : ""}`}
        aria-label={agentLabel(subagentType, description)}
        aria-current={selected ? "true" : undefined}
        data-status={status}
        data-node-id={id}
        data-parent={parentId}
        title={`${subagentType}: ${description}`}
        onClick={() => select(tabId, id, true)}
      >
        <span className="gn-head">
          <span className={`icon st-${status}`} aria-hidden="true">{subagentIcon(status)}</span>
          <span className="agent-type"><VisibleText text={subagentType} /></span>
          {phase !== "" ? <span className={`chip phase phase-${phase}`} aria-label={`Phase ${phase}`}>{phase}</span> : null}
          {questions > 0 ? <span className="chip warning" aria-label={`${questions} open ${questions === 1 ? "question" : "questions"}`}>? {questions}</span> : null}
          {plans > 0 ? <span className="chip warning" aria-label={`${plans} ${plans === 1 ? "plan" : "plans"} in review`}>plan {plans}</span> : null}
          {background ? <span className="chip">bg</span> : null}
        </span>
        <span className="gn-desc"><VisibleText text={description} /></span>
      </button>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </>
  );
});

export const ConductorNode = memo(function ConductorNode({ id, data }: NodeProps<FlowNode>) {
  const { tabId, parentId } = data;
  const [status, title] = useApp(
    useShallow((s) => {
      const meta = s.tabs[tabId]?.transcript.meta;
      return [meta?.status ?? "idle", s.tabs[tabId]?.info.title ?? ""] as const;
    }),
  );
  return (
    <>
      {parentId !== undefined ? <Handle type="target" position={Position.Top} isConnectable={false} /> : null}
      <div className={`graph-node conductor tone-${toneOf(status)}`} role="group" aria-label="Conductor" data-status={status} data-node-id={id}>
        <span className="gn-head">
          <span className={`icon st-${status}`} aria-hidden="true">{status === "running" ? subagentIcon("running") : "●"}</span>
          <span className="agent-type">Conductor</span>
        </span>
        <span className="gn-desc"><VisibleText text={title} /></span>
      </div>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </>
  );
});

/** A fork's origin (issue 37): the session it was forked from, named by its title where Baton knows it; a click brings it forward. */
export const ForkOriginNode = memo(function ForkOriginNode({ id, data }: NodeProps<FlowNode>) {
  const { tabId } = data;
  const [sessionId, title] = useApp(
    useShallow((s) => {
      const origin = s.tabs[tabId]?.info.forkedFrom?.sessionId ?? "";
      const openTab = Object.values(s.tabs).find((t) => t.info.sessionId === origin);
      return [origin, openTab?.info.title ?? s.sessions.find((x) => x.sessionId === origin)?.title ?? origin] as const;
    }),
  );
  if (sessionId === "") return null;
  return (
    <>
      <button className="graph-node fork-origin tone-idle" aria-label={`Forked from ${title}`} data-node-id={id} title="Forked from this session: open it" onClick={() => void showSession(sessionId)}>
        <span className="gn-head">
          <span className="agent-type">Forked from</span>
        </span>
        <span className="gn-desc"><VisibleText text={title} /></span>
      </button>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </>
  );
});

export const GraphNodeTypes = { agent: AgentNode, conductor: ConductorNode, origin: ForkOriginNode };

/** The edge to a packed leaf: down from the caller, across above the grid, down its column's gutter, into its left side. */
function CombEdge({ id, sourceX, sourceY, targetX, targetY, data, markerEnd }: EdgeProps<FlowEdge>) {
  const busY = data?.busY ?? (sourceY + targetY) / 2;
  const gutterX = targetX - PackGutter / 2;
  return <BaseEdge id={id} path={`M${sourceX},${sourceY} V${busY} H${gutterX} V${targetY} H${targetX}`} markerEnd={markerEnd} />;
}

export const GraphEdgeTypes = { comb: CombEdge };

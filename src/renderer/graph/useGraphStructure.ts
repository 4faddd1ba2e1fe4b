// The session graph's structure for one tab, and its layout. The structure (which agents, who called
// whom) is read from the app state on every update but compared as one string, so progress ticks and
// status changes re-render no part of the graph here: each node reads its own record (GraphNodes).
// The layout runs only when that string changes, and a large graph is laid out at most at a pace
// that leaves the main thread most of its time.

import { useEffect, useRef, useState } from "react";
import { MarkerType, type Edge, type EdgeMarker, type Node } from "@xyflow/react";
import type { TranscriptState } from "../../shared/delta/index.js";
import { ConductorNodeId, sessionGraphOfState, structureKey, type GraphEdge } from "../../shared/sessionGraph.js";
import { GraphNodeHeight, GraphNodeWidth, layoutSessionGraph } from "../../shared/sessionGraphLayout.js";
import { useApp } from "../state/appState.js";

/** What a drawn node knows; everything it shows it reads from the app state by its id. */
export type GraphNodeData = {
  readonly tabId: string;
  readonly parentId: string | undefined;
  /** One of many leaves packed in a grid under their caller: its edge comes in from the left. */
  readonly packed: boolean;
};
export type FlowNode = Node<GraphNodeData, "agent" | "conductor" | "origin">;

/** A fork's origin (issue 37): the session the tab was forked from, drawn above the conductor with an edge to it. */
export const ForkOriginNodeId = "@fork-origin";
/** A comb edge runs from its caller down to `busY`, across to the gutter of its column, down, and in. */
export type CombEdgeData = { readonly busY: number };
export type FlowEdge = Edge<CombEdgeData>;

export interface LaidOutGraph {
  /** The tab and structure this layout is of. */
  readonly key: string;
  readonly nodes: readonly FlowNode[];
  readonly edges: readonly FlowEdge[];
  /** How long the layout took, in ms (shown as the panel's data-layout-ms). */
  readonly layoutMs: number;
}

/** Spawn edges point from caller to callee. */
const Arrow: EdgeMarker = { type: MarkerType.ArrowClosed, width: 14, height: 14, color: "#8a8a8a" };

/** A layout may use at most this share of the main thread while the structure keeps changing. */
const LayoutShare = 0.2;

/** The structure of `tabId`'s graph as one comparable string (see `structureKey`). */
export function useStructureKey(tabId: string): string {
  const memo = useRef<{ transcript: TranscriptState; forked: boolean; key: string } | undefined>(undefined);
  return useApp((s) => {
    const transcript = s.tabs[tabId]?.transcript;
    if (transcript === undefined) return "";
    const forked = s.tabs[tabId]?.info.forkedFrom !== undefined;
    const last = memo.current;
    // Only a new block or a new child list can change the structure (a record's task ids arrive in an upsert).
    if (last !== undefined && last.forked === forked && last.transcript.blocksById === transcript.blocksById && last.transcript.children === transcript.children) return last.key;
    const key = withForkOrigin(structureKey(sessionGraphOfState(transcript)), forked);
    memo.current = { transcript, forked, key };
    return key;
  });
}

/** A fork's structure: its origin first, the conductor under it. */
function withForkOrigin(key: string, forked: boolean): string {
  const conductorLine = `${ConductorNodeId}<`;
  if (!forked || !key.startsWith(conductorLine)) return key;
  return `${ForkOriginNodeId}<\n${ConductorNodeId}<${ForkOriginNodeId}${key.slice(conductorLine.length)}`;
}

/** `structureKey`'s lines back into nodes and edges. */
function parseStructure(key: string): { ids: { id: string; parentId: string | undefined }[]; edges: GraphEdge[] } {
  const ids: { id: string; parentId: string | undefined }[] = [];
  const edges: GraphEdge[] = [];
  for (const line of key === "" ? [] : key.split("\n")) {
    const cut = line.lastIndexOf("<");
    const id = line.slice(0, cut);
    const parent = line.slice(cut + 1);
    ids.push({ id, parentId: parent === "" ? undefined : parent });
    if (parent !== "") edges.push({ id: `${parent}>${id}`, source: parent, target: id });
  }
  return { ids, edges };
}

function laidOut(tabId: string, structure: string): LaidOutGraph {
  const { ids, edges } = parseStructure(structure);
  const { positions, packed } = layoutSessionGraph({ nodes: ids, edges });
  const nodes: FlowNode[] = ids.map(({ id, parentId }) => ({
    id,
    type: id === ConductorNodeId ? "conductor" : id === ForkOriginNodeId ? "origin" : "agent",
    position: positions.get(id) ?? { x: 0, y: 0 },
    data: { tabId, parentId, packed: packed.has(id) },
    width: GraphNodeWidth,
    height: GraphNodeHeight,
    draggable: false,
    selectable: false,
    connectable: false,
  }));
  const flowEdges = edges.map((e): FlowEdge => {
    const comb = packed.get(e.target);
    const common = { ...e, markerEnd: Arrow, focusable: false, selectable: false };
    return comb === undefined ? { ...common, type: "smoothstep" } : { ...common, type: "comb", data: { busY: comb.busY } };
  });
  return { key: `${tabId}\n${structure}`, nodes, edges: flowEdges, layoutMs: 0 };
}

/**
 * The layout of `structure`, redone only when it changes. A layout that took t ms waits until
 * t / LayoutShare ms after the previous one ended: immediate for a small graph, a few per second
 * for 400 agents spawning at once, and never starved by deltas arriving meanwhile.
 */
export function useLaidOutGraph(tabId: string, structure: string): LaidOutGraph | undefined {
  const [graph, setGraph] = useState<LaidOutGraph | undefined>(undefined);
  const pace = useRef({ endedAt: 0, cost: 0 });
  const key = `${tabId}\n${structure}`;
  useEffect(() => {
    if (graph?.key === key || structure === "") return;
    const wait = Math.max(0, pace.current.endedAt + pace.current.cost / LayoutShare - pace.current.cost - performance.now());
    const timer = setTimeout(() => {
      const start = performance.now();
      const next = laidOut(tabId, structure);
      const end = performance.now();
      pace.current = { endedAt: end, cost: end - start };
      setGraph({ ...next, layoutMs: Math.round(end - start) });
    }, wait);
    return () => clearTimeout(timer);
  }, [key]);
  return graph?.key.startsWith(`${tabId}\n`) === true ? graph : undefined;
}

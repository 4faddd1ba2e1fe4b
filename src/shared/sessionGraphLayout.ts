// Where each node of the session graph goes: a layered top-down layout by dagre, callers above the
// agents they started. Every node has the same fixed box, so the layout depends on the structure
// alone (sessionGraph.ts `structureKey`) and a status, phase or badge change never moves a node.
// 400 agents take about a tenth of a second here: callers lay out only when the structure changes.

import { Graph, layout } from "@dagrejs/dagre";

export const GraphNodeWidth = 210;
export const GraphNodeHeight = 60;
const NodeGap = 16;
const RankGap = 48;

/** A node's top-left corner. */
export interface GraphPoint {
  readonly x: number;
  readonly y: number;
}

export interface GraphLayout {
  readonly positions: ReadonlyMap<string, GraphPoint>;
  readonly width: number;
  readonly height: number;
}

/** What the layout reads of a graph (a SessionGraph will do): node ids and caller → callee edges. */
export interface GraphShape {
  readonly nodes: readonly { readonly id: string }[];
  readonly edges: readonly { readonly source: string; readonly target: string }[];
}

export function layoutSessionGraph(graph: GraphShape): GraphLayout {
  const g = new Graph();
  // tight-tree ranks a tree by depth (longest-path would drop leaves to the bottom row) and is
  // cheaper than network-simplex, which finds the same ranks for a tree.
  g.setGraph({ rankdir: "TB", nodesep: NodeGap, ranksep: RankGap, ranker: "tight-tree", marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(node.id, { width: GraphNodeWidth, height: GraphNodeHeight });
  for (const edge of graph.edges) g.setEdge(edge.source, edge.target);
  layout(g);
  const positions = new Map<string, GraphPoint>();
  for (const node of graph.nodes) {
    const placed = g.node(node.id);
    // dagre gives centres; the drawing wants corners.
    positions.set(node.id, { x: (placed.x ?? 0) - GraphNodeWidth / 2, y: (placed.y ?? 0) - GraphNodeHeight / 2 });
  }
  const label = g.graph();
  return { positions, width: label.width ?? 0, height: label.height ?? 0 };
}

// Where each node of the session graph goes: a layered top-down layout by dagre, callers above the
// agents they started. Every node has the same fixed box, so the layout depends on the structure
// alone (sessionGraph.ts `structureKey`) and a status, phase or badge change never moves a node.
//
// A caller with many agents that started none (a conductor fanning out to 400 workers) would make
// one row tens of thousands of pixels wide. Those leaves are packed: dagre places one box for them
// all, and they fill it as a grid, each reached by a "comb" edge down the gutter left of its column.

import { Graph, layout } from "@dagrejs/dagre";

export const GraphNodeWidth = 210;
export const GraphNodeHeight = 60;
const NodeGap = 16;
export const GraphRankGap = 48;
/** A caller's leaves are packed when there are more than this many. */
const PackAbove = 6;
/** Room left of each packed column for the comb's line. */
export const PackGutter = 24;
const PackRowGap = 12;
const MaxPackColumns = 10;

/** A node's top-left corner. */
export interface GraphPoint {
  readonly x: number;
  readonly y: number;
}

/** What the layout reads of a graph (a SessionGraph will do): node ids and caller → callee edges. */
export interface GraphShape {
  readonly nodes: readonly { readonly id: string }[];
  readonly edges: readonly { readonly source: string; readonly target: string }[];
}

export interface GraphLayout {
  readonly positions: ReadonlyMap<string, GraphPoint>;
  /** Packed leaves, each with the y of the line its comb edge runs along above its grid. */
  readonly packed: ReadonlyMap<string, { readonly busY: number }>;
  readonly width: number;
  readonly height: number;
}

interface Pack {
  readonly id: string;
  readonly leaves: readonly string[];
  readonly columns: number;
  readonly width: number;
  readonly height: number;
}

/**
 * Columns for `n` packed leaves, when `packs` grids share the graph (mostly side by side in one
 * row): together about 2.5 times wider than tall, as the panel is.
 */
function columnsFor(n: number, packs: number): number {
  return Math.max(2, Math.min(MaxPackColumns, Math.ceil(Math.sqrt((n * 2.5) / packs))));
}

function packsOf(graph: GraphShape): Pack[] {
  const callers = new Set(graph.edges.map((e) => e.source));
  const leavesOf = new Map<string, string[]>();
  for (const e of graph.edges) {
    if (callers.has(e.target)) continue;
    const list = leavesOf.get(e.source);
    if (list === undefined) leavesOf.set(e.source, [e.target]);
    else list.push(e.target);
  }
  const packs: Pack[] = [];
  const packed = [...leavesOf].filter(([, leaves]) => leaves.length > PackAbove);
  for (const [caller, leaves] of packed) {
    const columns = columnsFor(leaves.length, packed.length);
    const rows = Math.ceil(leaves.length / columns);
    packs.push({
      id: `${caller}\u0000leaves`,
      leaves,
      columns,
      width: columns * (GraphNodeWidth + PackGutter),
      height: rows * (GraphNodeHeight + PackRowGap) - PackRowGap,
    });
  }
  return packs;
}

export function layoutSessionGraph(graph: GraphShape): GraphLayout {
  const packs = packsOf(graph);
  const packOf = new Map<string, Pack>();
  for (const p of packs) for (const leaf of p.leaves) packOf.set(leaf, p);
  const g = new Graph();
  // tight-tree ranks a tree by depth (longest-path would drop leaves to the bottom row) and is
  // cheaper than network-simplex, which finds the same ranks for a tree. Rows align at their top,
  // so a tall packed box does not push the other nodes of its row down to its middle.
  g.setGraph({ rankdir: "TB", nodesep: NodeGap, ranksep: GraphRankGap, ranker: "tight-tree", rankalign: "top", marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) if (!packOf.has(node.id)) g.setNode(node.id, { width: GraphNodeWidth, height: GraphNodeHeight });
  for (const p of packs) g.setNode(p.id, { width: p.width, height: p.height });
  const packEdges = new Set<string>();
  for (const edge of graph.edges) {
    const pack = packOf.get(edge.target);
    if (pack === undefined) g.setEdge(edge.source, edge.target);
    else if (!packEdges.has(pack.id)) {
      packEdges.add(pack.id);
      g.setEdge(edge.source, pack.id);
    }
  }
  // Spawn edges form a tree, whose initial depth-first order crosses no edges and keeps siblings in
  // the order they started: the crossing-reduction sweeps would only cost time (most of it at 400).
  layout(g, { disableOptimalOrderHeuristic: true });
  const positions = new Map<string, GraphPoint>();
  for (const node of graph.nodes) {
    if (packOf.has(node.id)) continue;
    const placed = g.node(node.id);
    // dagre gives centres; the drawing wants corners.
    positions.set(node.id, { x: (placed.x ?? 0) - GraphNodeWidth / 2, y: (placed.y ?? 0) - GraphNodeHeight / 2 });
  }
  const packed = new Map<string, { busY: number }>();
  for (const p of packs) {
    const box = g.node(p.id);
    const left = (box.x ?? 0) - p.width / 2;
    const top = (box.y ?? 0) - p.height / 2;
    p.leaves.forEach((leaf, i) => {
      const column = i % p.columns;
      const row = Math.floor(i / p.columns);
      positions.set(leaf, { x: left + PackGutter + column * (GraphNodeWidth + PackGutter), y: top + row * (GraphNodeHeight + PackRowGap) });
      packed.set(leaf, { busY: top - GraphRankGap / 2 });
    });
  }
  const label = g.graph();
  return { positions, packed, width: label.width ?? 0, height: label.height ?? 0 };
}

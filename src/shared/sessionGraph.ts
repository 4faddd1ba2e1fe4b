// The session as a graph (issue 24, "Session graph"): the conductor and every subagent at any depth
// as nodes, one spawn edge from each caller to each agent it started. Pure: built from a Transcript
// (nested records) or from the renderer's normalised transcript state (blocks by id, children by parent), by
// the same walk. Node data is plain text and numbers; whoever draws it must draw text, never HTML.

import type { TranscriptState } from "./delta/transcriptState.js";
import { openCounts, SubagentPhases, type SubagentPhase } from "./escalation.js";
import type { Block, SubagentRecord, SubagentStatus, Transcript, TranscriptStatus } from "./transcript.js";

/** The conductor's node id: no block id can be it (tool ids are `toolu_…`, others `<id>:<n>`). */
export const ConductorNodeId = "@conductor";

/** Phases of a Deliberate subagent (issue 24, "Subagent plan mode"); Exploratory ones have none. */
export type AgentPhase = SubagentPhase;
const Phases: ReadonlySet<string> = new Set<string>(SubagentPhases);

/** What waits for an answer on an agent: open `ask_conductor` questions and plans in review. */
export interface GraphBadges {
  readonly openQuestions: number;
  readonly plansInReview: number;
}

/** The colour family of a node; `data-status` carries the record's own status word. */
export type GraphTone = "running" | "done" | "failed" | "stopped" | "idle";

export interface GraphNode {
  readonly id: string;
  readonly kind: "conductor" | "agent";
  /** The caller's node id; undefined only for the conductor. */
  readonly parentId: string | undefined;
  /** 0 for the conductor, 1 for the agents it started, and so on. */
  readonly depth: number;
  /** The record's status (the session's for the conductor). */
  readonly status: SubagentStatus | TranscriptStatus;
  readonly tone: GraphTone;
  /** Agent type or preset ("" for the conductor). */
  readonly subagentType: string;
  /** The agent's description (the session's title for the conductor, when known). */
  readonly description: string;
  readonly background: boolean;
  /** The accessible name: "Agent <type>: <description>", or "Conductor". */
  readonly label: string;
  readonly phase?: AgentPhase;
  readonly badges?: GraphBadges;
}

export interface GraphEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
}

export interface SessionGraph {
  /** The conductor first, then every agent in transcript order, each after its caller. */
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}

const Tones: Readonly<Record<SubagentStatus | TranscriptStatus, GraphTone>> = {
  running: "running",
  completed: "done",
  failed: "failed",
  error: "failed",
  stopped: "stopped",
  idle: "idle",
};

export function toneOf(status: SubagentStatus | TranscriptStatus): GraphTone {
  return Tones[status] ?? "idle";
}

/**
 * The record's phase and what waits on it (issue 24's escalation chain): a phase chip and badges
 * for open questions and plans in review, or nothing. Read defensively: the fields reach the
 * renderer through deltas, and a value that is not one the model allows shows nothing.
 */
export function orchestrationOf(record: SubagentRecord): { readonly phase?: AgentPhase; readonly badges?: GraphBadges } {
  const phase = typeof record.phase === "string" && Phases.has(record.phase) ? record.phase : undefined;
  const open = openCounts(Array.isArray(record.escalations) ? record.escalations : undefined);
  return {
    ...(phase !== undefined ? { phase } : {}),
    ...(open.questions + open.plans > 0 ? { badges: { openQuestions: open.questions, plansInReview: open.plans } } : {}),
  };
}

export function agentLabel(subagentType: string, description: string): string {
  return `Agent ${subagentType}: ${description}`;
}

export function agentNode(id: string, record: SubagentRecord, parentId: string, depth: number): GraphNode {
  return {
    id,
    kind: "agent",
    parentId,
    depth,
    status: record.status,
    tone: toneOf(record.status),
    subagentType: record.subagentType,
    description: record.description,
    background: record.background,
    label: agentLabel(record.subagentType, record.description),
    ...orchestrationOf(record),
  };
}

export function conductorNode(status: TranscriptStatus, title: string | undefined): GraphNode {
  return {
    id: ConductorNodeId,
    kind: "conductor",
    parentId: undefined,
    depth: 0,
    status,
    tone: toneOf(status),
    subagentType: "",
    description: title ?? "",
    background: false,
    label: "Conductor",
  };
}

/** Where the walk reads blocks: a Transcript's nested records or the renderer's normalised transcript state. */
export interface AgentTreeSource {
  readonly status: TranscriptStatus;
  readonly title: string | undefined;
  /** Ids under a block ("" = top level), in order. */
  childIds(parentId: string): readonly string[];
  block(id: string): Block | undefined;
}

/** The graph of a whole Transcript. */
export function sessionGraph(transcript: Transcript): SessionGraph {
  return graphOf(transcriptSource(transcript));
}

/** The graph of the renderer's normalised copy of a transcript. */
export function sessionGraphOfState(state: TranscriptState): SessionGraph {
  return graphOf(normalizedSource(state));
}

export function transcriptSource(transcript: Transcript): AgentTreeSource {
  const byId = new Map<string, Block>();
  const children = new Map<string, readonly string[]>();
  const index = (parentId: string, blocks: readonly Block[]): void => {
    children.set(parentId, blocks.map((b) => b.id));
    for (const b of blocks) {
      byId.set(b.id, b);
      const nested = b.call?.subagent?.blocks;
      if (nested !== undefined && nested.length > 0) index(b.id, nested);
    }
  };
  index("", transcript.blocks);
  return { status: transcript.status, title: transcript.title, childIds: (id) => children.get(id) ?? [], block: (id) => byId.get(id) };
}

export function normalizedSource(state: TranscriptState): AgentTreeSource {
  return {
    status: state.meta?.status ?? "idle",
    title: state.meta?.title,
    childIds: (id) => state.children.get(id) ?? [],
    block: (id) => state.blocksById.get(id),
  };
}

interface Found {
  readonly id: string;
  readonly record: SubagentRecord;
  parentId: string;
}

/**
 * The walk: every subagent record under the top level and, recursively, under each record's own
 * blocks. A record found at the top level that names its caller (`parentTaskId`, a depth ≥ 2 agent
 * the stream placed before its caller's call was seen) is put under that caller when it is known.
 */
export function graphOf(source: AgentTreeSource): SessionGraph {
  const found: Found[] = [];
  const seen = new Set<string>();
  const walk = (parentNodeId: string, parentBlockId: string): void => {
    for (const id of source.childIds(parentBlockId)) {
      const record = source.block(id)?.call?.subagent;
      if (record === undefined || seen.has(id)) continue;
      seen.add(id);
      found.push({ id, record, parentId: parentNodeId });
      walk(id, id);
    }
  };
  walk(ConductorNodeId, "");
  const byTask = new Map<string, string>();
  for (const f of found) if (f.record.taskId !== "") byTask.set(f.record.taskId, f.id);
  const parentOf = new Map(found.map((f) => [f.id, f.parentId]));
  for (const f of found) {
    const caller = f.record.parentTaskId === undefined ? undefined : byTask.get(f.record.parentTaskId);
    if (f.parentId !== ConductorNodeId || caller === undefined || isBelow(parentOf, caller, f.id)) continue;
    f.parentId = caller;
    parentOf.set(f.id, caller);
  }
  return assemble(conductorNode(source.status, source.title), found);
}

/** Whether `id` is `ancestor` or lies below it: putting `ancestor` under `id` would make a cycle. */
function isBelow(parentOf: ReadonlyMap<string, string>, id: string, ancestor: string): boolean {
  for (let at: string | undefined = id; at !== undefined; at = parentOf.get(at)) if (at === ancestor) return true;
  return false;
}

/** Nodes in pre-order (each after its caller, siblings in transcript order) and their edges. */
function assemble(conductor: GraphNode, found: readonly Found[]): SessionGraph {
  const under = new Map<string, Found[]>();
  for (const f of found) {
    const list = under.get(f.parentId);
    if (list === undefined) under.set(f.parentId, [f]);
    else list.push(f);
  }
  const nodes: GraphNode[] = [conductor];
  const edges: GraphEdge[] = [];
  const visit = (parentId: string, depth: number): void => {
    for (const f of under.get(parentId) ?? []) {
      nodes.push(agentNode(f.id, f.record, parentId, depth));
      edges.push({ id: `${parentId}>${f.id}`, source: parentId, target: f.id });
      visit(f.id, depth + 1);
    }
  };
  visit(ConductorNodeId, 1);
  return { nodes, edges };
}

/**
 * What the layout depends on: which nodes there are and who called whom, in order. Equal keys mean
 * the same layout, so a status change or a progress tick never lays the graph out again.
 */
export function structureKey(graph: SessionGraph): string {
  return graph.nodes.map((n) => `${n.id}<${n.parentId ?? ""}`).join("\n");
}

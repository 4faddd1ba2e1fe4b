// The model's block tree (BlockTree: calls kept by id, each subagent record with an
// append-only block list) and the indexes the rules look things up in. The rules edit it in place
// (edits.ts, tree.ts); materialize.ts builds the Transcript from it.
//
// Block ids are indexed per list, not tree-wide: a busy session holds hundreds of thousands of
// blocks, and one lookup in a map that size costs more than the rest of an event (cache misses).
// The lines of a subagent name their parent, so a lookup goes to that record's small, warm map;
// only open top-level calls and subagent calls are indexed tree-wide, and they are few. An open
// call inside a record is found through that record (the line that closes it names the record),
// and the record's list counts its open calls, so a turn end knows where to look.

import type { Block, PermissionState, SubagentRecord, ToolCallRecord } from "../../shared/transcript.js";

/** The record fields task_progress moves. */
export interface Progress {
  readonly progressLine?: string;
  readonly lastToolName?: string;
  readonly totalTokens?: number;
  readonly toolUses?: number;
  readonly durationMs?: number;
}

/** One block of the tree. */
export class Node {
  /** Text, thinking, user and notice blocks: the block. Tool blocks: the built block, or undefined when stale. */
  block: Block | undefined;
  /** Tool blocks: the call. Its subagent's `blocks` and `droppedBlockCount` are not kept up to date: `list` holds them. */
  call: ToolCallRecord | undefined;
  /** The blocks of the call's subagent record; present once the call has a record. */
  list: BlockList | undefined;
  /** task_progress figures newer than the record's (see progress.ts); folded in before any other edit. */
  progress: Progress | undefined = undefined;
  /** Whether the call is open (isOpen). `tree.open` holds the node too if inOpenIndex; else its list counts it in `openCalls`. */
  open: boolean;

  constructor(
    /** The Agent call whose record holds this block; undefined at the top level. Changes only when a stand-in card moves to the caller a later line names (unseenAgentCalls.ts). */
    public owner: Node | undefined,
    /** Its sequence number in the owner's list (changes with `owner`). */
    public seq: number,
    block: Block | undefined,
    call: ToolCallRecord | undefined,
  ) {
    this.block = block;
    this.call = call;
    this.list = call?.subagent === undefined ? undefined : new BlockList();
    this.open = call !== undefined && isOpen(call);
  }
}

/**
 * The blocks of the top level or of one record, addressed by sequence number (0 = the first block
 * ever added). Items before `dropped` were dropped by the cap (their slots are emptied);
 * `items[0]` holds sequence `offset`.
 */
export class BlockList {
  items: (Node | undefined)[] = [];
  offset = 0;
  dropped = 0;
  count = 0;
  /** The built block array, or undefined when stale. */
  built: readonly Block[] | undefined = undefined;
  /**
   * Open calls in this list that hold no record (those are in `tree.open`). Never too low; too
   * high after the cap drops an open call (it does not read what it drops), which only costs a
   * turn end a look at this list.
   */
  openCalls = 0;
  /** Some block of this list ever held a record: only then must the cap look at what it drops (see `cap`). */
  hasRecords = false;
  /**
   * Every block id ever added to this list (tool_use ids for tools), with its sequence number. A
   * number below `dropped` means known (a second copy of its line is ignored) but gone, so the
   * cap drops a block without touching the index.
   */
  readonly index = new Map<string, number>();

  /** The node with sequence `seq`: alive, Dropped, or undefined if no block of this list has it. */
  at(seq: number | undefined): Node | Dropped | undefined {
    if (seq === undefined) return undefined;
    return seq < this.dropped ? Dropped : this.items[seq - this.offset];
  }
}

/** What the index says of a block the cap dropped. */
export const Dropped = "dropped";
export type Dropped = typeof Dropped;

/** task_id → the Agent (or Bash) tool_use it belongs to; the first `task_started` wins. */
export interface TaskLink {
  readonly toolUseId: string;
  readonly kind: "agent" | "bash";
}

/**
 * The run of a subagent that `SendMessage` resumed (docs/protocol-notes.md, "SendMessage
 * continuations"): its task events name the
 * SendMessage call (2.1.197) or carry a new run id (2.1.332), and their usage counts that run only, so the record adds it to what the
 * earlier runs made.
 */
export interface ContinuedRun {
  /** The tool_use id this run's task events carry (2.1.332: the Agent call's own). */
  readonly toolUseId: string;
  /** 2.1.332+: the run's `run_id`. */
  readonly runId?: string;
  /** Tool uses and duration of the runs before it. */
  readonly toolUses: number;
  readonly durationMs: number;
}

/** requestId → the tool call it concerns and the subagent that asked. */
export interface PermissionLink {
  readonly toolUseId: string;
  readonly agentToolUseId?: string;
}

/** What a session model holds: its blocks and the indexes over them. */
export class BlockTree {
  readonly top = new BlockList();
  /** Every alive node whose call has a subagent record, at any depth, by tool_use id. */
  readonly agents = new Map<string, Node>();
  /** Stand-in cards of Agent calls not seen when a line named them (unseenAgentCalls.ts): the real call, wherever its line puts it, is the same block. */
  readonly orphans = new Map<string, Node>();
  /** Agent calls the cap dropped from their parent's list: lines they (or agents inside them) still send are ignored. */
  readonly droppedRecords = new Map<string, true>();
  readonly tasks = new Map<string, TaskLink>();
  /** Subagent records whose tool_use has not arrived (yet, or ever: depth ≥ 3), by tool_use id. */
  readonly drafts = new Map<string, SubagentRecord>();
  /** Agent calls put in from task events and a caller's progress, their tool_use unseen (unseenAgentCalls.ts). */
  readonly standIns = new Map<string, true>();
  readonly permissions = new Map<string, PermissionLink>();
  /** Permission state for tool calls not seen yet, by tool_use id. */
  readonly earlyPermissions = new Map<string, PermissionState>();
  /** Agent tool_use ids whose final tool_result has spoken: task events no longer change status. */
  readonly settled = new Map<string, true>();
  /** The latest continued run of an Agent call, by its tool_use id. */
  readonly runs = new Map<string, ContinuedRun>();
  /** Agent calls whose finished agent a SendMessage has resumed, until its next run starts. */
  readonly resumeAsked = new Map<string, true>();
  /**
   * Agent tool_use ids whose task was killed (a TaskStop call, or the task events' "killed" /
   * "stopped" after an interrupt) and not run again since: their cut calls are stopped, not
   * denied (toolCalls.ts).
   */
  readonly killedAgents = new Map<string, true>();
  /** Agent tool_use ids whose subagent answered with a synthetic API error, with its text. */
  readonly apiErrors = new Map<string, string>();
  /** Escalation events for Agent calls not in the tree yet, by their tool_use id, as one edit of the record to come (escalations.ts). */
  readonly earlyEscalations = new Map<string, (record: SubagentRecord) => SubagentRecord>();
  /** Top-level calls without a result and running subagents at any depth (inOpenIndex): part of what a turn end stops. */
  readonly open = new Map<string, Node>();
}

/** `map.get(key)`, without hashing `key` when the map is empty (as the rarely used ones nearly always are). */
export function getIfAny<K, V>(map: ReadonlyMap<K, V>, key: K): V | undefined {
  return map.size === 0 ? undefined : map.get(key);
}

export function listOf(tree: BlockTree, owner: Node | undefined): BlockList {
  return owner === undefined ? tree.top : (owner.list as BlockList);
}

export function idOf(node: Node): string {
  return node.call?.toolUseId ?? node.block?.id ?? "";
}

/** The alive node of an open call or of a subagent call: what nearly every event concerns. */
export function liveCall(tree: BlockTree, toolUseId: string): Node | undefined {
  return tree.open.get(toolUseId) ?? tree.agents.get(toolUseId);
}

/**
 * The alive node of a call anywhere in the tree. Calls inside records are found by asking every
 * record, so this is for events that come once per turn or per decision, not per line; `near`
 * names the Agent call whose record is asked first (a permission request knows its subagent).
 */
export function findCallAnywhere(tree: BlockTree, toolUseId: string, near?: string): Node | undefined {
  const home = near === undefined ? undefined : tree.agents.get(near)?.list;
  const node = (home === undefined ? undefined : asCall(home, toolUseId)) ?? liveCall(tree, toolUseId) ?? asCall(tree.top, toolUseId);
  if (node !== undefined) return node;
  for (const agent of tree.agents.values()) {
    const inner = agent.list === undefined ? undefined : asCall(agent.list, toolUseId);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

function asCall(list: BlockList, toolUseId: string): Node | undefined {
  const entry = list.at(list.index.get(toolUseId));
  return entry === undefined || entry === Dropped || entry.call === undefined ? undefined : entry;
}

/** Whether `node` is still in the tree: neither it nor a record around it was dropped. */
export function isAlive(tree: BlockTree, node: Node): boolean {
  for (let n: Node | undefined = node; n !== undefined; n = n.owner) {
    if (listOf(tree, n.owner).at(n.seq) !== n) return false;
  }
  return true;
}

/** Whether `tree.open` holds `node`: an open call at the top level, or one that has a record. */
export function inOpenIndex(node: Node): boolean {
  return node.open && (node.owner === undefined || node.list !== undefined);
}

/** Whether its list counts `node` in `openCalls`: an open call inside a record, holding no record itself. */
export function countedOpen(node: Node): boolean {
  return node.open && node.owner !== undefined && node.list === undefined;
}

/** Whether a call is open: no result yet, or a subagent still running. */
export function isOpen(call: ToolCallRecord): boolean {
  return call.result === undefined || call.subagent?.status === "running";
}

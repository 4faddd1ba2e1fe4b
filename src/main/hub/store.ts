// The hub's mutable store, shared by every state of a session: the block tree (calls stored by id,
// each subagent record with an append-only block list) and the indexes the reducer looks things
// up in. Only the root state (state.ts) may read it; every write goes through an undo log.

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

  constructor(
    /** The Agent call whose record holds this block; undefined at the top level. */
    readonly owner: Node | undefined,
    block: Block | undefined,
    call: ToolCallRecord | undefined,
  ) {
    this.block = block;
    this.call = call;
    this.list = call?.subagent === undefined ? undefined : new BlockList();
  }
}

/**
 * The blocks of the top level or of one record, addressed by sequence number (0 = the first block
 * ever added). Items before `dropped` were dropped by the cap; `items[0]` holds sequence `offset`.
 */
export class BlockList {
  items: (Node | undefined)[] = [];
  offset = 0;
  dropped = 0;
  count = 0;
  /** The built block array, or undefined when stale. */
  built: readonly Block[] | undefined = undefined;
}

/** The id index entry of a block dropped by the cap: known (a second copy is ignored) but gone. */
export const Dropped = "dropped";
export type Dropped = typeof Dropped;

/** task_id → the Agent (or Bash) tool_use it belongs to; the first `task_started` wins. */
export interface TaskLink {
  readonly toolUseId: string;
  readonly kind: "agent" | "bash";
}

/** requestId → the tool call it concerns and the subagent that asked. */
export interface PermissionLink {
  readonly toolUseId: string;
  readonly agentToolUseId?: string;
}

export class Store {
  readonly top = new BlockList();
  /** Every block id ever added (tool_use ids for tools). */
  readonly ids = new Map<string, Node | Dropped>();
  readonly tasks = new Map<string, TaskLink>();
  /** Subagent records whose tool_use has not arrived (yet, or ever: depth ≥ 3), by tool_use id. */
  readonly drafts = new Map<string, SubagentRecord>();
  readonly permissions = new Map<string, PermissionLink>();
  /** Permission state for tool calls not seen yet, by tool_use id. */
  readonly earlyPermissions = new Map<string, PermissionState>();
  /** Agent tool_use ids whose final tool_result has spoken: task events no longer change status. */
  readonly settled = new Map<string, true>();
  /** Agent tool_use ids whose subagent answered with a synthetic API error, with its text. */
  readonly apiErrors = new Map<string, string>();
  /** Tool calls without a result and running subagents: what a turn end may have to stop. */
  readonly open = new Map<string, Node>();
}

export function listOf(store: Store, owner: Node | undefined): BlockList {
  return owner === undefined ? store.top : (owner.list as BlockList);
}

export function idOf(node: Node): string {
  return node.call?.toolUseId ?? node.block?.id ?? "";
}

/** The alive node of a tool call. */
export function callNode(store: Store, toolUseId: string): Node | undefined {
  // Nearly every event concerns an open call; `open` is small, `ids` holds every block ever seen.
  const open = store.open.get(toolUseId);
  if (open !== undefined) return open;
  const node = store.ids.get(toolUseId);
  return node === undefined || node === Dropped || node.call === undefined ? undefined : node;
}

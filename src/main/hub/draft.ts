// Helpers for the state being written by one `reduce` (or one `reduceAll` batch): its scalars are
// set directly, the shared store only through the undo log.

import type { Block, SubagentRecord, ToolCallRecord } from "../../shared/transcript.js";
import { callWithSubagent, makeBlock } from "./shapes.js";
import type { HubState } from "./state.js";
import { BlockList, countedOpen, Dropped, findCallAnywhere, getIfAny, inOpenIndex, isOpen, listOf, liveCall, Node, type Store } from "./store.js";
import { foldProgress } from "./progress.js";
import { append, changed } from "./tree.js";
import { write, writeMap, type UndoLog } from "./undoLog.js";

/** The new state while it is being written: the root, with its store and the undo log of this step. */
export type Draft = HubState & { readonly store: Store; readonly log: UndoLog };

/**
 * The block `id` already added under `parent` (undefined = top level): its node, Dropped if the cap
 * dropped it since, undefined if it is new there. The same line fed twice (live, then from a file)
 * names the same parent, or none that was known then (an orphan at the top level).
 */
export function knownBlock(d: Draft, id: string, parent: Node | undefined): Node | Dropped | undefined {
  const list = listOf(d.store, parent);
  const entry = list.at(list.index.get(id));
  if (entry !== undefined || parent === undefined) return entry;
  return getIfAny(d.store.orphans, id);
}

export function isKnown(d: Draft, id: string, parent: Node | undefined): boolean {
  return knownBlock(d, id, parent) !== undefined;
}

/**
 * Where a line with this parent tool_use id goes: the Agent call whose record takes it, undefined
 * for the top level (no parent, or one that matches no record), or Gone when the record was
 * dropped by its own parent's cap (its lines must not surface at the top level).
 */
export function routeOf(d: Draft, parentToolUseId: string | null | undefined): Node | undefined | Gone {
  if (parentToolUseId === null || parentToolUseId === undefined) return undefined;
  const node = d.store.agents.get(parentToolUseId);
  if (node !== undefined) return node;
  return getIfAny(d.store.droppedRecords, parentToolUseId) === undefined ? undefined : Gone;
}

export const Gone = "gone";
export type Gone = typeof Gone;

/** The alive node of an open call or a subagent call (what task and line events concern). */
export function findCall(d: Draft, toolUseId: string): Node | undefined {
  return liveCall(d.store, toolUseId);
}

/** The alive node of any call; slower (see findCallAnywhere), for once-per-turn events. */
export function findAnyCall(d: Draft, toolUseId: string, near?: string): Node | undefined {
  return findCallAnywhere(d.store, toolUseId, near);
}

export function nextId(d: Draft, prefix: string): string {
  return `${prefix}:${d.seq++}`;
}

/** Appends a text-like block under `parent` (undefined = top level) and indexes it by id. */
export function addBlock(d: Draft, parent: Node | undefined, block: Block): Node {
  const list = listOf(d.store, parent);
  const node = new Node(parent, list.count, block, undefined);
  append(d, list, node);
  writeMap(d.log, list.index, block.id, node.seq);
  return node;
}

/** Remembers a block that went to the top level although its line named a parent (see knownBlock). */
export function addOrphan(d: Draft, node: Node, id: string): void {
  writeMap(d.log, d.store.orphans, id, node);
}

/** Appends a tool block under `parent` and indexes it by tool_use id. */
export function addCall(d: Draft, parent: Node | undefined, call: ToolCallRecord): Node {
  const list = listOf(d.store, parent);
  const node = new Node(parent, list.count, undefined, call);
  append(d, list, node);
  // Callers check the id is new (isKnown): log its absence without another lookup, in each map.
  d.log.note(list.index, call.toolUseId, undefined);
  list.index.set(call.toolUseId, node.seq);
  if (call.subagent !== undefined) {
    d.log.note(d.store.agents, call.toolUseId, undefined);
    d.store.agents.set(call.toolUseId, node);
    if (!list.hasRecords) write(d.log, list, "hasRecords", true);
  }
  if (inOpenIndex(node)) {
    d.log.note(d.store.open, call.toolUseId, undefined);
    d.store.open.set(call.toolUseId, node);
  } else if (countedOpen(node)) {
    d.log.note(list, "openCalls", list.openCalls);
    list.openCalls++;
  }
  return node;
}

export function addNotice(d: Draft, level: "info" | "warning" | "error", text: string): void {
  addBlock(d, undefined, makeBlock({ kind: "notice", id: nextId(d, "notice"), level, text }));
}

/** Replaces the block a node shows (a text-like block). */
export function replaceBlock(d: Draft, node: Node, block: Block): void {
  if (node.call !== undefined) {
    writeMap(d.log, d.store.open, node.call.toolUseId, undefined);
    writeMap(d.log, d.store.agents, node.call.toolUseId, undefined);
    write(d.log, node, "call", undefined);
    write(d.log, node, "open", false);
  }
  write(d.log, node, "block", block);
  changed(d, node);
}

export function editCall(d: Draft, node: Node, fn: (call: ToolCallRecord) => ToolCallRecord): void {
  foldProgress(d, node);
  const call = node.call;
  if (call !== undefined) setCall(d, node, fn(call));
}

/** Replaces a tool node's call (the node must hold one, with no pending progress). */
export function setCall(d: Draft, node: Node, next: ToolCallRecord): void {
  const call = node.call as ToolCallRecord;
  if (next === call) return;
  const wasIndexed = inOpenIndex(node);
  const wasCounted = countedOpen(node);
  d.log.note(node, "call", call); // by hand, as in append (tree.ts)
  node.call = next;
  const list = listOf(d.store, node.owner);
  if (next.subagent !== undefined && node.list === undefined) {
    write(d.log, node, "list", new BlockList());
    writeMap(d.log, d.store.agents, next.toolUseId, node);
    if (!list.hasRecords) write(d.log, list, "hasRecords", true);
  }
  changed(d, node);
  const open = isOpen(next);
  if (node.open !== open) {
    d.log.note(node, "open", node.open);
    node.open = open;
  }
  if (wasCounted !== countedOpen(node)) {
    d.log.note(list, "openCalls", list.openCalls);
    list.openCalls += wasCounted ? -1 : 1;
  }
  // Only a change of membership touches the store-wide map.
  if (wasIndexed === inOpenIndex(node)) return;
  const index = d.store.open;
  d.log.note(index, next.toolUseId, wasIndexed ? node : undefined);
  if (wasIndexed) index.delete(next.toolUseId);
  else index.set(next.toolUseId, node);
}

export function editRecord(d: Draft, node: Node, fn: (record: SubagentRecord) => SubagentRecord): void {
  editCall(d, node, (call) => {
    if (call.subagent === undefined) return call;
    const record = fn(call.subagent);
    return record === call.subagent ? call : callWithSubagent(call, record);
  });
}

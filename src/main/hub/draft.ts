// Helpers for the state being written by one `reduce` (or one `reduceAll` batch): its scalars are
// set directly, the shared store only through the undo log.

import type { Block, SubagentRecord, ToolCallRecord } from "../../shared/transcript.js";
import { callWithSubagent, makeBlock } from "./shapes.js";
import type { HubState } from "./state.js";
import { BlockList, callNode, Dropped, Node, type Store } from "./store.js";
import { foldProgress } from "./progress.js";
import { append, changed } from "./tree.js";
import { write, writeMap, type UndoLog } from "./undoLog.js";

/** The new state while it is being written: the root, with its store and the undo log of this step. */
export type Draft = HubState & { readonly store: Store; readonly log: UndoLog };

/** Whether a block with this id was ever added (it may have been dropped by the cap since). */
export function isKnown(d: Draft, id: string): boolean {
  return d.store.ids.has(id);
}

/** The alive node of a tool call. */
export function findCall(d: Draft, toolUseId: string): Node | undefined {
  return callNode(d.store, toolUseId);
}

export function nextId(d: Draft, prefix: string): string {
  return `${prefix}:${d.seq++}`;
}

/** Appends a text-like block under `parent` (undefined = top level) and indexes it by id. */
export function addBlock(d: Draft, parent: Node | undefined, block: Block): Node {
  const node = new Node(parent, block, undefined);
  append(d, node);
  writeMap(d.log, d.store.ids, block.id, node);
  return node;
}

/** Appends a tool block under `parent` and indexes it by tool_use id. */
export function addCall(d: Draft, parent: Node | undefined, call: ToolCallRecord): Node {
  const node = new Node(parent, undefined, call);
  append(d, node);
  // Callers check the id is new (isKnown): log its absence without another lookup in the large index.
  d.log.push(d.store.ids, call.toolUseId, undefined);
  d.store.ids.set(call.toolUseId, node);
  track(d, call, node);
  return node;
}

export function addNotice(d: Draft, level: "info" | "warning" | "error", text: string): void {
  addBlock(d, undefined, makeBlock({ kind: "notice", id: nextId(d, "notice"), level, text }));
}

/** Replaces the block a node shows (a text-like block). */
export function replaceBlock(d: Draft, node: Node, block: Block): void {
  if (node.call !== undefined) {
    writeMap(d.log, d.store.open, node.call.toolUseId, undefined);
    write(d.log, node, "call", undefined);
  }
  d.log.push(node, "block", node.block);
  node.block = block;
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
  if (next !== call) {
    d.log.push(node, "call", call);
    node.call = next;
    if (next.subagent !== undefined && node.list === undefined) write(d.log, node, "list", new BlockList());
    changed(d, node);
  }
  track(d, next, node);
}

export function editRecord(d: Draft, node: Node, fn: (record: SubagentRecord) => SubagentRecord): void {
  editCall(d, node, (call) => {
    if (call.subagent === undefined) return call;
    const record = fn(call.subagent);
    return record === call.subagent ? call : callWithSubagent(call, record);
  });
}

/** Keeps `store.open` = calls that a turn end may have to stop. */
export function track(d: Draft, call: ToolCallRecord, node: Node): void {
  writeMap(d.log, d.store.open, call.toolUseId, isOpen(call) ? node : undefined);
}

export function isOpen(call: ToolCallRecord): boolean {
  return call.result === undefined || call.subagent?.status === "running";
}

export { Dropped };

// Edits of the block tree every rule uses: where a line goes, adding and replacing blocks and
// calls, and keeping the open-call and record indexes in step with what a call now is.

import type { Block, SubagentRecord, ToolCallRecord } from "../../shared/transcript.js";
import type { SessionModel } from "./session.js";
import { callWithSubagent, makeBlock } from "./shapes.js";
import { BlockList, countedOpen, Dropped, findCallAnywhere, getIfAny, inOpenIndex, isOpen, listOf, liveCall, Node } from "./blockTree.js";
import { foldProgress } from "./progress.js";
import { append, changed } from "./tree.js";

/**
 * The block `id` already added under `parent` (undefined = top level): its node, Dropped if the cap
 * dropped it since, undefined if it is new there. The same line fed twice (live, then from a file)
 * names the same parent; a stand-in card made before its Agent call was seen (homeOf) is found
 * wherever that call's line puts it (an orphan).
 */
export function knownBlock(s: SessionModel, id: string, parent: Node | undefined): Node | Dropped | undefined {
  const list = listOf(s.tree, parent);
  const entry = list.at(list.index.get(id));
  if (entry !== undefined || parent === undefined) return entry;
  return getIfAny(s.tree.orphans, id);
}

export function isKnown(s: SessionModel, id: string, parent: Node | undefined): boolean {
  return knownBlock(s, id, parent) !== undefined;
}

/**
 * Where a line with this parent tool_use id goes: the Agent call whose record takes it, undefined
 * for the top level (no parent, or one that matches no record), or Gone when the record was
 * dropped by its own parent's cap (its lines must not surface at the top level).
 */
export function routeOf(s: SessionModel, parentToolUseId: string | null | undefined): Node | undefined | Gone {
  if (parentToolUseId === null || parentToolUseId === undefined) return undefined;
  const node = s.tree.agents.get(parentToolUseId);
  if (node !== undefined) return node;
  return getIfAny(s.tree.droppedRecords, parentToolUseId) === undefined ? undefined : Gone;
}

export const Gone = "gone";
export type Gone = typeof Gone;

/** The alive node of an open call or a subagent call (what task and line events concern). */
export function findCall(s: SessionModel, toolUseId: string): Node | undefined {
  return liveCall(s.tree, toolUseId);
}

/** The alive node of any call; slower (see findCallAnywhere), for once-per-turn events. */
export function findAnyCall(s: SessionModel, toolUseId: string, near?: string): Node | undefined {
  return findCallAnywhere(s.tree, toolUseId, near);
}

export function nextId(s: SessionModel, prefix: string): string {
  return `${prefix}:${s.seq++}`;
}

/** Appends a text-like block under `parent` (undefined = top level) and indexes it by id. */
export function addBlock(s: SessionModel, parent: Node | undefined, block: Block): Node {
  const list = listOf(s.tree, parent);
  const node = new Node(parent, list.count, block, undefined);
  append(s, list, node);
  list.index.set(block.id, node.seq);
  return node;
}

/** Remembers a block shown where its own line may not put it (a stand-in card; see knownBlock). */
export function addOrphan(s: SessionModel, node: Node, id: string): void {
  s.tree.orphans.set(id, node);
}

/** Appends a tool block under `parent` and indexes it by tool_use id. */
export function addCall(s: SessionModel, parent: Node | undefined, call: ToolCallRecord): Node {
  const list = listOf(s.tree, parent);
  const node = new Node(parent, list.count, undefined, call);
  append(s, list, node);
  // Callers check the id is new (isKnown).
  list.index.set(call.toolUseId, node.seq);
  if (call.subagent !== undefined) {
    s.tree.agents.set(call.toolUseId, node);
    list.hasRecords = true;
  }
  if (inOpenIndex(node)) s.tree.open.set(call.toolUseId, node);
  else if (countedOpen(node)) list.openCalls++;
  return node;
}

export function addNotice(s: SessionModel, level: "info" | "warning" | "error", text: string): void {
  addBlock(s, undefined, makeBlock({ kind: "notice", id: nextId(s, "notice"), level, text }));
}

/** Replaces the block a node shows (a text-like block). */
export function replaceBlock(s: SessionModel, node: Node, block: Block): void {
  if (node.call !== undefined) {
    s.tree.open.delete(node.call.toolUseId);
    s.tree.agents.delete(node.call.toolUseId);
    node.call = undefined;
    node.open = false;
  }
  node.block = block;
  changed(s, node);
}

export function editCall(s: SessionModel, node: Node, fn: (call: ToolCallRecord) => ToolCallRecord): void {
  foldProgress(s, node);
  const call = node.call;
  if (call !== undefined) setCall(s, node, fn(call));
}

/** Replaces a tool node's call (the node must hold one, with no pending progress). */
export function setCall(s: SessionModel, node: Node, next: ToolCallRecord): void {
  const call = node.call as ToolCallRecord;
  if (next === call) return;
  const wasIndexed = inOpenIndex(node);
  const wasCounted = countedOpen(node);
  node.call = next;
  const list = listOf(s.tree, node.owner);
  if (next.subagent !== undefined && node.list === undefined) {
    node.list = new BlockList();
    s.tree.agents.set(next.toolUseId, node);
    list.hasRecords = true;
  }
  changed(s, node);
  node.open = isOpen(next);
  if (wasCounted !== countedOpen(node)) list.openCalls += wasCounted ? -1 : 1;
  // Only a change of membership touches the tree-wide map.
  if (wasIndexed === inOpenIndex(node)) return;
  const index = s.tree.open;
  if (wasIndexed) index.delete(next.toolUseId);
  else index.set(next.toolUseId, node);
}

export function editRecord(s: SessionModel, node: Node, fn: (record: SubagentRecord) => SubagentRecord): void {
  editCall(s, node, (call) => {
    if (call.subagent === undefined) return call;
    const record = fn(call.subagent);
    return record === call.subagent ? call : callWithSubagent(call, record);
  });
}

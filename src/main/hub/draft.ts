// The mutable working copy one `reduce` call edits. It is created fresh for every event and frozen
// into a new SessionState at the end, so no state a caller holds is ever changed.

import type { Block, SubagentRecord, ToolCallRecord } from "../../shared/transcript.js";
import type { Lineage, Path, SessionState } from "./state.js";
import { callWithSubagent, makeBlock } from "./shapes.js";
import { appendBlock, getBlock, updateCall } from "./tree.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type Draft = Mutable<Omit<SessionState, "version" | "lineage">> & {
  readonly lineage: Lineage;
  /** The version being written. */
  readonly version: number;
};

export function pathOf(d: Draft, id: string): Path | undefined {
  return d.lineage.open.get(id) ?? d.lineage.paths.get(id, d.version);
}

export function callAt(d: Draft, path: Path): ToolCallRecord | undefined {
  return getBlock(d.top, path)?.call;
}

export function findCall(d: Draft, toolUseId: string): { path: Path; call: ToolCallRecord } | undefined {
  const path = pathOf(d, toolUseId);
  const call = path === undefined ? undefined : callAt(d, path);
  return path === undefined || call === undefined ? undefined : { path, call };
}

export function nextId(d: Draft, prefix: string): string {
  return `${prefix}:${d.seq++}`;
}

/** Appends a block and indexes it by id. Returns its path, or undefined if the parent is gone. */
export function addBlock(d: Draft, parent: Path | undefined, block: Block): Path | undefined {
  const added = appendBlock(d.top, parent, block);
  if (added === undefined) return undefined;
  d.top = added.top;
  d.lineage.paths.set(block.id, added.path, d.version);
  if (block.call !== undefined) track(d, block.call, added.path);
  return added.path;
}

export function addNotice(d: Draft, level: "info" | "warning" | "error", text: string): void {
  addBlock(d, undefined, makeBlock({ kind: "notice", id: nextId(d, "notice"), level, text }));
}

export function editCall(d: Draft, path: Path, fn: (call: ToolCallRecord) => ToolCallRecord): void {
  let edited: ToolCallRecord | undefined;
  d.top = updateCall(d.top, path, (call) => (edited = fn(call)));
  if (edited !== undefined) track(d, edited, path);
}

export function editRecord(d: Draft, path: Path, fn: (record: SubagentRecord) => SubagentRecord): void {
  editCall(d, path, (call) => {
    if (call.subagent === undefined) return call;
    const record = fn(call.subagent);
    return record === call.subagent ? call : callWithSubagent(call, record);
  });
}

/** Keeps `lineage.open` = calls that a turn end may have to stop. */
export function track(d: Draft, call: ToolCallRecord, path: Path): void {
  if (isOpen(call)) d.lineage.open.set(call.toolUseId, path);
  else d.lineage.open.delete(call.toolUseId);
}

export function isOpen(call: ToolCallRecord): boolean {
  return call.result === undefined || call.subagent?.status === "running";
}


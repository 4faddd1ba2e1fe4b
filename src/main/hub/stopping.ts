// Stopping what can no longer finish: tool calls with no result when their turn (or their
// subagent) ended, and subagents still running when their foreground turn ended.

import type { ToolCallRecord } from "../../shared/transcript.js";
import { editCall } from "./edits.js";
import type { SessionModel } from "./session.js";
import { idOf, isAlive, type Node } from "./blockTree.js";

export interface StopOptions {
  /** Spare background agents that are still alive, and everything inside them. */
  readonly spareBackground: boolean;
  /** Only stop calls strictly inside this call's record. */
  readonly under?: Node;
}

export function stopOpen(s: SessionModel, options: StopOptions): void {
  if (options.under !== undefined) return stopOpenIn(s, options.under);
  const open = s.tree.open;
  for (const node of [...open.values()]) {
    const call = node.call;
    if (call === undefined || !isAlive(s.tree, node)) {
      const id = idOf(node);
      if (open.get(id) === node) open.delete(id); // no longer a live call
      continue;
    }
    if (options.spareBackground && (isLiveBackground(call) || insideLiveBackground(node))) continue;
    editCall(s, node, stopCall);
  }
  // Open calls inside records are not in `open`: their lists count them (a record that settled
  // before its sidechain was read can hold some too).
  for (const record of [...s.tree.agents.values()]) {
    const list = record.list;
    if (list === undefined || list.openCalls === 0 || record.call === undefined || !isAlive(s.tree, record)) continue;
    if (options.spareBackground && (isLiveBackground(record.call) || insideLiveBackground(record))) continue;
    for (let seq = list.dropped; seq < list.count; seq++) {
      const node = list.items[seq - list.offset];
      if (node !== undefined && node.open && node.list === undefined) editCall(s, node, stopCall);
    }
  }
}

export function stopOpenUnder(s: SessionModel, node: Node): void {
  stopOpen(s, { spareBackground: false, under: node });
}

/**
 * Stops the open calls strictly inside `owner`'s record, at any depth. Walks the record's blocks
 * (at most MaxNestedBlocks a level), not every open call of the session: a session whose
 * subagents left many calls without results would otherwise pay for all of them at each end.
 */
function stopOpenIn(s: SessionModel, owner: Node): void {
  const list = owner.list;
  if (list === undefined) return;
  for (let seq = list.dropped; seq < list.count; seq++) {
    const node = list.items[seq - list.offset];
    if (node === undefined) continue;
    if (node.open) editCall(s, node, stopCall);
    stopOpenIn(s, node);
  }
}

/**
 * A call with no result is stopped, unless it is an Agent call whose subagent has finished: its
 * result was never streamed (a stand-in, see unseenAgentCalls.ts), and the record says how it went.
 */
function stopCall(call: ToolCallRecord): ToolCallRecord {
  const record = call.subagent;
  const status = call.result !== undefined ? call.status : record !== undefined && record.status !== "running" ? record.status : "stopped";
  if (record === undefined || record.status !== "running") return status === call.status ? call : { ...call, status };
  return { ...call, status, subagent: { ...record, status: "stopped" } };
}

function isLiveBackground(call: ToolCallRecord): boolean {
  return call.subagent?.background === true && call.subagent.status === "running";
}

function insideLiveBackground(node: Node): boolean {
  for (let outer = node.owner; outer !== undefined; outer = outer.owner) {
    if (outer.call !== undefined && isLiveBackground(outer.call)) return true;
  }
  return false;
}

// Stopping what can no longer finish: tool calls with no result when their turn (or their
// subagent) ended, and subagents still running when their foreground turn ended.

import type { ToolCallRecord } from "../../shared/transcript.js";
import { callAt, editCall, type Draft } from "./draft.js";
import type { Path } from "./state.js";

export interface StopOptions {
  /** Spare background agents that are still alive, and everything inside them. */
  readonly spareBackground: boolean;
  /** Only stop calls strictly inside this record. */
  readonly under?: Path;
}

export function stopOpen(d: Draft, options: StopOptions): void {
  for (const [id, path] of [...d.lineage.open]) {
    const call = callAt(d, path);
    if (call === undefined) {
      d.lineage.open.delete(id); // dropped by the cap
      continue;
    }
    if (options.under !== undefined && !isStrictlyUnder(path, options.under)) continue;
    if (options.spareBackground && (isLiveBackground(call) || insideLiveBackground(d, path))) continue;
    editCall(d, path, stopCall);
  }
}

export function stopOpenUnder(d: Draft, path: Path): void {
  stopOpen(d, { spareBackground: false, under: path });
}

function stopCall(call: ToolCallRecord): ToolCallRecord {
  const status = call.result === undefined ? "stopped" : call.status;
  const record = call.subagent;
  if (record === undefined || record.status !== "running") return { ...call, status };
  return { ...call, status, subagent: { ...record, status: "stopped" } };
}

function isLiveBackground(call: ToolCallRecord): boolean {
  return call.subagent?.background === true && call.subagent.status === "running";
}

function insideLiveBackground(d: Draft, path: Path): boolean {
  for (let n = 1; n < path.length; n++) {
    const outer = callAt(d, path.slice(0, n));
    if (outer !== undefined && isLiveBackground(outer)) return true;
  }
  return false;
}

function isStrictlyUnder(path: Path, prefix: Path): boolean {
  if (path.length <= prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (path[i] !== prefix[i]) return false;
  return true;
}

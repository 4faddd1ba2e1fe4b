// task_progress is the most frequent event of a busy session and only moves five figures of a
// live card. Rather than copying the record and its call each time, the figures are kept beside
// the call on its node and folded into the record when anything else edits the call, or when the
// transcript is built.

import type { TaskProgressEvent } from "../../shared/events.js";
import type { SubagentRecord } from "../../shared/transcript.js";
import type { SessionModel } from "./session.js";
import { callWithSubagent, recordWith } from "./shapes.js";
import type { ContinuedRun, Node, Progress } from "./blockTree.js";
import { changed } from "./tree.js";

/**
 * Records task_progress figures on a node whose call has a record. The usage of a continued run
 * counts that run only: its tool uses and duration add to the runs' before it (tokens are the
 * agent's latest context, not a sum).
 */
export function setProgress(s: SessionModel, node: Node, record: SubagentRecord, ev: TaskProgressEvent, run?: ContinuedRun): void {
  const base: Progress = node.progress ?? record;
  const u = ev.usage;
  const next: Progress = {
    progressLine: ev.description ?? base.progressLine,
    lastToolName: ev.lastToolName ?? base.lastToolName,
    totalTokens: u?.total_tokens ?? base.totalTokens,
    toolUses: afterRuns(run?.toolUses, u?.tool_uses) ?? base.toolUses,
    durationMs: afterRuns(run?.durationMs, u?.duration_ms) ?? base.durationMs,
  };
  node.progress = next;
  changed(s, node);
}

/** A continued run's count added to the runs' before it; undefined when the event has none. */
export function afterRuns(before: number | undefined, run: number | undefined): number | undefined {
  return run === undefined ? undefined : (before ?? 0) + run;
}

/** The record with pending progress figures applied. */
export function withProgress(record: SubagentRecord, p: Progress): SubagentRecord {
  return recordWith(record, record.status, p.progressLine, p.lastToolName, p.totalTokens, p.toolUses, p.durationMs, record.blocks, record.droppedBlockCount);
}

/** Moves pending progress figures into the node's call, so the call can be read and edited as a whole. */
export function foldProgress(s: SessionModel, node: Node): void {
  const p = node.progress;
  const call = node.call;
  if (p === undefined) return;
  node.progress = undefined;
  if (call?.subagent === undefined) return;
  node.call = callWithSubagent(call, withProgress(call.subagent, p));
}

// Session-level events: init, prompts, turn results, notices and the end of the process.

import type {
  ApiRetryEvent,
  CompactBoundaryEvent,
  InterruptMarkerEvent,
  ProcessExitEvent,
  SessionInitEvent,
  TurnResultEvent,
  UserPromptEvent,
} from "../../shared/events.js";
import type { Block } from "../../shared/transcript.js";
import { addBlock, addNotice, editCall, findAnyCall, Gone, isKnown, nextId, routeOf, type Draft } from "./draft.js";
import { makeBlock } from "./shapes.js";
import { finishStreaming } from "./streaming.js";
import { stopOpen } from "./stopping.js";
import { editRecordById } from "./subagentRecords.js";

export function onSessionInit(d: Draft, ev: SessionInitEvent): void {
  // Repeated at the start of every turn: it updates the header, it is not a block.
  d.meta = { ...d.meta, sessionId: ev.sessionId, cwd: ev.cwd, model: ev.model, permissionMode: ev.permissionMode, status: "running" };
  beginTurn(d);
}

export function onUserPrompt(d: Draft, ev: UserPromptEvent): void {
  if (ev.parentToolUseId !== null) {
    // A subagent's prompt echo: it is the record's prompt, not a block. Unknown parent → top level.
    const text = ev.text;
    if (editRecordById(d, ev.parentToolUseId, (r) => (r.prompt === "" ? { ...r, prompt: text } : r))) return;
    if (routeOf(d, ev.parentToolUseId) === Gone) return;
  } else if (ev.isMeta === true) {
    return;
  }
  if (ev.uuid !== undefined && isKnown(d, ev.uuid, undefined)) return; // fed twice (live, then history)
  const block: Block = makeBlock({ kind: "user", id: ev.uuid ?? nextId(d, "user"), text: ev.text, images: ev.images, timestamp: ev.timestamp });
  addBlock(d, undefined, block);
  if (ev.parentToolUseId === null) {
    d.meta = { ...d.meta, status: "running" };
    beginTurn(d);
  }
}

function beginTurn(d: Draft): void {
  d.inTurn = true;
  // The turn that hands a finished background agent's report over has begun (sessionStatus.ts).
  d.notificationDue = false;
}

export function onInterruptMarker(d: Draft, ev: InterruptMarkerEvent): void {
  // A subagent's own marker (an interrupt also stops background agents) is not shown: the person
  // saw the conductor's, and the card says "stopped". History leaves it out too (DiskMapper).
  if (ev.parentToolUseId !== null) return;
  addNotice(d, "warning", ev.text);
  endTurn(d);
}

export function onTurnResult(d: Draft, ev: TurnResultEvent): void {
  if (ev.costUsd !== undefined) {
    // total_cost_usd is cumulative within one CLI process; a smaller value means a new process.
    const previous = d.costThisProcess ?? 0;
    if (ev.costUsd < previous) d.costBefore += previous;
    d.costThisProcess = ev.costUsd;
  }
  for (const denial of ev.permissionDenials ?? []) markDenied(d, denial.toolUseId);
  if (ev.isError) addNotice(d, "error", ev.result ?? `Turn ended with ${ev.subtype}`);
  for (const error of ev.errors ?? []) addNotice(d, "error", error);
  // Idle unless background work goes on: settleStatus (sessionStatus.ts) decides once the turn has ended.
  d.notificationDue = false;
  d.meta = {
    ...d.meta,
    ...(ev.usage === undefined ? {} : { usage: ev.usage }),
    ...(ev.contextWindow === undefined ? {} : { contextWindow: ev.contextWindow }),
  };
  endTurn(d);
}

/**
 * A call the turn's `permission_denials` lists is denied, unless its question was withdrawn
 * (`control_cancel_request`): the CLI lists a call whose prompt an interrupt cut too, and that
 * call was stopped, not refused (recording interrupt-pending-permission).
 */
function markDenied(d: Draft, toolUseId: string): void {
  const node = findAnyCall(d, toolUseId);
  const call = node?.call;
  if (node === undefined || call === undefined || call.status === "completed" || call.permission?.state === "cancelled") return;
  editCall(d, node, (c) => ({ ...c, status: "denied" }));
}

function endTurn(d: Draft): void {
  finishStreaming(d);
  stopOpen(d, { spareBackground: true });
  d.inTurn = false;
}

export function onApiRetry(d: Draft, ev: ApiRetryEvent): void {
  const status = ev.errorStatus === null ? "" : ` ${ev.errorStatus}`;
  addNotice(d, "warning", `API error${status} (${ev.error}); retry ${ev.attempt}/${ev.maxRetries} in ${Math.round(ev.retryDelayMs)} ms`);
}

export function onCompactBoundary(d: Draft, ev: CompactBoundaryEvent): void {
  const tokens = ev.preTokens !== undefined && ev.postTokens !== undefined ? ` (${ev.preTokens} → ${ev.postTokens} tokens)` : "";
  addNotice(d, "info", `Conversation compacted, ${ev.trigger}${tokens}`);
}

export function onProcessExit(d: Draft, ev: ProcessExitEvent): void {
  d.costBefore += d.costThisProcess ?? 0;
  d.costThisProcess = undefined;
  finishStreaming(d);
  stopOpen(d, { spareBackground: false });
  d.inTurn = false;
  // Nothing of this process runs on; the next one starts with no background level (it sends none at startup).
  d.backgroundTasks = undefined;
  d.notificationDue = false;
  if (ev.error !== undefined) {
    addNotice(d, "error", ev.error);
    d.meta = { ...d.meta, status: "error" };
  } else if (d.meta.status === "running") {
    d.meta = { ...d.meta, status: "idle" };
  }
}

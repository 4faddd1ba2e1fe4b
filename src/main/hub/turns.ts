// Session-level events: init, prompts, turn results, notices and the end of the process.

import { oneLine } from "../../shared/sessionTitle.js";
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
import { addBlock, addNotice, editCall, findAnyCall, Gone, isKnown, nextId } from "./edits.js";
import type { SessionModel } from "./session.js";
import { makeBlock } from "./shapes.js";
import { finishStreaming } from "./streaming.js";
import { stopOpen } from "./stopping.js";
import { editRecordById } from "./subagentRecords.js";
import { homeOf } from "./unseenAgentCalls.js";
import { endProcessTokens, noteProcessTokens } from "./tokenShares.js";

export function onSessionInit(s: SessionModel, ev: SessionInitEvent): void {
  // Repeated at the start of every turn: it updates the header, it is not a block.
  s.meta = { ...s.meta, sessionId: ev.sessionId, cwd: ev.cwd, model: ev.model, permissionMode: ev.permissionMode, status: "running" };
  beginTurn(s);
}

export function onUserPrompt(s: SessionModel, ev: UserPromptEvent): void {
  if (ev.parentToolUseId !== null) {
    // A subagent's prompt echo: it is the record's prompt, not a block (an unseen Agent call gets a stand-in card for it).
    const text = ev.text;
    // A card for a call whose line was lost or damaged has no description: its prompt's first words name it.
    if (homeOf(s, ev.parentToolUseId) !== Gone) editRecordById(s, ev.parentToolUseId, (r) => (r.prompt !== "" ? r : { ...r, prompt: text, ...(r.description === "" ? { description: oneLine(text) } : {}) }));
    return;
  }
  if (ev.isMeta === true) return;
  if (ev.uuid !== undefined && isKnown(s, ev.uuid, undefined)) return; // fed twice (live, then history)
  const block: Block = makeBlock({ kind: "user", id: ev.uuid ?? nextId(s, "user"), text: ev.text, images: ev.images, timestamp: ev.timestamp });
  addBlock(s, undefined, block);
  s.meta = { ...s.meta, status: "running" };
  beginTurn(s);
}

function beginTurn(s: SessionModel): void {
  s.inTurn = true;
  s.turnApiError = undefined;
  // The turn that hands a finished background agent's report over has begun (sessionStatus.ts).
  s.notificationDue = false;
}

export function onInterruptMarker(s: SessionModel, ev: InterruptMarkerEvent): void {
  // A subagent's own marker (an interrupt also stops background agents) is not shown: the person
  // saw the conductor's, and the card says "stopped". History leaves it out too (DiskMapper).
  if (ev.parentToolUseId !== null) return;
  addNotice(s, "warning", ev.text);
  endTurn(s);
}

export function onTurnResult(s: SessionModel, ev: TurnResultEvent): void {
  s.cost.noteResult(ev.sinceLastCostUsd, ev.costUsd);
  noteProcessTokens(s, ev);
  for (const denial of ev.permissionDenials ?? []) markDenied(s, denial.toolUseId);
  // A live turn that ended on an API error says it twice: the answer already shows it.
  if (ev.isError && (ev.result === undefined || ev.result !== s.turnApiError)) addNotice(s, "error", ev.result ?? `Turn ended with ${ev.subtype}`);
  for (const error of ev.errors ?? []) addNotice(s, "error", error);
  // Idle unless background work goes on: settleStatus (sessionStatus.ts) decides once the turn has ended.
  s.notificationDue = false;
  s.meta = {
    ...s.meta,
    ...(ev.usage === undefined ? {} : { usage: ev.usage }),
    ...(ev.contextWindow === undefined ? {} : { contextWindow: ev.contextWindow }),
  };
  endTurn(s);
}

/**
 * A call the turn's `permission_denials` lists is denied, unless its question was withdrawn
 * (`control_cancel_request`): the CLI lists a call whose prompt an interrupt cut too, and that
 * call was stopped, not refused (recording interrupt-pending-permission).
 */
function markDenied(s: SessionModel, toolUseId: string): void {
  const node = findAnyCall(s, toolUseId);
  const call = node?.call;
  if (node === undefined || call === undefined || call.status === "completed" || call.permission?.state === "cancelled") return;
  editCall(s, node, (c) => ({ ...c, status: "denied" }));
}

function endTurn(s: SessionModel): void {
  finishStreaming(s);
  stopOpen(s, { spareBackground: true });
  s.inTurn = false;
}

export function onApiRetry(s: SessionModel, ev: ApiRetryEvent): void {
  const status = ev.errorStatus === null ? "" : ` ${ev.errorStatus}`;
  addNotice(s, "warning", `API error${status} (${ev.error}); retry ${ev.attempt}/${ev.maxRetries} in ${Math.round(ev.retryDelayMs)} ms`);
}

export function onCompactBoundary(s: SessionModel, ev: CompactBoundaryEvent): void {
  const tokens = ev.preTokens !== undefined && ev.postTokens !== undefined ? ` (${ev.preTokens} → ${ev.postTokens} tokens)` : "";
  addNotice(s, "info", `Conversation compacted, ${ev.trigger}${tokens}`);
}

export function onProcessExit(s: SessionModel, ev: ProcessExitEvent): void {
  s.cost.endProcess();
  endProcessTokens(s);
  finishStreaming(s);
  stopOpen(s, { spareBackground: false });
  s.inTurn = false;
  // Nothing of this process runs on; the next one starts with no background level (it sends none at startup).
  s.backgroundTasks = undefined;
  s.notificationDue = false;
  if (ev.error !== undefined) {
    addNotice(s, "error", ev.error);
    s.meta = { ...s.meta, status: "error" };
  } else if (s.meta.status === "running") {
    s.meta = { ...s.meta, status: "idle" };
  }
}

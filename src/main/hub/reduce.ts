// The hub reducer: (SessionState, ClientEvent) → SessionState. Pure from the caller's side: a
// state, once returned, never changes what it shows. Internally all states of a session share one
// mutable store that the newest state writes in place, leaving an undo log behind (state.ts); the
// Transcript is built from it only when asked for, sharing every block that did not change.

import type { ClientEvent } from "../../shared/events.js";
import type { ToolCallRecord, Transcript } from "../../shared/transcript.js";
import { addNotice, type Draft } from "./draft.js";
import { blockOf, blocksOf } from "./materialize.js";
import { onPermissionCancelled, onPermissionDenied, onPolicyDecision, onPermissionRequest, onPermissionResolved } from "./permissions.js";
import { onCommandLifecycle } from "./promptQueue.js";
import { isLiveBackgroundTask, noteBackgroundEnd, onBackgroundTasks, settleStatus } from "./sessionStatus.js";
import { HubState, hubState, reroot, type SessionState } from "./state.js";
import { findCallAnywhere } from "./store.js";
import { advance, discard, forgetJournal, writableFrom } from "./timeline.js";
import { onStreamDelta } from "./streaming.js";
import { onSubagentRetry, onTaskNotification, onTaskProgress, onTaskStarted, onTaskUpdated } from "./subagentRecords.js";
import { onAssistantBlock, onToolResult } from "./toolCalls.js";
import {
  onApiRetry,
  onCompactBoundary,
  onInterruptMarker,
  onProcessExit,
  onSessionInit,
  onTurnResult,
  onUserPrompt,
} from "./turns.js";

export function reduce(state: SessionState, event: ClientEvent): SessionState {
  const d = draftFrom(hubState(state));
  try {
    apply(d, event);
  } catch (error) {
    rollBack(d);
    throw error;
  }
  return finish(d);
}

/** Same as reducing one event at a time, with one draft (and one undo log) for the whole batch. */
export function reduceAll(state: SessionState, events: Iterable<ClientEvent>): SessionState {
  const from = hubState(state);
  let d: Draft | undefined;
  try {
    for (const event of events) {
      d ??= draftFrom(from);
      apply(d, event);
    }
  } catch (error) {
    if (d !== undefined) rollBack(d);
    throw error;
  }
  return d === undefined ? state : finish(d);
}

/**
 * reduceAll for a caller that keeps only the newest state, as a live tab does: `state` and every
 * state before it are used up (reading or reducing one throws), so the journal that would let
 * them be read again is forgotten after the step rather than kept. Keeping it cost more than the
 * reducer's own work: it held every value a step replaced until its page was freed, and the young
 * collections copied all of it. A step that throws rolls back and uses nothing up. States of a
 * session that was ever reduced from an older state (a fork) keep their journal: this is then
 * reduceAll.
 */
export function reduceAllConsuming(state: SessionState, events: Iterable<ClientEvent>): SessionState {
  const next = reduceAll(state, events);
  if (next !== state) forgetJournal(hubState(next).timeline);
  return next;
}

/** Events per step of reduceAllInSteps: enough to make a step's overhead vanish, few enough that its journal stays small. */
const StepEvents = 512;

/**
 * The state after a whole list of events, for a caller that reads only that one (a replay, a file
 * read once): reduced in steps of StepEvents with reduceAllConsuming. One reduceAll step over a
 * long list keeps every value it replaces in its journal until it ends: on the bench's stream
 * (213 k events) that took 40 % longer and kept 3.5 times the memory. `state` is used up. If a step
 * throws, the steps before it stay applied to states that are used up too: the caller has nothing
 * left to read, so this is for callers that give up on an error.
 */
export function reduceAllInSteps(state: SessionState, events: readonly ClientEvent[]): SessionState {
  let next = state;
  for (let at = 0; at < events.length; at += StepEvents) next = reduceAllConsuming(next, events.slice(at, at + StepEvents));
  return next;
}

/** The next state, being written: current, at the end of a timeline (a new one if `from` already had a successor). */
function draftFrom(from: HubState): Draft {
  const store = reroot(from);
  const next = new HubState(from, writableFrom(from.timeline));
  next.store = store;
  next.log = next.page;
  return next as Draft;
}

function finish(d: Draft): HubState {
  const state: HubState = d;
  advance(state.timeline);
  state.slot = state.timeline.applied;
  state.page = state.timeline.appliedPage;
  state.store = undefined;
  state.log = undefined;
  return state;
}

/** A step failed: the store goes back to what the state it started from shows. */
function rollBack(d: Draft): void {
  discard(d.timeline, d.slot - d.page.start);
}

function apply(d: Draft, ev: ClientEvent): void {
  switch (ev.kind) {
    case "session_init":
      onSessionInit(d, ev);
      return settleStatus(d);
    case "user_prompt":
      onUserPrompt(d, ev);
      if (ev.parentToolUseId === null) settleStatus(d);
      return;
    case "assistant_block":
      return onAssistantBlock(d, ev);
    case "tool_result":
      onToolResult(d, ev);
      // An Agent call's result settles a foreground agent, or says a background one was launched.
      if (ev.parentToolUseId === null && d.store.agents.has(ev.toolUseId)) settleStatus(d);
      return;
    case "interrupt_marker":
      onInterruptMarker(d, ev);
      return settleStatus(d);
    case "stream_delta":
      return onStreamDelta(d, ev);
    case "task_started":
      onTaskStarted(d, ev);
      return settleStatus(d);
    case "task_progress":
      return onTaskProgress(d, ev);
    case "task_updated": {
      const wasLive = isLiveBackgroundTask(d, ev.taskId, undefined);
      onTaskUpdated(d, ev);
      noteBackgroundEnd(d, ev, wasLive);
      return settleStatus(d);
    }
    case "task_notification": {
      const wasLive = isLiveBackgroundTask(d, ev.taskId, ev.toolUseId);
      onTaskNotification(d, ev);
      noteBackgroundEnd(d, ev, wasLive);
      return settleStatus(d);
    }
    case "background_tasks":
      onBackgroundTasks(d, ev);
      return settleStatus(d);
    case "permission_request":
      return onPermissionRequest(d, ev);
    case "permission_resolved":
      return onPermissionResolved(d, ev);
    case "permission_cancelled":
      return onPermissionCancelled(d, ev);
    case "permission_denied":
      return onPermissionDenied(d, ev);
    case "policy_decision":
      return onPolicyDecision(d, ev);
    case "command_lifecycle":
      return onCommandLifecycle(d, ev);
    case "subagent_retry":
      return onSubagentRetry(d, ev);
    case "turn_result":
      if (ev.subagentStats !== undefined) d.meta = { ...d.meta, subagentStats: ev.subagentStats };
      onTurnResult(d, ev);
      return settleStatus(d);
    case "api_retry":
      return onApiRetry(d, ev);
    case "status":
      if (ev.permissionMode !== undefined) d.meta = { ...d.meta, permissionMode: ev.permissionMode };
      return;
    case "compact_boundary":
      return onCompactBoundary(d, ev);
    case "title":
      d.meta = { ...d.meta, title: ev.title };
      return;
    case "notice":
      return addNotice(d, ev.level, ev.text);
    case "process_exit":
      onProcessExit(d, ev);
      return settleStatus(d);
    case "hook":
    case "prompt_suggestion":
    case "protocol_problem":
      // Console material, not transcript.
      return;
  }
}

const transcripts = new WeakMap<SessionState, Transcript>();

/** The transcript of a state; computed once per state, sharing every unchanged block. */
export function toTranscript(state: SessionState): Transcript {
  const cached = transcripts.get(state);
  if (cached !== undefined) return cached;
  const s = hubState(state);
  const blocks = blocksOf(reroot(s).top);
  const m = s.meta;
  const cost = s.costBefore + (s.costThisProcess ?? 0);
  const transcript: Transcript = {
    sessionId: m.sessionId,
    ...(m.cwd === undefined ? {} : { cwd: m.cwd }),
    ...(m.model === undefined ? {} : { model: m.model }),
    ...(m.title === undefined ? {} : { title: m.title }),
    ...(m.permissionMode === undefined ? {} : { permissionMode: m.permissionMode }),
    status: m.status,
    blocks,
    ...(m.usage === undefined ? {} : { usage: m.usage }),
    ...(m.contextUsage === undefined ? {} : { contextUsage: m.contextUsage }),
    ...(m.contextWindow === undefined ? {} : { contextWindow: m.contextWindow }),
    ...(m.subagentStats === undefined ? {} : { subagentStats: m.subagentStats }),
    ...(m.backgroundAgents === undefined ? {} : { backgroundAgents: m.backgroundAgents }),
    ...(s.costThisProcess === undefined && s.costBefore === 0 ? {} : { costUsd: cost }),
  };
  transcripts.set(state, transcript);
  return transcript;
}

/** Whether the agent of this Agent call was killed (TaskStop, an interrupt): the calls it was running were cut, not refused. */
export function agentKilled(state: SessionState, toolUseId: string): boolean {
  return reroot(hubState(state)).killedAgents.get(toolUseId) === true;
}

export function findToolCall(state: SessionState, toolUseId: string): ToolCallRecord | undefined {
  const node = findCallAnywhere(reroot(hubState(state)), toolUseId);
  return node === undefined ? undefined : blockOf(node).call;
}

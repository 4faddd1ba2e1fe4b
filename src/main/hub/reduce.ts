// The hub reducer: (SessionState, ClientEvent) → SessionState. Pure from the caller's side: a
// state, once returned, never changes. Internally the newest state of a lineage writes its indexes
// in place (see versionedMap.ts); reducing an older state forks them first.

import type { ClientEvent } from "../../shared/events.js";
import type { Block, ToolCallRecord, Transcript } from "../../shared/transcript.js";
import { addNotice, isOpen, type Draft } from "./draft.js";
import { onPermissionCancelled, onPermissionRequest, onPermissionResolved } from "./permissions.js";
import { Lineage, type Path, type SessionState } from "./state.js";
import { onStreamDelta } from "./streaming.js";
import { onTaskNotification, onTaskProgress, onTaskStarted, onTaskUpdated } from "./subagentRecords.js";
import { onAssistantBlock, onToolResult } from "./toolCalls.js";
import { getBlock } from "./tree.js";
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
  const lineage = state.lineage.head === state.version ? state.lineage : fork(state);
  const version = state.version + 1;
  lineage.head = version;
  // The draft becomes the new state: it is only written during this call. Fields are listed one
  // by one because object rest/spread here would dominate the cost of small events.
  const d: Draft = {
    lineage,
    version,
    meta: state.meta,
    top: state.top,
    costBefore: state.costBefore,
    costThisProcess: state.costThisProcess,
    seq: state.seq,
    lastLineKey: state.lastLineKey,
    lastLineCount: state.lastLineCount,
    streaming: state.streaming,
    inTurn: state.inTurn,
  };
  apply(d, event);
  return d;
}

export function reduceAll(state: SessionState, events: Iterable<ClientEvent>): SessionState {
  let s = state;
  for (const event of events) s = reduce(s, event);
  return s;
}

function apply(d: Draft, ev: ClientEvent): void {
  switch (ev.kind) {
    case "session_init":
      return onSessionInit(d, ev);
    case "user_prompt":
      return onUserPrompt(d, ev);
    case "assistant_block":
      return onAssistantBlock(d, ev);
    case "tool_result":
      return onToolResult(d, ev);
    case "interrupt_marker":
      return onInterruptMarker(d, ev);
    case "stream_delta":
      return onStreamDelta(d, ev);
    case "task_started":
      return onTaskStarted(d, ev);
    case "task_progress":
      return onTaskProgress(d, ev);
    case "task_updated":
      return onTaskUpdated(d, ev);
    case "task_notification":
      return onTaskNotification(d, ev);
    case "permission_request":
      return onPermissionRequest(d, ev);
    case "permission_resolved":
      return onPermissionResolved(d, ev);
    case "permission_cancelled":
      return onPermissionCancelled(d, ev);
    case "turn_result":
      return onTurnResult(d, ev);
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
      return onProcessExit(d, ev);
    case "hook":
    case "prompt_suggestion":
    case "protocol_problem":
      // Console material, not transcript.
      return;
  }
}

/** Copies what `state` sees into a new lineage so an older state can be reduced again. */
function fork(state: SessionState): Lineage {
  const open = new Map<string, Path>();
  const walk = (blocks: readonly Block[], parent: Path, firstSeq: number): void => {
    blocks.forEach((block, i) => {
      const call = block.call;
      if (call === undefined) return;
      const path = [...parent, firstSeq + i];
      if (isOpen(call)) open.set(call.toolUseId, path);
      if (call.subagent !== undefined) walk(call.subagent.blocks, path, call.subagent.droppedBlockCount);
    });
  };
  walk(state.top.toArray(), [], 0);
  return new Lineage(state.version, { lineage: state.lineage, version: state.version }, open);
}

const transcripts = new WeakMap<SessionState, Transcript>();

/** The transcript of a state; computed once per state, sharing every unchanged block. */
export function toTranscript(state: SessionState): Transcript {
  const cached = transcripts.get(state);
  if (cached !== undefined) return cached;
  const m = state.meta;
  const cost = state.costBefore + (state.costThisProcess ?? 0);
  const transcript: Transcript = {
    sessionId: m.sessionId,
    ...(m.cwd === undefined ? {} : { cwd: m.cwd }),
    ...(m.model === undefined ? {} : { model: m.model }),
    ...(m.title === undefined ? {} : { title: m.title }),
    ...(m.permissionMode === undefined ? {} : { permissionMode: m.permissionMode }),
    status: m.status,
    blocks: state.top.toArray(),
    ...(m.usage === undefined ? {} : { usage: m.usage }),
    ...(state.costThisProcess === undefined && state.costBefore === 0 ? {} : { costUsd: cost }),
  };
  transcripts.set(state, transcript);
  return transcript;
}

export function findToolCall(state: SessionState, toolUseId: string): ToolCallRecord | undefined {
  const path = state.lineage.paths.get(toolUseId, state.version);
  return path === undefined ? undefined : getBlock(state.top, path)?.call;
}

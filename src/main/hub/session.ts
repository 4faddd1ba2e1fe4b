// The hub's session model: one per live tab or restored session. It owns its state and applies
// ClientEvents (live or from history) to it in place; the Transcript is built from it only when
// asked for, sharing every block that did not change since the last one (materialize.ts).
// Nothing keeps an older state: a caller that needs one applies the events again.

import type { BackgroundTask, ClientEvent } from "../../shared/events.js";
import type { PermissionMode, Usage } from "../../shared/protocol/messages.js";
import type { PlanLimits, SubagentRecord, SubagentStats, ToolCallRecord, Transcript, TranscriptStatus } from "../../shared/transcript.js";
import { addNotice } from "./edits.js";
import { onEscalationOpened, onEscalationRouted, onEscalationSettled, onPhaseChanged } from "./escalations.js";
import { blockOf, transcriptOf } from "./materialize.js";
import { onRateLimit } from "./planLimits.js";
import { onPermissionCancelled, onPermissionDenied, onPermissionRequest, onPermissionResolved, onPolicyDecision } from "./permissions.js";
import { onCommandLifecycle } from "./promptQueue.js";
import { onFilesRewound } from "./filesRewound.js";
import { isLiveBackgroundTask, noteBackgroundEnd, onBackgroundTasks, settleStatus } from "./sessionStatus.js";
import { BlockTree, findCallAnywhere, type Node } from "./blockTree.js";
import { onStreamDelta } from "./streaming.js";
import { agentToolUseId, onSubagentRetry, onTaskNotification, onTaskProgress, onTaskStarted, onTaskUpdated } from "./subagentRecords.js";
import { noteRecordedCall, type RecordedCall } from "./tokenShares.js";
import { onAssistantBlock, onToolResult } from "./toolCalls.js";
import { onApiRetry, onCompactBoundary, onInterruptMarker, onProcessExit, onSessionInit, onTurnResult, onUserPrompt } from "./turns.js";
import { ProcessTotal } from "./processTotal.js";

export interface SessionMeta {
  readonly sessionId: string;
  readonly cwd?: string;
  readonly model?: string;
  readonly title?: string;
  readonly permissionMode?: PermissionMode;
  readonly status: TranscriptStatus;
  readonly usage?: Usage;
  readonly contextUsage?: Usage;
  readonly contextWindow?: number;
  /** The last turn result's `subagent_stats` (2.1.332+). */
  readonly subagentStats?: SubagentStats;
  /** Live background agents an interrupt would stop (sessionStatus.ts); absent when none. */
  readonly backgroundAgents?: number;
  /** The plan's limits the CLI last reported (planLimits.ts). */
  readonly planLimits?: PlanLimits;
}

/** Streaming top-level blocks of the message being received (`--include-partial-messages`). */
export interface StreamingMessage {
  readonly messageId: string;
  /** content block index → its top-level node; `done` once its `assistant` line replaced it. */
  readonly blocks: readonly { readonly index: number; readonly node: Node; readonly kind: "text" | "thinking"; readonly done: boolean }[];
}

export class SessionModel {
  /** The block tree and the indexes the rules look things up in. */
  readonly tree = new BlockTree();
  meta: SessionMeta;
  /** The session's cost over its CLI processes (the turn results' `total_cost_usd`). */
  readonly cost = new ProcessTotal();
  /** Its calls' input-side tokens over its CLI processes (tokenShares.ts; the results' `modelUsage`). */
  readonly input = new ProcessTotal();
  /** Input-side tokens of calls no process total covers yet, counted from their own lines (history, a CLI that died mid-turn). */
  uncoveredInput = 0;
  /** Model calls already counted, as `<Agent call id or "">\n<message id>` (the main thread's have no call id). */
  readonly countedCalls = new Set<string>();
  /** Tokens of an agent's calls counted before its card exists (a nested agent's file read before its parent's: history/subagentUsage.ts). */
  readonly tokensAhead = new Map<string, number>();
  /** The lines being applied are a live tab's own files: their calls are in its processes' totals already. */
  readingOwnFiles = false;
  /** A restored session's subagent files are still being counted: its total is not known yet. */
  filesUncounted = false;
  /** Counter for synthetic block ids. */
  seq = 0;
  /** The line uuid (or message id) of the last assistant block, and how many blocks it had. */
  lastLineKey: string | undefined = undefined;
  lastLineCount = 0;
  streaming: StreamingMessage | undefined = undefined;
  /** A top-level turn is in progress (between a prompt or init and its result). */
  inTurn = false;
  /** The CLI process's last `background_tasks_changed` level; undefined until it sends one (2.1.197 never does). */
  backgroundTasks: readonly BackgroundTask[] | undefined = undefined;
  /** A background agent finished outside a turn: the turn that delivers its report is still to come. */
  notificationDue = false;
  /** The text of the CLI's synthetic API error answer in this turn, drawn as an error already (toolCalls.ts). */
  turnApiError: string | undefined = undefined;
  /** Goes up with every apply: what a cache of something built from the model compares. */
  version = 0;
  private built: { readonly version: number; readonly transcript: Transcript } | undefined;

  constructor(init?: { readonly sessionId?: string }) {
    this.meta = { sessionId: init?.sessionId ?? "", status: "idle" };
  }

  /**
   * Applies the events in order. An event that throws (a bug, or input the parser should have
   * refused) stops the batch with its error: the events before it stay applied, and so may part
   * of that one. With `onError`, it is reported there instead and the batch goes on (a live tab
   * must keep every other event).
   */
  apply(events: Iterable<ClientEvent>, onError?: (event: ClientEvent, error: unknown) => void): void {
    this.version++;
    if (onError === undefined) {
      for (const event of events) applyEvent(this, event);
      return;
    }
    for (const event of events) {
      try {
        applyEvent(this, event);
      } catch (error) {
        onError(event, error);
      }
    }
  }

  /** The transcript as the model now stands; the same object until the next apply. */
  transcript(): Transcript {
    if (this.built?.version !== this.version) this.built = { version: this.version, transcript: transcriptOf(this) };
    return this.built.transcript;
  }

  /**
   * Counts model calls read from a file without applying its lines (a restored session's
   * subagents: history/subagentUsage.ts): on their agents' cards and in the session's total, each
   * call once, as if their lines had been applied.
   */
  countRecordedCalls(calls: Iterable<RecordedCall>): void {
    this.version++;
    for (const call of calls) noteRecordedCall(this, call);
  }

  /** Whether the session's total waits for its subagents' files to be counted (a restore in progress). */
  setFilesUncounted(uncounted: boolean): void {
    this.version++;
    this.filesUncounted = uncounted;
  }

  /** A top-level turn is in progress (a prompt or init seen, its result not yet). */
  get turnRunning(): boolean {
    return this.inTurn;
  }

  findToolCall(toolUseId: string): ToolCallRecord | undefined {
    const node = findCallAnywhere(this.tree, toolUseId);
    return node === undefined ? undefined : blockOf(node).call;
  }

  /** The Agent call of the subagent with this agent (task) id, when its task events linked them. */
  agentCallOf(agentId: string): string | undefined {
    return agentToolUseId(this, agentId, undefined);
  }

  /** The subagent records that hold this call, innermost first; empty for a call of the conductor or one not in the tree. */
  callersOf(toolUseId: string): readonly SubagentRecord[] {
    const out: SubagentRecord[] = [];
    for (let owner = findCallAnywhere(this.tree, toolUseId)?.owner; owner !== undefined; owner = owner.owner) {
      const record = blockOf(owner).call?.subagent;
      if (record !== undefined) out.push(record);
    }
    return out;
  }

  /** Whether the agent of this Agent call was killed (TaskStop, an interrupt): the calls it was running were cut, not refused. */
  agentKilled(toolUseId: string): boolean {
    return this.tree.killedAgents.get(toolUseId) === true;
  }
}

/** The model after `events`, from a new one: for callers that read a list once (replay, a sidechain's own blocks, tests). */
export function modelOf(events: Iterable<ClientEvent>, init?: { readonly sessionId?: string }): SessionModel {
  const model = new SessionModel(init);
  model.apply(events);
  return model;
}

function applyEvent(s: SessionModel, ev: ClientEvent): void {
  switch (ev.kind) {
    case "session_init":
      onSessionInit(s, ev);
      return settleStatus(s);
    case "user_prompt":
      onUserPrompt(s, ev);
      if (ev.parentToolUseId === null) settleStatus(s);
      return;
    case "assistant_block":
      return onAssistantBlock(s, ev);
    case "tool_result":
      onToolResult(s, ev);
      // An Agent call's result settles a foreground agent, or says a background one was launched.
      if (ev.parentToolUseId === null && s.tree.agents.has(ev.toolUseId)) settleStatus(s);
      return;
    case "interrupt_marker":
      onInterruptMarker(s, ev);
      return settleStatus(s);
    case "stream_delta":
      return onStreamDelta(s, ev);
    case "task_started":
      onTaskStarted(s, ev);
      return settleStatus(s);
    case "task_progress":
      return onTaskProgress(s, ev);
    case "task_updated": {
      const wasLive = isLiveBackgroundTask(s, ev.taskId, undefined);
      onTaskUpdated(s, ev);
      noteBackgroundEnd(s, ev, wasLive);
      return settleStatus(s);
    }
    case "task_notification": {
      const wasLive = isLiveBackgroundTask(s, ev.taskId, ev.toolUseId);
      onTaskNotification(s, ev);
      noteBackgroundEnd(s, ev, wasLive);
      return settleStatus(s);
    }
    case "background_tasks":
      onBackgroundTasks(s, ev);
      return settleStatus(s);
    case "permission_request":
      return onPermissionRequest(s, ev);
    case "permission_resolved":
      return onPermissionResolved(s, ev);
    case "permission_cancelled":
      return onPermissionCancelled(s, ev);
    case "permission_denied":
      return onPermissionDenied(s, ev);
    case "policy_decision":
      return onPolicyDecision(s, ev);
    case "escalation_opened":
      return onEscalationOpened(s, ev);
    case "escalation_routed":
      return onEscalationRouted(s, ev);
    case "escalation_settled":
      return onEscalationSettled(s, ev);
    case "phase_changed":
      return onPhaseChanged(s, ev);
    case "command_lifecycle":
      return onCommandLifecycle(s, ev);
    case "subagent_retry":
      return onSubagentRetry(s, ev);
    case "turn_result":
      if (ev.subagentStats !== undefined) s.meta = { ...s.meta, subagentStats: ev.subagentStats };
      onTurnResult(s, ev);
      return settleStatus(s);
    case "api_retry":
      return onApiRetry(s, ev);
    case "status":
      if (ev.permissionMode !== undefined) s.meta = { ...s.meta, permissionMode: ev.permissionMode };
      return;
    case "compact_boundary":
      return onCompactBoundary(s, ev);
    case "rate_limit":
      return onRateLimit(s, ev);
    case "title":
      s.meta = { ...s.meta, title: ev.title };
      return;
    case "notice":
      return addNotice(s, ev.level, ev.text);
    case "files_rewound":
      return onFilesRewound(s, ev);
    case "process_exit":
      onProcessExit(s, ev);
      return settleStatus(s);
    case "hook":
    case "prompt_suggestion":
    case "protocol_problem":
      // Console material, not transcript.
      return;
    default:
      return unknownEvent(ev);
  }
}

/** The typecheck fails here when an event kind has no case above. */
function unknownEvent(ev: never): void {
  throw new Error(`hub: unknown event kind ${(ev as { kind?: unknown }).kind as string}`);
}

// The event vocabulary the hub reducer consumes. The live protocol client (src/main/cli) and the
// history reader (src/main/history) both turn what they read into these events, so a session
// restored from disk is built by exactly the same code as a live one.
//
// Every event that can come from a subagent carries `parentToolUseId` (the spawning Agent
// tool_use id, null for the main agent); permission requests carry `agentId` instead, because the
// CLI's `can_use_tool` names only the asking agent's id, never its parent call.

import type { EscalationSettler, EscalationTarget, PlanSubmission, SubagentPhase } from "./escalation.js";
import type { PlanLimits, SubagentStats } from "./transcript.js";
import type {
  ContentBlock,
  Json,
  JsonObject,
  PermissionMode,
  PermissionUpdate,
  StreamEvent,
  TaskUsage,
  ToolResultBlock,
  Usage,
} from "./protocol/messages.js";

export type ClientEvent =
  | SessionInitEvent
  | UserPromptEvent
  | AssistantBlockEvent
  | ToolResultEvent
  | InterruptMarkerEvent
  | StreamDeltaEvent
  | TaskStartedEvent
  | TaskProgressEvent
  | TaskUpdatedEvent
  | TaskNotificationEvent
  | PermissionRequestEvent
  | PermissionResolvedEvent
  | PermissionCancelledEvent
  | TurnResultEvent
  | ApiRetryEvent
  | StatusEvent
  | CompactBoundaryEvent
  | HookEvent
  | PromptSuggestionEvent
  | RateLimitEvent
  | BackgroundTasksEvent
  | CommandLifecycleEvent
  | PermissionDeniedEvent
  | PolicyDecisionEvent
  | EscalationOpenedEvent
  | EscalationRoutedEvent
  | EscalationSettledEvent
  | PhaseChangedEvent
  | SubagentRetryEvent
  | TitleEvent
  | NoticeEvent
  | FilesRewoundEvent
  | ProcessExitEvent
  | ProtocolProblemEvent;

/** `system/init`; repeated at the start of every turn. The session id comes only from here. */
export interface SessionInitEvent {
  readonly kind: "session_init";
  readonly sessionId: string;
  readonly cwd: string;
  readonly model: string;
  readonly permissionMode: PermissionMode;
  readonly tools: readonly string[];
  readonly slashCommands: readonly string[];
  readonly agents: readonly string[];
  readonly cliVersion?: string;
}

/**
 * A user prompt: the person's own (sent by Baton, or read from history), or a subagent's prompt
 * echo (`parentToolUseId` set), which the hub keeps as the record's prompt, not as a block.
 */
export interface UserPromptEvent {
  readonly kind: "user_prompt";
  readonly uuid?: string;
  readonly parentToolUseId: string | null;
  readonly text: string;
  /** Pasted images, as data the renderer can show (base64). */
  readonly images?: readonly { readonly mediaType: string; readonly data: string }[];
  readonly timestamp?: string;
  /** History only: prompts injected by the CLI (caveats, compaction summaries). */
  readonly isMeta?: boolean;
}

/** One completed assistant content block (text, thinking or tool_use). */
export interface AssistantBlockEvent {
  readonly kind: "assistant_block";
  readonly uuid?: string;
  /** Anthropic message id; several blocks of one response share it. */
  readonly messageId: string;
  readonly parentToolUseId: string | null;
  readonly block: ContentBlock;
  readonly model?: string;
  /** Set on the CLI's synthetic "API Error: …" answers. */
  readonly apiError?: string;
  readonly timestamp?: string;
  /** The model call's usage (the same object on every block of one message). */
  readonly usage?: Usage;
}

export interface ToolResultEvent {
  readonly kind: "tool_result";
  readonly uuid?: string;
  readonly parentToolUseId: string | null;
  readonly toolUseId: string;
  /** The result as text (lists of text blocks joined); images are not inlined. */
  readonly text: string;
  readonly isError: boolean;
  /** `tool_use_result` (stream) / `toolUseResult` (disk): structured output or an error string. */
  readonly structured?: Json;
  readonly content?: ToolResultBlock["content"];
  readonly timestamp?: string;
}

/** "[Request interrupted by user…]" marker line. */
export interface InterruptMarkerEvent {
  readonly kind: "interrupt_marker";
  readonly parentToolUseId: string | null;
  readonly text: string;
}

/** A raw partial-message event (`--include-partial-messages`). */
export interface StreamDeltaEvent {
  readonly kind: "stream_delta";
  readonly parentToolUseId: string | null;
  readonly event: StreamEvent;
}

export interface TaskStartedEvent {
  readonly kind: "task_started";
  readonly taskId: string;
  readonly toolUseId?: string;
  readonly description?: string;
  readonly subagentType?: string;
  /** `local_agent` (a subagent) or `local_bash` (a long Bash call). */
  readonly taskType?: string;
  readonly prompt?: string;
  /** 2.1.332+: a SendMessage continuation is a new run (new id) of the same task, under the original Agent call's id. */
  readonly runId?: string;
  readonly spawnDepth?: number;
  readonly parentTaskId?: string;
}
export interface TaskProgressEvent {
  readonly kind: "task_progress";
  readonly taskId: string;
  readonly toolUseId?: string;
  readonly description?: string;
  readonly lastToolName?: string;
  readonly usage?: TaskUsage;
  readonly summary?: string;
  readonly runId?: string;
}
export interface TaskUpdatedEvent {
  readonly kind: "task_updated";
  readonly taskId: string;
  readonly status?: string;
  readonly endTime?: number;
  /** Why the agent died (2.1.332+). */
  readonly error?: string;
  readonly runId?: string;
}
export interface TaskNotificationEvent {
  readonly kind: "task_notification";
  readonly taskId: string;
  readonly toolUseId?: string;
  readonly status: string;
  readonly summary?: string;
  readonly outputFile?: string;
  readonly usage?: TaskUsage;
  readonly runId?: string;
  /** `summary` is the agent's final report (2.1.332+), not a label. */
  readonly summaryIsReport?: boolean;
  /** The worktree a background agent kept (`<worktree>` of the prompt on disk; the stream's event has none). */
  readonly worktreePath?: string;
  readonly worktreeBranch?: string;
}

export interface PermissionRequestEvent {
  readonly kind: "permission_request";
  readonly requestId: string;
  readonly toolName: string;
  readonly toolUseId: string;
  /** The asking subagent's task id; absent for the main agent. */
  readonly agentId?: string;
  readonly input: JsonObject;
  readonly description?: string;
  readonly suggestions?: readonly PermissionUpdate[];
  readonly blockedPath?: string;
  /** 2.1.332+: only a person can answer this (ExitPlanMode, AskUserQuestion). */
  readonly requiresUserInteraction?: boolean;
  /** ExitPlanMode without `input.plan`: the plan read from its `planFilePath`, or why it could not be read. */
  readonly planFromFile?: string;
  readonly planFileProblem?: string;
}
export interface PermissionResolvedEvent {
  readonly kind: "permission_resolved";
  readonly requestId: string;
  readonly behavior: "allow" | "deny";
  /** Who decided: "user", "policy:<name>", "timeout", "error", "window-closed", … */
  readonly decidedBy: string;
  readonly message?: string;
}
export interface PermissionCancelledEvent {
  readonly kind: "permission_cancelled";
  readonly requestId: string;
}

export interface TurnResultEvent {
  readonly kind: "turn_result";
  readonly subtype: string;
  readonly isError: boolean;
  readonly result?: string;
  readonly usage?: Usage;
  readonly costUsd?: number;
  readonly durationMs?: number;
  readonly numTurns?: number;
  readonly errors?: readonly string[];
  readonly contextWindow?: number;
  /** Input, cache read and cache creation tokens of every model call of this CLI process so far (`modelUsage`, cumulative; 2.1.332 carries a resumed or forked session's earlier runs in it). */
  readonly processInputTokens?: number;
  /** The same of the calls since this process's previous result only (`model_usage_since_last_result`, 2.1.332+). */
  readonly sinceLastInputTokens?: number;
  /** The cost of those calls (their `costUSD`s): `total_cost_usd` carries a resumed or forked session's earlier runs on 2.1.332. */
  readonly sinceLastCostUsd?: number;
  readonly permissionDenials?: readonly { readonly toolName: string; readonly toolUseId: string }[];
  readonly subagentStats?: SubagentStats;
}

export interface ApiRetryEvent {
  readonly kind: "api_retry";
  readonly attempt: number;
  readonly maxRetries: number;
  readonly retryDelayMs: number;
  readonly errorStatus: number | null;
  readonly error: string;
}
export interface StatusEvent {
  readonly kind: "status";
  readonly status: string | null;
  readonly permissionMode?: PermissionMode;
}
export interface CompactBoundaryEvent {
  readonly kind: "compact_boundary";
  readonly trigger: string;
  readonly preTokens?: number;
  readonly postTokens?: number;
}
export interface HookEvent {
  readonly kind: "hook";
  readonly phase: "started" | "progress" | "response";
  readonly hookName: string;
  readonly hookEvent: string;
  readonly output?: string;
  readonly exitCode?: number;
  readonly outcome?: string;
}
export interface PromptSuggestionEvent {
  readonly kind: "prompt_suggestion";
  readonly suggestion: string;
}
/** `rate_limit_event`: what one model response's headers said of the plan's limits (only the fields it carried). */
export interface RateLimitEvent {
  readonly kind: "rate_limit";
  readonly limits: Omit<PlanLimits, "receivedAt">;
}
/**
 * 2.1.332+ `system/background_tasks_changed`: every live background task of this CLI process after
 * a change (none: all done). A level, not an edge: it replaces what the last one said.
 */
export interface BackgroundTasksEvent {
  readonly kind: "background_tasks";
  readonly tasks: readonly BackgroundTask[];
}
export interface BackgroundTask {
  readonly taskId: string;
  /** `local_agent` (a subagent), `local_bash`, … */
  readonly taskType: string;
  readonly description: string;
  readonly subagentType?: string;
  /** A watcher, not work: it does not keep the session working. */
  readonly ambient?: boolean;
  /** A run that a tool call of the turn waits for (foreground). */
  readonly awaited?: boolean;
}
/** 2.1.332+ `command_lifecycle`: a prompt sent with a uuid was queued behind a turn, started or completed. */
export interface CommandLifecycleEvent {
  readonly kind: "command_lifecycle";
  /** The prompt's uuid (the one Baton sent it with). */
  readonly commandUuid: string;
  readonly state: string;
}
/** 2.1.332+ `system/permission_denied`: a call the CLI refused without asking (plan mode, auto mode). */
export interface PermissionDeniedEvent {
  readonly kind: "permission_denied";
  readonly toolName: string;
  readonly toolUseId: string;
  /** The refused subagent's task id; absent for the main agent. */
  readonly agentId?: string;
  /** Why, for the person: the CLI's message, else its decision reason. */
  readonly reason: string;
  readonly reasonType?: string;
}
/**
 * Baton's policy decided a call through the PreToolUse hook (issue 22): no permission request
 * follows, so this is what puts the decision on the call's card and the asking agent's history.
 */
export interface PolicyDecisionEvent {
  readonly kind: "policy_decision";
  readonly toolName: string;
  readonly toolUseId: string;
  /** The deciding agent's id; absent for the main agent. */
  readonly agentId?: string;
  readonly decision: "allow" | "deny";
  /** What decided (`preset:coder/exec`, `rule:allow Bash(pnpm test:*) (project)`). */
  readonly rule: string;
  readonly message: string;
}
/**
 * Baton's escalation chain (issue 24): a subagent called ask_conductor or submit_plan. Made by
 * Baton (src/main/orchestration), live and restored from the audit trail; the record of
 * `agentToolUseId` shows it until it is settled.
 */
export interface EscalationOpenedEvent {
  readonly kind: "escalation_opened";
  /** The ask_conductor / submit_plan call's tool_use id. */
  readonly id: string;
  /** The asking subagent's Agent call. */
  readonly agentToolUseId: string;
  readonly at: string;
  readonly question?: string;
  readonly plan?: PlanSubmission;
  readonly routedTo: EscalationTarget;
  readonly routeReason: string;
}
/** An open escalation went elsewhere: no answer in time, the conductor escalated, the conductor became blocked. */
export interface EscalationRoutedEvent {
  readonly kind: "escalation_routed";
  readonly id: string;
  readonly agentToolUseId: string;
  readonly routedTo: EscalationTarget;
  readonly reason: string;
}
export interface EscalationSettledEvent {
  readonly kind: "escalation_settled";
  readonly id: string;
  readonly agentToolUseId: string;
  readonly at: string;
  readonly outcome: "answered" | "approved" | "rejected" | "failed";
  /** The answer, the review's feedback, or why it failed. */
  readonly reply?: string;
  /** An approval with edits: the plan the agent was given. */
  readonly approvedPlan?: string;
  readonly by: EscalationSettler;
  /**
   * Who answered, by agent id: `main` for the conductor (the desk checked the caller was the main
   * agent), else `person` or `baton`. Absent only in events restored from an older trail.
   */
  readonly answeredBy?: string;
}
/** A Deliberate subagent's phase changed (orchestration mode). */
export interface PhaseChangedEvent {
  readonly kind: "phase_changed";
  readonly agentToolUseId: string;
  readonly phase: SubagentPhase;
  readonly at: string;
}
/** 2.1.332+ `tool_progress` with `subagent_retry`: a foreground subagent's model call is being retried. */
export interface SubagentRetryEvent {
  readonly kind: "subagent_retry";
  /** The Agent call whose subagent retries. */
  readonly agentToolUseId: string;
  readonly attempt: number;
  readonly maxRetries?: number;
  /** `overloaded`, `rate_limit`, …, else the HTTP status. */
  readonly reason?: string;
}
/** `custom-title` / `ai-title` lines (history), `system/session_title_changed` (live, 2.1.332+). */
export interface TitleEvent {
  readonly kind: "title";
  readonly title: string;
  readonly source: "custom" | "ai";
}
/** Anything else worth a line in the transcript. */
export interface NoticeEvent {
  readonly kind: "notice";
  readonly level: "info" | "warning" | "error";
  readonly text: string;
}
/** Baton rewound the session's files to just before one of its prompts (core/fileRewind.ts). */
export interface FilesRewoundEvent {
  readonly kind: "files_rewound";
  readonly promptUuid: string;
  /** How many files the rewind changed. */
  readonly files: number;
  readonly timestamp: string;
}
export interface ProcessExitEvent {
  readonly kind: "process_exit";
  readonly code: number | null;
  readonly signal: string | null;
  /** Set when the exit was not asked for (a crash). */
  readonly error?: string;
}
/** A line Baton could not use: not JSON, too long, unknown type. Goes to the Console. */
export interface ProtocolProblemEvent {
  readonly kind: "protocol_problem";
  readonly lineNumber: number;
  readonly reason: string;
  readonly excerpt?: string;
}

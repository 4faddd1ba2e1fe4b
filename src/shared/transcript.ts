// The one transcript model (docs/transcript-model.md): what the hub produces, SQLite
// caches, the renderer draws and `baton replay/export --json` prints. Plain serialisable data.

import type { Escalation, SubagentPhase } from "./escalation.js";
import type { Json, JsonObject, Usage } from "./protocol/messages.js";

export type TranscriptStatus = "idle" | "running" | "error";

export interface Transcript {
  readonly sessionId: string;
  readonly cwd?: string;
  readonly model?: string;
  readonly title?: string;
  readonly permissionMode?: string;
  readonly status: TranscriptStatus;
  readonly blocks: readonly Block[];
  /** Usage of the last turn (input/output/cache tokens), summed over its model calls. */
  readonly usage?: Usage;
  /** Usage of the conductor's last model call: its input, cache read and cache creation tokens are what its context holds. */
  readonly contextUsage?: Usage;
  /** The main model's context window in tokens, once the CLI reported it (turn results). */
  readonly contextWindow?: number;
  /** Total cost of the session so far, summed over turn results. */
  readonly costUsd?: number;
  /** Live background agents (they keep `status` "running" after the turn's result): what an interrupt would stop. Absent when none. */
  readonly backgroundAgents?: number;
  /** What the last turn result said of the session's subagents (CLI 2.1.332+). */
  readonly subagentStats?: SubagentStats;
  /**
   * Input, cache read and cache creation tokens of every model call of the session (the turn
   * results' `modelUsage`, over all its CLI processes, plus the calls no result covered counted
   * from their own lines): what a card's `inputTokens` is a share of. A restored session's is what
   * its files record (the main file's and every subagent's calls), absent while they are read.
   */
  readonly sessionInputTokens?: number;
  /** The plan's usage windows the CLI last reported (`rate_limit_event`, subscription sessions only). */
  readonly planLimits?: PlanLimits;
}

/**
 * The plan's limits as the CLI last reported them. They are the account's, not the session's:
 * every session of the account sees the same windows. A field missing from a later report keeps
 * the value last seen (a response without the headers carries no windows).
 */
export interface PlanLimits {
  /** `allowed`, `allowed_warning`, `rejected`. */
  readonly status?: string;
  /** The window that decides the status (`five_hour`, `seven_day`, …). */
  readonly rateLimitType?: string;
  /** When the deciding window resets, epoch seconds. */
  readonly resetsAt?: number;
  readonly isUsingOverage?: boolean;
  /** CLI 2.1.332+ only; 2.1.197 reports no utilization. */
  readonly fiveHour?: PlanWindow;
  readonly sevenDay?: PlanWindow;
  /** When Baton received the newest report (epoch ms): the window shows the newest of all sessions'. */
  readonly receivedAt: number;
}

export interface PlanWindow {
  /** The share of the window used: 0..1, above 1 when use ran past the cap. */
  readonly utilization: number;
  /** Epoch seconds. */
  readonly resetsAt?: number;
  /** The window's own status (`allowed_warning` past a warning threshold, `rejected` at its limit), when the CLI names it. */
  readonly status?: string;
}

/** A result's `subagent_stats`, the figures a person reads (counts of agents). */
export interface SubagentStats {
  readonly spawned?: number;
  readonly startedInBackground?: number;
  readonly completed?: number;
  readonly failed?: number;
  /** Killed by their parent, the user or the system, together. */
  readonly killed?: number;
  /** Refused by a depth, concurrency or budget limit, together. */
  readonly refused?: number;
  readonly maxDepth?: number;
}

export type BlockKind = "user" | "text" | "thinking" | "tool" | "notice";

export interface Block {
  readonly kind: BlockKind;
  /** Stable id: the tool_use id for tools, `<uuid or message id>:<n>` for others. */
  readonly id: string;
  readonly text?: string;
  readonly call?: ToolCallRecord;
  /** Notices only. */
  readonly level?: "info" | "warning" | "error";
  /** Streaming text/thinking not yet completed by its `assistant` line. */
  readonly streaming?: boolean;
  readonly images?: readonly { readonly mediaType: string; readonly data: string }[];
  readonly timestamp?: string;
  /** User prompts only: the CLI queued it behind a running turn and has not started it yet. */
  readonly queued?: boolean;
  /** User prompts only: Baton rewound the files to just before this prompt (the latest such rewind). */
  readonly rewound?: { readonly files: number; readonly at: string };
}

export type ToolCallStatus = "pending" | "running" | "completed" | "failed" | "denied" | "stopped";

export interface ToolCallRecord {
  readonly toolUseId: string;
  readonly name: string;
  readonly input: JsonObject;
  readonly status: ToolCallStatus;
  readonly result?: { readonly text: string; readonly isError: boolean; readonly structured?: Json };
  readonly permission?: PermissionState;
  /** Only on Agent/Task calls (and tools whose input names a `subagent_type`). */
  readonly subagent?: SubagentRecord;
  readonly startedAt?: string;
  readonly endedAt?: string;
}

export interface PermissionState {
  readonly requestId: string;
  readonly state: "asked" | "allowed" | "denied" | "cancelled";
  readonly decidedBy?: string;
  readonly message?: string;
}

export type SubagentStatus = "running" | "completed" | "failed" | "stopped";

export interface SubagentRecord {
  readonly toolUseId: string;
  /** The agent id (`a` + 16 hex); "" until `task_started` or the tool result names it. */
  readonly taskId: string;
  readonly subagentType: string;
  readonly description: string;
  readonly prompt: string;
  readonly background: boolean;
  readonly status: SubagentStatus;
  readonly progressLine?: string;
  readonly lastToolName?: string;
  /** The agent's latest context size (task progress, the hand-back), not what it spent. */
  readonly totalTokens?: number;
  /** Input, cache read and cache creation tokens of the agent's own model calls seen so far (its nested agents' not included). */
  readonly inputTokens?: number;
  readonly toolUses?: number;
  readonly durationMs?: number;
  readonly model?: string;
  readonly summaryMarkdown?: string;
  /** The subagent's own text, thinking and tool blocks, newest last, at most MaxNestedBlocks. */
  readonly blocks: readonly Block[];
  /** Older blocks dropped from `blocks`; the full list stays loadable from the sidechain. */
  readonly droppedBlockCount: number;
  /**
   * Set while the record's steps are on disk and not loaded yet: its sidechain file (for a
   * Workflow's card, the folder of its run's agent transcripts).
   */
  readonly sidechainPath?: string;
  readonly spawnDepth?: number;
  /** The task id of the agent that started this one (depth ≥ 2, CLI 2.1.332+). */
  readonly parentTaskId?: string;
  /** The run of the agent now shown: a SendMessage continuation is a new run of the same task (2.1.332+). */
  readonly runId?: string;
  /** The tools the agent called, from its hand-back (`toolsUsed`, `<tools-used-before-summary>`). */
  readonly toolsUsed?: readonly string[];
  /** Why the agent died (`task_updated.patch.error`). */
  readonly error?: string;
  /** Set while the agent's model call is being retried (`tool_progress.subagent_retry`); cleared when progress resumes. */
  readonly retry?: SubagentRetry;
  /** A Deliberate preset's phase in orchestration mode (issue 24); absent for every other agent. */
  readonly phase?: SubagentPhase;
  /** Every phase the agent entered, oldest first, with when. */
  readonly phaseHistory?: readonly { readonly phase: SubagentPhase; readonly at: string }[];
  /** Questions (ask_conductor) and plans (submit_plan) this agent sent, oldest first, each plan version kept. */
  readonly escalations?: readonly Escalation[];
  /** Set when the agent ran in a git worktree of its own (`isolation: "worktree"`). */
  readonly worktree?: AgentWorktreeRef;
  /** Permission requests this subagent made, oldest first. */
  readonly permissionHistory?: readonly {
    readonly requestId: string;
    readonly toolName: string;
    readonly toolUseId: string;
    readonly state: PermissionState["state"];
    readonly decidedBy?: string;
  }[];
}

/**
 * An agent's worktree as the protocol names it: the path and branch come with a foreground
 * agent's result or a background agent's `<task-notification>`. Both stay unset while it runs, and
 * for good when the agent changed nothing (the CLI then removes the worktree and names none).
 * History text, so only shown and matched against git's own listing, never acted on.
 */
export interface AgentWorktreeRef {
  readonly path?: string;
  readonly branch?: string;
}

export interface SubagentRetry {
  readonly attempt: number;
  readonly maxRetries?: number;
  /** `overloaded`, `rate_limit`, …, else the HTTP status. */
  readonly reason?: string;
}

export const MaxNestedBlocks = 120;

/** `subagentType` of a Workflow run's card, and of each agent the run's script started. */
export const WorkflowType = "workflow";
export const WorkflowAgentType = "workflow-subagent";

/** Names the Agent tool has had: `Agent` (API, tool_use blocks) and `Task` (init.tools, old CLIs). */
export function isAgentToolCall(name: string, input: JsonObject | undefined): boolean {
  return name === "Agent" || name === "Task" || (input !== undefined && typeof input["subagent_type"] === "string");
}

/**
 * Whether a record's steps must come from its sidechain file because the stream did not carry
 * them: none arrived yet, or it is a nested agent whose live blocks are only the cards of agents
 * it called. CLI 2.1.197 streams no nested agent's own lines, only its task_* events; 2.1.332 streams
 * every depth, so a step of its own (a text, a Bash call) says the stream carries them.
 */
export function stepsNotStreamed(record: SubagentRecord): boolean {
  if (record.blocks.length === 0) return true;
  return (record.spawnDepth ?? 1) >= 2 && record.blocks.every((b) => b.call?.subagent !== undefined);
}

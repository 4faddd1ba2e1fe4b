// The Claude Code CLI stream-json protocol (CLI 2.1.197, and the fields 2.1.332 added), as types.
// These describe the lines as the CLI writes them: snake_case, optional fields optional. The
// parser (`parseMessage.ts`) checks the discriminating fields and hands the object on unchanged,
// so a field Baton does not model is still there for whoever wants it.

export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
export type JsonObject = { readonly [key: string]: Json };

// ---- content blocks (Anthropic Messages API) --------------------------------------------------

export interface TextBlock {
  readonly type: "text";
  readonly text: string;
}
export interface ThinkingBlock {
  readonly type: "thinking";
  readonly thinking: string;
  readonly signature?: string;
}
export interface RedactedThinkingBlock {
  readonly type: "redacted_thinking";
  readonly data?: string;
}
export interface ToolUseBlock {
  readonly type: "tool_use" | "server_tool_use" | "mcp_tool_use";
  readonly id: string;
  readonly name: string;
  readonly input: JsonObject;
}
export interface ImageBlock {
  readonly type: "image";
  readonly source:
    | { readonly type: "base64"; readonly media_type: string; readonly data: string }
    | { readonly type: "url"; readonly url: string };
}
export interface ToolResultBlock {
  readonly type: "tool_result";
  readonly tool_use_id: string;
  /** A string, or a list of text/image blocks (MCP tools return lists). */
  readonly content?: string | readonly (TextBlock | ImageBlock | JsonObject)[];
  readonly is_error?: boolean;
}
export type ContentBlock =
  | TextBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ToolUseBlock
  | ImageBlock
  | ToolResultBlock;

export interface Usage {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly cache_creation_input_tokens?: number;
  readonly cache_read_input_tokens?: number;
  readonly [key: string]: Json | undefined;
}

// ---- stdout: CLI → client ---------------------------------------------------------------------

interface Envelope {
  readonly session_id: string;
  readonly uuid?: string;
}

export interface SystemInitMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "init";
  readonly cwd: string;
  readonly tools: readonly string[];
  readonly mcp_servers: readonly { readonly name: string; readonly status: string }[];
  readonly model: string;
  readonly permissionMode: PermissionMode;
  readonly slash_commands: readonly string[];
  readonly apiKeySource?: string;
  readonly claude_code_version?: string;
  readonly output_style?: string;
  readonly agents?: readonly string[];
  readonly skills?: readonly string[];
  readonly plugins?: readonly Json[];
  readonly fast_mode_state?: string;
}

export interface AssistantMessage extends Envelope {
  readonly type: "assistant";
  readonly message: {
    readonly id: string;
    readonly type?: "message";
    readonly role: "assistant";
    readonly model: string;
    /** One completed block per line on stdout; disk lines may carry several. */
    readonly content: readonly ContentBlock[];
    readonly stop_reason: string | null;
    readonly usage?: Usage;
  };
  readonly parent_tool_use_id: string | null;
  /** Present on subagent lines. */
  readonly subagent_type?: string;
  readonly task_description?: string;
  /** Synthetic API-error answers (`model: "<synthetic>"`) say what went wrong here. */
  readonly error?: string;
}

export interface UserMessage extends Envelope {
  readonly type: "user";
  readonly message: {
    readonly role: "user";
    readonly content: string | readonly ContentBlock[];
  };
  readonly parent_tool_use_id: string | null;
  readonly timestamp?: string;
  /** Structured tool output (`*Output` types of sdk-tools.d.ts), or an error string. */
  readonly tool_use_result?: Json;
  readonly subagent_type?: string;
  readonly task_description?: string;
  readonly isReplay?: boolean;
  readonly isSynthetic?: boolean;
}

export interface ResultMessage extends Envelope {
  readonly type: "result";
  readonly subtype: "success" | "error_during_execution" | "error_max_turns" | "error_max_budget_usd" | string;
  readonly is_error: boolean;
  readonly api_error_status?: number | null;
  readonly duration_ms?: number;
  readonly duration_api_ms?: number;
  readonly num_turns?: number;
  readonly result?: string;
  readonly stop_reason?: string | null;
  readonly total_cost_usd?: number;
  readonly usage?: Usage;
  readonly modelUsage?: {
    readonly [model: string]: {
      readonly inputTokens?: number;
      readonly outputTokens?: number;
      readonly cacheReadInputTokens?: number;
      readonly cacheCreationInputTokens?: number;
      readonly costUSD?: number;
      readonly contextWindow?: number;
      readonly maxOutputTokens?: number;
    };
  };
  readonly permission_denials?: readonly {
    readonly tool_name: string;
    readonly tool_use_id: string;
    readonly tool_input: JsonObject;
  }[];
  readonly terminal_reason?: string;
  readonly errors?: readonly string[];
  /** 2.1.332+: counts of the session's subagents (spawned, completed, failed, killed, refused, …). */
  readonly subagent_stats?: JsonObject;
}

/** Raw Anthropic SSE event, only with `--include-partial-messages`. */
export interface StreamEventMessage extends Envelope {
  readonly type: "stream_event";
  readonly event: StreamEvent;
  readonly parent_tool_use_id: string | null;
  readonly ttft_ms?: number;
}
export type StreamEvent =
  | { readonly type: "message_start"; readonly message: { readonly id: string; readonly model?: string; readonly usage?: Usage } }
  | { readonly type: "content_block_start"; readonly index: number; readonly content_block: ContentBlock }
  | { readonly type: "content_block_delta"; readonly index: number; readonly delta: StreamDelta }
  | { readonly type: "content_block_stop"; readonly index: number }
  | { readonly type: "message_delta"; readonly delta: { readonly stop_reason?: string | null }; readonly usage?: Usage }
  | { readonly type: "message_stop" };
export type StreamDelta =
  | { readonly type: "text_delta"; readonly text: string }
  | { readonly type: "thinking_delta"; readonly thinking: string }
  | { readonly type: "signature_delta"; readonly signature: string }
  | { readonly type: "input_json_delta"; readonly partial_json: string };

export interface TaskUsage {
  readonly total_tokens?: number;
  readonly tool_uses?: number;
  readonly duration_ms?: number;
}

export interface TaskStartedMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "task_started";
  readonly task_id: string;
  readonly tool_use_id?: string;
  readonly description?: string;
  readonly subagent_type?: string;
  /** `local_agent` for subagents, `local_bash` for a long Bash call. */
  readonly task_type?: string;
  readonly prompt?: string;
  /** 2.1.332+: one per run; a SendMessage continuation is a new run of the same task. */
  readonly run_id?: string;
  readonly is_backgrounded?: boolean;
  readonly spawn_depth?: number;
  /** The task of the agent that started this one (depth ≥ 2, or a subagent's own local_bash task). */
  readonly parent_task_id?: string;
  readonly owned_by_subagent?: boolean;
}
export interface TaskProgressMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "task_progress";
  readonly task_id: string;
  readonly tool_use_id?: string;
  readonly description?: string;
  readonly subagent_type?: string;
  readonly usage?: TaskUsage;
  readonly last_tool_name?: string;
  readonly summary?: string;
  readonly run_id?: string;
}
export interface TaskUpdatedMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "task_updated";
  readonly task_id: string;
  readonly patch: {
    readonly status?: string;
    readonly end_time?: number;
    /** 2.1.332+: why the agent died ("Agent terminated early due to an API error: …"). */
    readonly error?: string;
    readonly [key: string]: Json | undefined;
  };
  readonly run_id?: string;
}
export interface TaskNotificationMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "task_notification";
  readonly task_id: string;
  readonly tool_use_id?: string;
  /** `completed`, `failed`, `stopped`, … */
  readonly status: string;
  readonly output_file?: string;
  readonly summary?: string;
  readonly usage?: TaskUsage;
  readonly run_id?: string;
  /** 2.1.332+: `summary` is the agent's final report, not a label. */
  readonly summary_is_report?: boolean;
}

export interface ApiRetryMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "api_retry";
  readonly attempt: number;
  readonly max_retries: number;
  readonly retry_delay_ms: number;
  readonly error_status: number | null;
  readonly error: string;
}
export interface StatusMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "status";
  readonly status: string | null;
  readonly permissionMode?: PermissionMode;
  readonly compact_result?: string;
}
export interface CompactBoundaryMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "compact_boundary";
  readonly compact_metadata: {
    readonly trigger: string;
    readonly pre_tokens?: number;
    readonly post_tokens?: number;
    readonly duration_ms?: number;
    readonly [key: string]: Json | undefined;
  };
}
export interface HookStartedMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "hook_started";
  readonly hook_id: string;
  readonly hook_name: string;
  readonly hook_event: string;
}
export interface HookProgressMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "hook_progress";
  readonly hook_id: string;
  readonly hook_name: string;
  readonly hook_event: string;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly output?: string;
}
export interface HookResponseMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "hook_response";
  readonly hook_id: string;
  readonly hook_name: string;
  readonly hook_event: string;
  readonly output?: string;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly exit_code?: number;
  readonly outcome?: string;
}
export interface ThinkingTokensMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "thinking_tokens";
  readonly estimated_tokens: number;
  readonly estimated_tokens_delta?: number;
}
export interface SessionStateChangedMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "session_state_changed";
  /** `running`, `requires_action`, `idle`. */
  readonly state: string;
}
/** 2.1.332+: a tool call refused without a prompt (plan mode, auto mode, a classifier). */
export interface PermissionDeniedMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "permission_denied";
  readonly tool_name: string;
  readonly tool_use_id: string;
  /** The refused subagent's task id; absent for the main agent. */
  readonly agent_id?: string;
  readonly message?: string;
  readonly decision_reason_type?: string;
  readonly decision_reason_code?: string;
  readonly decision_reason?: string;
}
/** 2.1.332+: a notice for the person (e.g. why plan mode refuses every action). */
export interface InformationalMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "informational";
  readonly content: string;
  /** `info`, `warning`, `error`, … */
  readonly level?: string;
  readonly tag?: string;
  readonly isMeta?: boolean;
}
/** 2.1.332+: the session's title changed. */
export interface SessionTitleChangedMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "session_title_changed";
  readonly title: string;
}
/** One live background task of `system/background_tasks_changed`. */
export interface BackgroundTaskEntry {
  readonly task_id: string;
  readonly run_id?: string;
  /** `local_agent` (a subagent), `local_bash`, … */
  readonly task_type: string;
  readonly subagent_type?: string;
  readonly description: string;
  readonly parent_task_id?: string;
  /** Not activity (a watcher): hosts leave it out of "working". */
  readonly ambient?: boolean;
  /** A run a tool call waits for: part of the foreground turn. */
  readonly awaited?: boolean;
  readonly tool_use_id?: string;
}
/** 2.1.332+: the whole set of live background tasks, sent on every change ([] when none). Replaces the set. */
export interface BackgroundTasksChangedMessage extends Envelope {
  readonly type: "system";
  readonly subtype: "background_tasks_changed";
  readonly tasks: readonly BackgroundTaskEntry[];
}
/** 2.1.332+: a prompt sent with a uuid was queued, started or completed. */
export interface CommandLifecycleMessage extends Envelope {
  readonly type: "command_lifecycle";
  readonly command_uuid: string;
  readonly state: "queued" | "started" | "completed" | string;
}
/** 2.1.332+: progress of a running tool; for an Agent call, a subagent's API retry. */
export interface ToolProgressMessage extends Envelope {
  readonly type: "tool_progress";
  readonly tool_use_id: string;
  readonly tool_name?: string;
  readonly parent_tool_use_id?: string | null;
  readonly elapsed_time_seconds?: number;
  readonly subagent_type?: string;
  readonly subagent_retry?: {
    readonly agent_id?: string;
    readonly attempt?: number;
    readonly max_retries?: number;
    readonly retry_delay_ms?: number;
    readonly error_status?: number | null;
    readonly error_category?: string;
  };
}

/**
 * Subscription (OAuth) sessions only: the plan's usage, from the `anthropic-ratelimit-unified-*`
 * headers of each model response (docs/protocol-notes.md). API-key sessions get none.
 */
export interface RateLimitEventMessage extends Envelope {
  readonly type: "rate_limit_event";
  readonly rate_limit_info: RateLimitInfo;
}
/** Every field may be missing: a response without the headers yields only `status` and `isUsingOverage`. */
export interface RateLimitInfo {
  /** `allowed`, `allowed_warning`, `rejected`. */
  readonly status?: string;
  /** Epoch seconds. */
  readonly resetsAt?: number;
  /** The window that decides (`five_hour`, `seven_day`, …). */
  readonly rateLimitType?: string;
  readonly isUsingOverage?: boolean;
  /** 2.1.332+: each window's utilization (0..1) and reset (epoch seconds). */
  readonly unifiedWindows?: { readonly [window: string]: Json };
  readonly [key: string]: Json | undefined;
}

export interface PromptSuggestionMessage extends Envelope {
  readonly type: "prompt_suggestion";
  readonly suggestion: string;
}

export type SystemMessage =
  | SystemInitMessage
  | TaskStartedMessage
  | TaskProgressMessage
  | TaskUpdatedMessage
  | TaskNotificationMessage
  | ApiRetryMessage
  | StatusMessage
  | CompactBoundaryMessage
  | HookStartedMessage
  | HookProgressMessage
  | HookResponseMessage
  | ThinkingTokensMessage
  | SessionStateChangedMessage
  | PermissionDeniedMessage
  | InformationalMessage
  | SessionTitleChangedMessage
  | BackgroundTasksChangedMessage;

// ---- control protocol (both directions) -------------------------------------------------------

export type PermissionMode = "default" | "acceptEdits" | "bypassPermissions" | "plan" | "dontAsk" | "auto" | string;

export interface PermissionUpdate {
  readonly type: "addRules" | "replaceRules" | "removeRules" | "setMode" | "addDirectories" | "removeDirectories";
  readonly rules?: readonly { readonly toolName: string; readonly ruleContent?: string }[];
  readonly behavior?: "allow" | "deny" | "ask";
  readonly mode?: PermissionMode;
  readonly directories?: readonly string[];
  readonly destination: "userSettings" | "projectSettings" | "localSettings" | "session" | "cliArg";
}

export interface CanUseToolRequest {
  readonly subtype: "can_use_tool";
  readonly tool_name: string;
  readonly display_name?: string;
  readonly input: JsonObject;
  readonly tool_use_id: string;
  /** The subagent (task_id) that asked; absent for the main agent. */
  readonly agent_id?: string;
  readonly description?: string;
  readonly permission_suggestions?: readonly PermissionUpdate[];
  readonly blocked_path?: string;
  readonly decision_reason?: string;
  /** 2.1.332+: only a person can answer (ExitPlanMode, AskUserQuestion): no policy may decide it. */
  readonly requires_user_interaction?: boolean;
}
export interface HookCallbackRequest {
  readonly subtype: "hook_callback";
  readonly callback_id: string;
  readonly input: JsonObject & { readonly hook_event_name?: string; readonly agent_id?: string };
  readonly tool_use_id?: string;
}
export interface McpMessageRequest {
  readonly subtype: "mcp_message";
  readonly server_name: string;
  readonly message: Json;
}
/** A request the CLI sends to the client. */
export type IncomingControlRequest = CanUseToolRequest | HookCallbackRequest | McpMessageRequest;

export interface ControlRequestMessage {
  readonly type: "control_request";
  readonly request_id: string;
  readonly request: IncomingControlRequest;
}

export type ControlResponsePayload =
  | { readonly subtype: "success"; readonly request_id: string; readonly response?: JsonObject }
  | { readonly subtype: "error"; readonly request_id: string; readonly error: string };

export interface ControlResponseMessage {
  readonly type: "control_response";
  readonly response: ControlResponsePayload;
}
export interface ControlCancelRequestMessage {
  readonly type: "control_cancel_request";
  readonly request_id: string;
}
export interface KeepAliveMessage {
  readonly type: "keep_alive";
}

/** Every stdout line Baton knows, plus `unknown` for forward compatibility. */
export type ProtocolMessage =
  | SystemMessage
  | AssistantMessage
  | UserMessage
  | ResultMessage
  | StreamEventMessage
  | PromptSuggestionMessage
  | RateLimitEventMessage
  | CommandLifecycleMessage
  | ToolProgressMessage
  | ControlRequestMessage
  | ControlResponseMessage
  | ControlCancelRequestMessage
  | KeepAliveMessage
  | UnknownMessage;

/** A JSON line of a type or subtype this version of Baton does not know. Logged, never fatal. */
export interface UnknownMessage {
  readonly type: "unknown";
  /** The line's own `type` (and `subtype`), for the log. */
  readonly originalType: string;
  readonly originalSubtype?: string;
  readonly raw: Json;
}

// ---- stdin: client → CLI ----------------------------------------------------------------------

export interface OutgoingUserMessage {
  readonly type: "user";
  readonly message: { readonly role: "user"; readonly content: string | readonly (TextBlock | ImageBlock)[] };
  readonly parent_tool_use_id: null;
  readonly session_id: string;
  readonly uuid?: string;
}

export interface AgentDefinition {
  readonly description: string;
  readonly prompt: string;
  readonly tools?: readonly string[];
  readonly disallowedTools?: readonly string[];
  readonly model?: string;
}

export interface HookMatcher {
  readonly matcher?: string;
  readonly hookCallbackIds: readonly string[];
  readonly timeout?: number;
}

export interface InitializeRequest {
  readonly subtype: "initialize";
  readonly hooks?: { readonly [event: string]: readonly HookMatcher[] };
  readonly agents?: { readonly [name: string]: AgentDefinition };
  readonly appendSystemPrompt?: string;
  readonly title?: string;
  readonly forwardSubagentText?: boolean;
  readonly agentProgressSummaries?: boolean;
  readonly promptSuggestions?: boolean;
  /** Names of MCP servers the client runs in its own process; the CLI relays their traffic as `mcp_message`. */
  readonly sdkMcpServers?: readonly string[];
  /** 2.1.326+ (older CLIs ignore it): per-server settings of those servers, by name. */
  readonly sdkMcpServerConfigs?: { readonly [name: string]: SdkMcpServerConfig };
}
export interface SdkMcpServerConfig {
  /** Tool-call timeout in ms (default: MCP_TOOL_TIMEOUT, effectively unbounded). */
  readonly timeout?: number;
  /** Never move a long call to the background (2.1.332 would, after 120 s, where auto-backgrounding is on). */
  readonly disableAutoBackground?: boolean;
}
export type OutgoingControlRequest =
  | InitializeRequest
  | { readonly subtype: "interrupt" }
  | { readonly subtype: "set_permission_mode"; readonly mode: PermissionMode }
  | { readonly subtype: "set_model"; readonly model?: string }
  | { readonly subtype: "rewind_files"; readonly user_message_id: string; readonly dry_run: boolean };

export interface OutgoingControlRequestMessage {
  readonly type: "control_request";
  readonly request_id: string;
  readonly request: OutgoingControlRequest;
}

/**
 * The answer to `can_use_tool`. `allow` must echo the (possibly rewritten) input: without it the
 * CLI fails the call (a ZodError, counted as a denial).
 */
export type PermissionResult =
  | {
      readonly behavior: "allow";
      readonly updatedInput: JsonObject;
      readonly updatedPermissions?: readonly PermissionUpdate[];
    }
  | { readonly behavior: "deny"; readonly message: string; readonly interrupt?: boolean };

export type ClientLine = OutgoingUserMessage | OutgoingControlRequestMessage | ControlResponseMessage | KeepAliveMessage;

// Maps one parsed stdout message to the hub's event vocabulary (src/shared/events.ts). Pure and
// per-line: correlating events (task ↔ subagent, request ↔ answer) is the reducer's job.
//
// The parser checks only the fields a message cannot do without. Every other field is read
// through a typed guard (jsonFields.ts): a field of the wrong type, from another CLI version or a
// damaged line, counts as absent, so the rest of the line still arrives and nothing downstream
// meets a number where it expects text.

import type { BackgroundTask, ClientEvent, ToolResultEvent, UserPromptEvent } from "../events.js";
import type { PlanLimits, PlanWindow, SubagentStats } from "../transcript.js";
import { arr, isObject, num, obj, str } from "../jsonFields.js";
import type {
  AssistantMessage,
  ControlRequestMessage,
  PermissionDeniedMessage,
  ToolProgressMessage,
  HookProgressMessage,
  HookResponseMessage,
  HookStartedMessage,
  Json,
  JsonObject,
  PermissionUpdate,
  ProtocolMessage,
  ResultMessage,
  SystemInitMessage,
  SystemMessage,
  TaskNotificationMessage,
  TaskProgressMessage,
  TaskStartedMessage,
  TaskUpdatedMessage,
  TaskUsage,
  ToolResultBlock,
  UnknownMessage,
  Usage,
  UserMessage,
} from "./messages.js";

const INTERRUPT_PREFIX = "[Request interrupted by user";
const SYNTHETIC_MODEL = "<synthetic>";
const EXCERPT_CHARS = 200;

/** `lineNumber` only labels `protocol_problem` events (0 when unknown). */
export function toClientEvents(message: ProtocolMessage, lineNumber = 0): ClientEvent[] {
  switch (message.type) {
    case "system":
      return systemEvents(message);
    case "assistant":
      return assistantEvents(message);
    case "user":
      return userEvents(message);
    case "result":
      return [turnResult(message)];
    case "stream_event":
      return [{ kind: "stream_delta", parentToolUseId: message.parent_tool_use_id, event: message.event }];
    case "prompt_suggestion":
      return [{ kind: "prompt_suggestion", suggestion: message.suggestion }];
    case "rate_limit_event":
      return [{ kind: "rate_limit", limits: planLimitsOf(fields(message.rate_limit_info)) }];
    case "command_lifecycle":
      return [{ kind: "command_lifecycle", commandUuid: message.command_uuid, state: message.state }];
    case "tool_progress":
      return toolProgressEvents(message);
    case "control_request":
      return controlRequestEvents(message);
    case "control_cancel_request":
      return [{ kind: "permission_cancelled", requestId: message.request_id }];
    case "control_response":
    case "keep_alive":
      return [];
    case "unknown":
      return [unknownProblem(message, lineNumber)];
  }
}

function systemEvents(message: SystemMessage): ClientEvent[] {
  switch (message.subtype) {
    case "init":
      return [sessionInit(message)];
    case "task_started":
    case "task_progress":
    case "task_updated":
    case "task_notification":
      return [taskEvent(message)];
    case "hook_started":
    case "hook_progress":
    case "hook_response":
      return [hookEvent(message)];
    case "api_retry":
      return [
        {
          kind: "api_retry",
          attempt: message.attempt,
          maxRetries: message.max_retries,
          retryDelayMs: message.retry_delay_ms,
          errorStatus: message.error_status,
          error: message.error,
        },
      ];
    case "status":
      return [{ kind: "status", status: message.status, permissionMode: str(fields(message), "permissionMode") }];
    case "compact_boundary": {
      const meta = fields(message.compact_metadata);
      const trigger = message.compact_metadata.trigger;
      return [{ kind: "compact_boundary", trigger, preTokens: num(meta, "pre_tokens"), postTokens: num(meta, "post_tokens") }];
    }
    case "permission_denied":
      return [permissionDenied(message)];
    case "informational":
      return [{ kind: "notice", level: noticeLevel(str(fields(message), "level")), text: message.content }];
    case "session_title_changed":
      return [{ kind: "title", title: message.title, source: "custom" }];
    case "background_tasks_changed":
      return [{ kind: "background_tasks", tasks: backgroundTasksOf(message.tasks) }];
    case "thinking_tokens":
    case "session_state_changed":
      return [];
  }
}

/** The entries that name a task; one without a string task_id is left out, not the whole set. */
function backgroundTasksOf(tasks: readonly unknown[]): BackgroundTask[] {
  const out: BackgroundTask[] = [];
  for (const entry of tasks as readonly Json[]) {
    if (!isObject(entry)) continue;
    const taskId = str(entry, "task_id");
    if (taskId === undefined) continue;
    const subagentType = str(entry, "subagent_type");
    out.push({
      taskId,
      taskType: str(entry, "task_type") ?? "",
      description: str(entry, "description") ?? "",
      ...(subagentType === undefined ? {} : { subagentType }),
      ...(entry["ambient"] === true ? { ambient: true } : {}),
      ...(entry["awaited"] === true ? { awaited: true } : {}),
    });
  }
  return out;
}

function noticeLevel(level: string | undefined): "info" | "warning" | "error" {
  return level === "warning" || level === "error" ? level : "info";
}

function permissionDenied(message: PermissionDeniedMessage): ClientEvent {
  const f = fields(message);
  const reasonType = str(f, "decision_reason_type");
  return {
    kind: "permission_denied",
    toolName: message.tool_name,
    toolUseId: message.tool_use_id,
    agentId: str(f, "agent_id"),
    reason: str(f, "message") ?? str(f, "decision_reason") ?? "Refused by Claude Code without asking.",
    ...(reasonType === undefined ? {} : { reasonType }),
  };
}

/** A tool's progress moves nothing Baton shows, except a subagent's API retry (on the Agent call's card). */
function toolProgressEvents(message: ToolProgressMessage): ClientEvent[] {
  const f = fields(message);
  const retry = obj(f, "subagent_retry");
  const agentCall = str(f, "parent_tool_use_id");
  const attempt = num(retry, "attempt");
  if (retry === undefined || agentCall === undefined || attempt === undefined) return [];
  const status = num(retry, "error_status");
  const reason = str(retry, "error_category") ?? (status === undefined ? undefined : String(status));
  return [{ kind: "subagent_retry", agentToolUseId: agentCall, attempt, maxRetries: num(retry, "max_retries"), reason }];
}

function sessionInit(message: SystemInitMessage): ClientEvent {
  return {
    kind: "session_init",
    sessionId: message.session_id,
    cwd: message.cwd,
    model: message.model,
    permissionMode: message.permissionMode,
    tools: strings(message.tools),
    slashCommands: strings(message.slash_commands),
    agents: strings(arr(fields(message), "agents")),
    cliVersion: str(fields(message), "claude_code_version"),
  };
}

type TaskMessage = TaskStartedMessage | TaskProgressMessage | TaskUpdatedMessage | TaskNotificationMessage;

function taskEvent(message: TaskMessage): ClientEvent {
  const taskId = message.task_id;
  const f = fields(message);
  switch (message.subtype) {
    case "task_started":
      return {
        kind: "task_started",
        taskId,
        toolUseId: str(f, "tool_use_id"),
        description: str(f, "description"),
        subagentType: str(f, "subagent_type"),
        taskType: str(f, "task_type"),
        prompt: str(f, "prompt"),
        runId: str(f, "run_id"),
        spawnDepth: num(f, "spawn_depth"),
        parentTaskId: str(f, "parent_task_id"),
      };
    case "task_progress":
      return {
        kind: "task_progress",
        taskId,
        toolUseId: str(f, "tool_use_id"),
        description: str(f, "description"),
        lastToolName: str(f, "last_tool_name"),
        usage: taskUsageOf(f["usage"]),
        summary: str(f, "summary"),
        runId: str(f, "run_id"),
      };
    case "task_updated": {
      const patch = fields(message.patch);
      return {
        kind: "task_updated",
        taskId,
        status: str(patch, "status"),
        endTime: num(patch, "end_time"),
        error: str(patch, "error"),
        runId: str(f, "run_id"),
      };
    }
    case "task_notification":
      return {
        kind: "task_notification",
        taskId,
        toolUseId: str(f, "tool_use_id"),
        status: message.status,
        summary: str(f, "summary"),
        outputFile: str(f, "output_file"),
        usage: taskUsageOf(f["usage"]),
        runId: str(f, "run_id"),
        summaryIsReport: f["summary_is_report"] === true ? true : undefined,
      };
  }
}

function hookEvent(message: HookStartedMessage | HookProgressMessage | HookResponseMessage): ClientEvent {
  const base = { kind: "hook", hookName: message.hook_name, hookEvent: message.hook_event } as const;
  const f = fields(message);
  switch (message.subtype) {
    case "hook_started":
      return { ...base, phase: "started" };
    case "hook_progress":
      return { ...base, phase: "progress", output: str(f, "output") ?? str(f, "stdout") };
    case "hook_response":
      return { ...base, phase: "response", output: str(f, "output"), exitCode: num(f, "exit_code"), outcome: str(f, "outcome") };
  }
}

function assistantEvents(message: AssistantMessage): ClientEvent[] {
  const inner = message.message;
  const uuid = str(fields(message), "uuid");
  const apiError = str(fields(message), "error") ?? (inner.model === SYNTHETIC_MODEL ? "synthetic" : undefined);
  const usage = usageOf(fields(inner)["usage"]);
  return inner.content.map((block) => ({
    kind: "assistant_block",
    uuid,
    messageId: inner.id,
    parentToolUseId: message.parent_tool_use_id,
    block,
    model: inner.model,
    apiError,
    usage,
  }));
}

function userEvents(message: UserMessage): ClientEvent[] {
  const content = message.message.content;
  if (typeof content === "string") return textEvents(message, content, undefined);
  const events: ClientEvent[] = [];
  const texts: string[] = [];
  const images: { mediaType: string; data: string }[] = [];
  const toolResults = content.reduce((n, block) => (block.type === "tool_result" ? n + 1 : n), 0);
  for (const block of content) {
    if (block.type === "tool_result") events.push(toolResult(message, block, toolResults === 1));
    else if (block.type === "text") texts.push(block.text);
    else if (block.type === "image") {
      const source = obj(fields(block), "source");
      const mediaType = str(source, "media_type");
      const data = str(source, "data");
      if (source?.["type"] === "base64" && mediaType !== undefined && data !== undefined) images.push({ mediaType, data });
    }
  }
  if (texts.length > 0 || images.length > 0) events.push(...textEvents(message, texts.join("\n"), images));
  return events;
}

/** A user line's text: an interrupt marker, or a prompt (replayed, synthetic or a subagent's). */
function textEvents(message: UserMessage, text: string, images: UserPromptEvent["images"]): ClientEvent[] {
  if (text.startsWith(INTERRUPT_PREFIX)) {
    return [{ kind: "interrupt_marker", parentToolUseId: message.parent_tool_use_id, text }];
  }
  const prompt: UserPromptEvent = {
    kind: "user_prompt",
    uuid: str(fields(message), "uuid"),
    parentToolUseId: message.parent_tool_use_id,
    text,
    timestamp: str(fields(message), "timestamp"),
    ...(images !== undefined && images.length > 0 ? { images } : {}),
    // A synthetic line is the CLI's own (the compaction summary), not something the person typed.
    ...(message.isSynthetic === true ? { isMeta: true } : {}),
  };
  return [prompt];
}

function toolResult(message: UserMessage, block: ToolResultBlock, carriesStructured: boolean): ToolResultEvent {
  const content = resultContent(block.content);
  return {
    kind: "tool_result",
    uuid: str(fields(message), "uuid"),
    parentToolUseId: message.parent_tool_use_id,
    toolUseId: block.tool_use_id,
    text: toolResultText(content),
    isError: block.is_error === true,
    // `tool_use_result` belongs to the line; with several results it cannot be attributed.
    ...(carriesStructured && message.tool_use_result !== undefined ? { structured: message.tool_use_result } : {}),
    content,
    timestamp: str(fields(message), "timestamp"),
  };
}

/** A string, or a list with its non-object items left out; anything else counts as no content. */
function resultContent(content: unknown): ToolResultBlock["content"] {
  if (typeof content === "string" || content === undefined) return content;
  if (!Array.isArray(content)) return undefined;
  return content.every(isObject) ? (content as ToolResultBlock["content"]) : (content.filter(isObject) as ToolResultBlock["content"]);
}

function toolResultText(content: ToolResultBlock["content"]): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  const parts: string[] = [];
  for (const part of content) {
    if (part.type === "text" && typeof part.text === "string") parts.push(part.text);
  }
  return parts.join("\n");
}

function turnResult(message: ResultMessage): ClientEvent {
  const f = fields(message);
  const errors = arr(f, "errors");
  const denials = arr(f, "permission_denials");
  return {
    kind: "turn_result",
    subtype: message.subtype,
    isError: message.is_error,
    result: str(f, "result"),
    usage: usageOf(f["usage"]),
    costUsd: num(f, "total_cost_usd"),
    durationMs: num(f, "duration_ms"),
    numTurns: num(f, "num_turns"),
    errors: errors === undefined ? undefined : strings(errors),
    contextWindow: contextWindowOf(obj(f, "modelUsage")),
    processInputTokens: inputTokensOf(obj(f, "modelUsage")),
    sinceLastInputTokens: inputTokensOf(obj(f, "model_usage_since_last_result")),
    sinceLastCostUsd: costOf(obj(f, "model_usage_since_last_result")),
    permissionDenials: denials?.filter(isObject).map((d) => ({ toolName: str(d, "tool_name") ?? "", toolUseId: str(d, "tool_use_id") ?? "" })),
    subagentStats: subagentStatsOf(obj(f, "subagent_stats")),
  };
}

/** The figures of `subagent_stats` a person reads; groups (killed, refused) summed. */
function subagentStatsOf(stats: JsonObject | undefined): SubagentStats | undefined {
  if (stats === undefined) return undefined;
  const out: Record<string, number> = {};
  const put = (key: keyof SubagentStats, value: number | undefined): void => {
    if (value !== undefined) out[key] = value;
  };
  put("spawned", num(stats, "spawned"));
  put("startedInBackground", num(stats, "started_in_background"));
  put("completed", num(stats, "completed"));
  put("failed", num(stats, "failed"));
  put("killed", sumOf(obj(stats, "killed")));
  put("refused", sumOf(obj(stats, "refused")));
  put("maxDepth", num(stats, "max_depth"));
  return out as SubagentStats;
}

function sumOf(group: JsonObject | undefined): number | undefined {
  if (group === undefined) return undefined;
  let total = 0;
  for (const value of Object.values(group)) if (typeof value === "number" && Number.isFinite(value)) total += value;
  return total;
}

/** The fields of a `rate_limit_info` Baton shows, each only when it has the right type; nothing else is kept. */
function planLimitsOf(info: JsonObject): Omit<PlanLimits, "receivedAt"> {
  const out: { -readonly [K in keyof PlanLimits]?: PlanLimits[K] } = {};
  const status = str(info, "status");
  const rateLimitType = str(info, "rateLimitType");
  const resetsAt = num(info, "resetsAt");
  const windows = obj(info, "unifiedWindows");
  const fiveHour = planWindowOf(obj(windows, "five_hour"));
  const sevenDay = planWindowOf(obj(windows, "seven_day"));
  if (status !== undefined) out.status = status;
  if (rateLimitType !== undefined) out.rateLimitType = rateLimitType;
  if (resetsAt !== undefined) out.resetsAt = resetsAt;
  if (typeof info["isUsingOverage"] === "boolean") out.isUsingOverage = info["isUsingOverage"];
  if (fiveHour !== undefined) out.fiveHour = fiveHour;
  if (sevenDay !== undefined) out.sevenDay = sevenDay;
  return out;
}

/**
 * A window with its utilization (never below 0; above 1 when use ran past the cap, as the CLI
 * documents), its reset and its own status when the CLI names one; undefined without a utilization.
 */
function planWindowOf(window: JsonObject | undefined): PlanWindow | undefined {
  const utilization = num(window, "utilization");
  if (utilization === undefined) return undefined;
  const resetsAt = num(window, "resetsAt");
  const status = str(window, "status");
  return {
    utilization: Math.max(0, utilization),
    ...(resetsAt === undefined ? {} : { resetsAt }),
    ...(status === undefined ? {} : { status }),
  };
}

/** Input, cache read and cache creation tokens over the models used; undefined without `modelUsage`. */
function inputTokensOf(modelUsage: JsonObject | undefined): number | undefined {
  if (modelUsage === undefined) return undefined;
  let total = 0;
  for (const usage of Object.values(modelUsage)) {
    const u = isObject(usage) ? usage : undefined;
    total += (num(u, "inputTokens") ?? 0) + (num(u, "cacheReadInputTokens") ?? 0) + (num(u, "cacheCreationInputTokens") ?? 0);
  }
  return total;
}

/** The cost of the models' calls a `modelUsage`-shaped record sums; undefined when none says one. */
function costOf(modelUsage: JsonObject | undefined): number | undefined {
  let total: number | undefined;
  for (const usage of Object.values(modelUsage ?? {})) {
    const cost = num(isObject(usage) ? usage : undefined, "costUSD");
    if (cost !== undefined) total = (total ?? 0) + cost;
  }
  return total;
}

/** The largest window among the models used: the main model's (subagents may use smaller ones). */
function contextWindowOf(modelUsage: JsonObject | undefined): number | undefined {
  let best: number | undefined;
  for (const usage of Object.values(modelUsage ?? {})) {
    const window = num(isObject(usage) ? usage : undefined, "contextWindow");
    if (window !== undefined && (best === undefined || window > best)) best = window;
  }
  return best;
}

function controlRequestEvents(message: ControlRequestMessage): ClientEvent[] {
  const request = message.request;
  if (request.subtype !== "can_use_tool") return [];
  const f = fields(request);
  return [
    {
      kind: "permission_request",
      requestId: message.request_id,
      toolName: request.tool_name,
      toolUseId: request.tool_use_id,
      agentId: str(f, "agent_id"),
      input: request.input,
      description: str(f, "description"),
      suggestions: arr(f, "permission_suggestions")?.filter(isObject) as PermissionUpdate[] | undefined,
      blockedPath: str(f, "blocked_path"),
      requiresUserInteraction: f["requires_user_interaction"] === true ? true : undefined,
    },
  ];
}

function unknownProblem(message: UnknownMessage, lineNumber: number): ClientEvent {
  const name = message.originalSubtype === undefined ? message.originalType : `${message.originalType}/${message.originalSubtype}`;
  return { kind: "protocol_problem", lineNumber, reason: `unknown message type ${name}`, excerpt: excerptOf(message.raw) };
}

function excerptOf(raw: Json): string {
  const text = JSON.stringify(raw);
  return text.length <= EXCERPT_CHARS ? text : `${text.slice(0, EXCERPT_CHARS)}…`;
}

/** A message (or part of one) as the plain JSON it was parsed from, for the guarded reads. */
function fields(value: object): JsonObject {
  return value as JsonObject;
}

function strings(list: readonly unknown[] | undefined): string[] {
  return list === undefined ? [] : (list.filter((item) => typeof item === "string") as string[]);
}

const UsageCounts = ["input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"] as const;
const TaskUsageCounts = ["total_tokens", "tool_uses", "duration_ms"] as const;

/** The usage object, or a copy without its token counts that are not numbers; undefined if not an object. */
function usageOf(value: Json | undefined): Usage | undefined {
  return withNumbers(value, UsageCounts);
}

function taskUsageOf(value: Json | undefined): TaskUsage | undefined {
  return withNumbers(value, TaskUsageCounts);
}

/** `value` if it is an object whose `keys` are numbers or absent (no copy: this runs on most lines), else a copy without the others. */
function withNumbers<T>(value: Json | undefined, keys: readonly string[]): T | undefined {
  if (!isObject(value)) return undefined;
  let clean = true;
  for (const key of keys) if (value[key] !== undefined && num(value, key) === undefined) clean = false;
  if (clean) return value as T;
  const copy: Record<string, Json> = { ...value };
  for (const key of keys) if (num(value, key) === undefined) delete copy[key];
  return copy as T;
}

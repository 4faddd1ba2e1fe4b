// Maps one parsed stdout message to the hub's event vocabulary (src/shared/events.ts). Pure and
// per-line: correlating events (task ↔ subagent, request ↔ answer) is the reducer's job.

import type { ClientEvent, ToolResultEvent, UserPromptEvent } from "../events.js";
import type {
  AssistantMessage,
  ControlRequestMessage,
  HookProgressMessage,
  HookResponseMessage,
  HookStartedMessage,
  Json,
  ProtocolMessage,
  ResultMessage,
  SystemInitMessage,
  SystemMessage,
  TaskNotificationMessage,
  TaskProgressMessage,
  TaskStartedMessage,
  TaskUpdatedMessage,
  ToolResultBlock,
  UnknownMessage,
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
      return [{ kind: "status", status: message.status, permissionMode: message.permissionMode }];
    case "compact_boundary": {
      const meta = message.compact_metadata;
      return [{ kind: "compact_boundary", trigger: meta.trigger, preTokens: meta.pre_tokens, postTokens: meta.post_tokens }];
    }
    case "thinking_tokens":
    case "session_state_changed":
      return [];
  }
}

function sessionInit(message: SystemInitMessage): ClientEvent {
  return {
    kind: "session_init",
    sessionId: message.session_id,
    cwd: message.cwd,
    model: message.model,
    permissionMode: message.permissionMode,
    tools: message.tools,
    slashCommands: message.slash_commands,
    agents: message.agents ?? [],
    cliVersion: message.claude_code_version,
  };
}

type TaskMessage = TaskStartedMessage | TaskProgressMessage | TaskUpdatedMessage | TaskNotificationMessage;

function taskEvent(message: TaskMessage): ClientEvent {
  const taskId = message.task_id;
  switch (message.subtype) {
    case "task_started":
      return {
        kind: "task_started",
        taskId,
        toolUseId: message.tool_use_id,
        description: message.description,
        subagentType: message.subagent_type,
        taskType: message.task_type,
        prompt: message.prompt,
      };
    case "task_progress":
      return {
        kind: "task_progress",
        taskId,
        toolUseId: message.tool_use_id,
        description: message.description,
        lastToolName: message.last_tool_name,
        usage: message.usage,
        summary: message.summary,
      };
    case "task_updated":
      return { kind: "task_updated", taskId, status: message.patch.status, endTime: message.patch.end_time };
    case "task_notification":
      return {
        kind: "task_notification",
        taskId,
        toolUseId: message.tool_use_id,
        status: message.status,
        summary: message.summary,
        outputFile: message.output_file,
        usage: message.usage,
      };
  }
}

function hookEvent(message: HookStartedMessage | HookProgressMessage | HookResponseMessage): ClientEvent {
  const base = { kind: "hook", hookName: message.hook_name, hookEvent: message.hook_event } as const;
  switch (message.subtype) {
    case "hook_started":
      return { ...base, phase: "started" };
    case "hook_progress":
      return { ...base, phase: "progress", output: message.output ?? message.stdout };
    case "hook_response":
      return { ...base, phase: "response", output: message.output, exitCode: message.exit_code, outcome: message.outcome };
  }
}

function assistantEvents(message: AssistantMessage): ClientEvent[] {
  const inner = message.message;
  const apiError = message.error ?? (inner.model === SYNTHETIC_MODEL ? "synthetic" : undefined);
  return inner.content.map((block) => ({
    kind: "assistant_block",
    uuid: message.uuid,
    messageId: inner.id,
    parentToolUseId: message.parent_tool_use_id,
    block,
    model: inner.model,
    apiError,
    usage: inner.usage,
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
    else if (block.type === "image" && block.source.type === "base64") {
      images.push({ mediaType: block.source.media_type, data: block.source.data });
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
    uuid: message.uuid,
    parentToolUseId: message.parent_tool_use_id,
    text,
    timestamp: message.timestamp,
    ...(images !== undefined && images.length > 0 ? { images } : {}),
    // A synthetic line is the CLI's own (the compaction summary), not something the person typed.
    ...(message.isSynthetic === true ? { isMeta: true } : {}),
  };
  return [prompt];
}

function toolResult(message: UserMessage, block: ToolResultBlock, carriesStructured: boolean): ToolResultEvent {
  return {
    kind: "tool_result",
    uuid: message.uuid,
    parentToolUseId: message.parent_tool_use_id,
    toolUseId: block.tool_use_id,
    text: toolResultText(block.content),
    isError: block.is_error === true,
    // `tool_use_result` belongs to the line; with several results it cannot be attributed.
    ...(carriesStructured && message.tool_use_result !== undefined ? { structured: message.tool_use_result } : {}),
    content: block.content,
    timestamp: message.timestamp,
  };
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
  return {
    kind: "turn_result",
    subtype: message.subtype,
    isError: message.is_error,
    result: message.result,
    usage: message.usage,
    costUsd: message.total_cost_usd,
    durationMs: message.duration_ms,
    numTurns: message.num_turns,
    errors: message.errors,
    contextWindow: contextWindowOf(message),
    permissionDenials: message.permission_denials?.map((d) => ({ toolName: d.tool_name, toolUseId: d.tool_use_id })),
  };
}

/** The largest window among the models used: the main model's (subagents may use smaller ones). */
function contextWindowOf(message: ResultMessage): number | undefined {
  let best: number | undefined;
  for (const usage of Object.values(message.modelUsage ?? {})) {
    const window = usage.contextWindow;
    if (typeof window === "number" && (best === undefined || window > best)) best = window;
  }
  return best;
}

function controlRequestEvents(message: ControlRequestMessage): ClientEvent[] {
  const request = message.request;
  if (request.subtype !== "can_use_tool") return [];
  return [
    {
      kind: "permission_request",
      requestId: message.request_id,
      toolName: request.tool_name,
      toolUseId: request.tool_use_id,
      agentId: request.agent_id,
      input: request.input,
      description: request.description,
      suggestions: request.permission_suggestions,
      blockedPath: request.blocked_path,
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

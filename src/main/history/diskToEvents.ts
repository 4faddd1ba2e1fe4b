// One transcript line from disk → the ClientEvents the live stream would have produced for it (the
// disk has more: final usage, every subagent's own lines). Stateless: routing (which subagent a
// line belongs to), the session's init and title priority are decided by `DiskMapper`, which calls
// this.

import type {
  AssistantBlockEvent,
  ClientEvent,
  PermissionDeniedEvent,
  ToolResultEvent,
  UserPromptEvent,
} from "../../shared/events.js";
import type { ContentBlock, Json, JsonObject, ToolResultBlock, Usage } from "../../shared/protocol/messages.js";
import { boundJsonDepth, MaxJsonDepth } from "../../shared/boundedJson.js";
import { arr, bool, isObject, num, obj, str, textOf } from "../../shared/jsonFields.js";
import { parseCommandEcho } from "../../shared/commandEcho.js";
import { HeavyLineTypes } from "./heavyLines.js";
import { isTaskNotificationText, parseTaskNotification } from "./taskNotification.js";

const InterruptPrefix = "[Request interrupted by user";

/** Line types that are bookkeeping, not conversation; listed so the intent is visible. */
const IgnoredTypes = new Set([
  "summary",
  "queue-operation",
  "last-prompt",
  "mode",
  "permission-mode",
  "file-history-snapshot",
  "file-history-delta",
  "progress",
  "agent-name",
  "tag",
  // CLI 2.1.332's request records and bookkeeping; normally passed over unparsed (heavyLines.ts).
  ...HeavyLineTypes,
]);

/**
 * `system` subtypes that are known and deliberately not shown: timing, hook summaries, the CLI's
 * own recaps, and stream-only messages should one reach a file. Any subtype neither shown nor
 * listed here is counted per subtype (DiskMapper.unknownSystemSubtypes), never dropped silently.
 */
const IgnoredSystemSubtypes = new Set([
  "stop_hook_summary",
  "turn_duration",
  "away_summary",
  "session_start",
  "init",
  "status",
  "api_retry",
  "hook_started",
  "hook_progress",
  "hook_response",
  "task_started",
  "task_progress",
  "task_updated",
  "task_notification",
  "thinking_tokens",
  "session_state_changed",
]);

/** Subtypes this file turns into events. */
const ShownSystemSubtypes = new Set(["compact_boundary", "microcompact_boundary", "api_error", "local_command", "informational"]);

export function isIgnoredLineType(type: string | undefined): boolean {
  return type === undefined || IgnoredTypes.has(type);
}

export function diskLineToEvents(line: JsonObject, parentToolUseId: string | null): ClientEvent[] {
  return mapDiskLine(line, parentToolUseId).events;
}

/** Line types that become events; only these are bounded (the others are big and unused). */
const MappedTypes = new Set(["user", "assistant", "system", "attachment"]);

/**
 * The events of one line, and how many of its values were nested too deeply to keep
 * (boundedJson.ts): those are cut to a marked stand-in, and a notice after the line's blocks
 * says so, so no value deeper than `MaxJsonDepth` reaches the hub, the index or the window.
 */
export function mapDiskLine(
  line: JsonObject,
  parentToolUseId: string | null,
): { readonly events: ClientEvent[]; readonly tooDeep: number; readonly unknownSystem?: string } {
  const type = str(line, "type") ?? "";
  if (!MappedTypes.has(type)) return { events: [], tooDeep: 0 };
  const unknown = type === "system" ? unknownSystemSubtype(line) : undefined;
  if (unknown !== undefined) return { events: [], tooDeep: 0, unknownSystem: unknown };
  const bounded = boundJsonDepth(line);
  const events = lineEvents(bounded.value, parentToolUseId);
  if (bounded.cut === 0 || events.length === 0) return { events, tooDeep: 0 };
  // A subagent's line shows its stand-in in its card; a notice would land in the main transcript.
  if (parentToolUseId === null) events.push(tooDeepNotice(bounded.cut));
  return { events, tooDeep: bounded.cut };
}

/** The subtype of a `system` line Baton neither shows nor deliberately ignores, else undefined. */
function unknownSystemSubtype(line: JsonObject): string | undefined {
  const subtype = line["subtype"];
  if (subtype === undefined) return undefined;
  const name = typeof subtype === "string" ? subtype : `(${subtype === null ? "null" : typeof subtype})`;
  return ShownSystemSubtypes.has(name) || IgnoredSystemSubtypes.has(name) ? undefined : name;
}

function tooDeepNotice(cut: number): ClientEvent {
  const what = cut === 1 ? "a value" : `${cut} values`;
  return {
    kind: "notice",
    level: "warning",
    text: `This message held ${what} nested more than ${MaxJsonDepth} levels deep; ${cut === 1 ? "it is" : "they are"} shown cut short, marked "nested too deep to show".`,
  };
}

function lineEvents(line: JsonObject, parentToolUseId: string | null): ClientEvent[] {
  switch (str(line, "type")) {
    case "user":
      return userLineToEvents(line, parentToolUseId);
    case "assistant":
      return assistantLineToEvents(line, parentToolUseId);
    case "system":
      return systemLineToEvents(line);
    case "attachment":
      return attachmentToEvents(line, parentToolUseId);
    default:
      return [];
  }
}

function envelope(line: JsonObject): { uuid?: string; timestamp?: string } {
  const uuid = str(line, "uuid");
  const timestamp = str(line, "timestamp");
  if (uuid === undefined) return timestamp === undefined ? {} : { timestamp };
  return timestamp === undefined ? { uuid } : { uuid, timestamp };
}

function userLineToEvents(line: JsonObject, parentToolUseId: string | null): ClientEvent[] {
  const content = obj(line, "message")?.["content"];
  if (typeof content === "string") return promptTextToEvents(line, content, [], parentToolUseId);
  if (!Array.isArray(content)) return [];
  const blocks = (content as readonly Json[]).filter(isObject);
  // A result naming no tool_use cannot be placed; hand-made files have them.
  const results = blocks.filter((b) => b["type"] === "tool_result" && typeof b["tool_use_id"] === "string");
  const events: ClientEvent[] = results.flatMap((b) => {
    const result = toolResultEvent(line, b, parentToolUseId, results.length === 1 ? line["toolUseResult"] : undefined);
    const refused = results.length === 1 ? refusedWithoutAsking(line, result) : undefined;
    return refused === undefined ? [result] : [refused, result];
  });
  const texts = blocks.filter((b) => b["type"] === "text").map((b) => textOf([b]));
  const images = blocks.flatMap((b) => imageOf(b));
  if (texts.length > 0 || images.length > 0) {
    events.push(...promptTextToEvents(line, texts.join("\n"), images, parentToolUseId));
  }
  return events;
}

function imageOf(block: JsonObject): { mediaType: string; data: string }[] {
  if (block["type"] !== "image") return [];
  const source = obj(block, "source");
  const data = str(source, "data");
  if (str(source, "type") !== "base64" || data === undefined) return [];
  return [{ mediaType: str(source, "media_type") ?? "image/png", data }];
}

function toolResultEvent(
  line: JsonObject,
  block: JsonObject,
  parentToolUseId: string | null,
  structured: Json | undefined,
): ToolResultEvent {
  const content = block["content"];
  return {
    kind: "tool_result",
    ...envelope(line),
    parentToolUseId,
    toolUseId: str(block, "tool_use_id") ?? "",
    text: textOf(content),
    isError: bool(block, "is_error"),
    ...(structured !== undefined ? { structured } : {}),
    ...(content !== undefined && content !== null ? { content: content as ToolResultBlock["content"] } : {}),
  };
}

/**
 * A call the CLI refused without asking anyone (2.1.332 writes `permissionDecision: {decision:
 * "reject", source: "config", reasonType}` on its result line: auto or plan mode, a rule): the
 * `system/permission_denied` the live stream sent for it, so it restores as a refused call, and a
 * refused Agent call as no subagent card (none ran: no sidechain). A person's "no" at a prompt
 * (`source: "user_reject"`) is left to Baton's audit trail, which knows who said it (auditOverlay.ts);
 * an interrupt's cut names no decision at all.
 */
function refusedWithoutAsking(line: JsonObject, result: ToolResultEvent): PermissionDeniedEvent | undefined {
  const decision = obj(line, "permissionDecision");
  if (!result.isError || str(decision, "decision") !== "reject" || str(decision, "source") === "user_reject") return undefined;
  const reasonType = str(decision, "reasonType");
  return {
    kind: "permission_denied",
    toolName: "", // not on the result line; only a subagent's permission history names it, and no agent id is given
    toolUseId: result.toolUseId,
    reason: result.text !== "" ? result.text : "Refused by Claude Code without asking.",
    ...(reasonType !== undefined ? { reasonType } : {}),
  };
}

function promptTextToEvents(
  line: JsonObject,
  text: string,
  images: readonly { mediaType: string; data: string }[],
  parentToolUseId: string | null,
): ClientEvent[] {
  if (images.length === 0 && text.startsWith(InterruptPrefix)) {
    return [{ kind: "interrupt_marker", parentToolUseId, text }];
  }
  if (isTaskNotificationText(text) || obj(line, "origin")?.["kind"] === "task-notification") {
    const event = parseTaskNotification(text);
    // 2.1.332 names the run on the line: a run resumed with a message queued too late names no
    // Agent call in its notification, so the run id is what tells its answer from the first run's.
    const runId = str(obj(line, "origin"), "runId");
    return event === undefined ? [] : [runId === undefined || runId === "" ? event : { ...event, runId }];
  }
  // Local-command output stays a visible prompt: the live stream shows it too (l).
  const isMeta = bool(line, "isMeta") || bool(line, "isCompactSummary") || bool(line, "isVisibleInTranscriptOnly");
  const prompt: UserPromptEvent = {
    kind: "user_prompt",
    ...envelope(line),
    parentToolUseId,
    text,
    ...(images.length > 0 ? { images } : {}),
    ...(isMeta ? { isMeta: true } : {}),
  };
  return [prompt];
}

function assistantLineToEvents(line: JsonObject, parentToolUseId: string | null): ClientEvent[] {
  const message = obj(line, "message");
  const content = arr(message, "content");
  if (content === undefined) return [];
  const model = str(message, "model");
  const synthetic = bool(line, "isApiErrorMessage") || model === "<synthetic>";
  const apiError = synthetic ? (str(line, "error") ?? String(num(line, "apiErrorStatus") ?? "api_error")) : undefined;
  const messageId = str(message, "id") ?? str(line, "uuid") ?? "";
  const usage = obj(message, "usage") as Usage | undefined;
  const events: AssistantBlockEvent[] = [];
  for (const [index, block] of content.entries()) {
    if (!isObject(block) || typeof block["type"] !== "string") continue;
    events.push({
      kind: "assistant_block",
      ...envelope(line),
      messageId,
      parentToolUseId,
      block: wellFormed(block, `${str(line, "uuid") ?? messageId}:${index}`),
      ...(model !== undefined ? { model } : {}),
      ...(apiError !== undefined ? { apiError } : {}),
      ...(usage !== undefined ? { usage } : {}),
    });
  }
  return events;
}

/** Hand-made files have tool_use blocks without id, name or input; the hub needs all three. */
function wellFormed(block: JsonObject, fallbackId: string): ContentBlock {
  const type = block["type"];
  if (type !== "tool_use" && type !== "server_tool_use" && type !== "mcp_tool_use") return block as unknown as ContentBlock;
  const id = str(block, "id");
  const name = str(block, "name");
  const input = obj(block, "input");
  if (id !== undefined && id !== "" && name !== undefined && input !== undefined) return block as unknown as ContentBlock;
  return { ...block, id: id !== undefined && id !== "" ? id : fallbackId, name: name ?? "unknown", input: input ?? {} } as unknown as ContentBlock;
}

function systemLineToEvents(line: JsonObject): ClientEvent[] {
  const subtype = str(line, "subtype");
  if (subtype === "compact_boundary" || subtype === "microcompact_boundary") {
    const meta = obj(line, "compactMetadata") ?? obj(line, "compact_metadata") ?? obj(line, "microcompactMetadata");
    const preTokens = num(meta, "preTokens") ?? num(meta, "pre_tokens");
    const postTokens = num(meta, "postTokens") ?? num(meta, "post_tokens");
    return [
      {
        kind: "compact_boundary",
        trigger: str(meta, "trigger") ?? (subtype === "microcompact_boundary" ? "micro" : "unknown"),
        ...(preTokens !== undefined ? { preTokens } : {}),
        ...(postTokens !== undefined ? { postTokens } : {}),
      },
    ];
  }
  if (subtype === "api_error") {
    const error = obj(line, "error");
    const attempt = num(line, "retryAttempt");
    const max = num(line, "maxRetries");
    const what = str(error, "message") ?? str(obj(error, "error"), "message") ?? textOf(line["content"] ?? null);
    const retry = attempt !== undefined ? ` (retry ${attempt}${max !== undefined ? `/${max}` : ""})` : "";
    return [{ kind: "notice", level: "warning", text: `API error${retry}${what !== "" ? `: ${what}` : ""}` }];
  }
  if (subtype === "local_command") return localCommandToEvents(line);
  if (subtype === "informational") {
    const text = str(line, "content");
    if (text === undefined || text.trim() === "") return [];
    const level = str(line, "level");
    return [{ kind: "notice", level: level === "warning" || level === "error" ? level : "info", text }];
  }
  if (subtype === undefined) {
    // Old CLIs wrote plain notices ("Previous query still processing") as subtype-less system lines.
    const text = str(line, "content");
    if (text === undefined || text === "") return [];
    const level = str(line, "level");
    return [{ kind: "notice", level: level === "warning" || level === "error" ? level : "info", text }];
  }
  return [];
}

/**
 * Newer CLIs write a slash command and its output as `system` lines (`content` holds the same
 * `<command-name>…` / `<local-command-stdout>…` tags older ones wrote as user lines): they become
 * the same prompt events, so the transcript shows a command echo and the index counts a command.
 * Anything else in `content` is shown as a notice.
 */
function localCommandToEvents(line: JsonObject): ClientEvent[] {
  const content = str(line, "content");
  if (content === undefined || content.trim() === "") return [];
  if (parseCommandEcho(content) === undefined) return [{ kind: "notice", level: "info", text: content }];
  return [{ kind: "user_prompt", ...envelope(line), parentToolUseId: null, text: content }];
}

function attachmentToEvents(line: JsonObject, parentToolUseId: string | null): ClientEvent[] {
  const attachment = obj(line, "attachment");
  if (str(attachment, "type") !== "queued_command") return [];
  // A message typed while a turn ran: folded into that turn, so it has no user line of its own.
  const prompt = attachment?.["prompt"];
  const text = textOf(prompt ?? null);
  if (text === "") return [];
  return promptTextToEvents(line, text, [], parentToolUseId);
}

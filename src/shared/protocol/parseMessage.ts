// Checks one stdout line of the CLI's stream-json protocol (a message or a control request) and hands the parsed
// object on, typed. Only the discriminators and the fields Baton relies on are checked, and the one
// walk over the value only cuts what is nested too deep (boundedJson.ts): this runs on every line,
// and must cost little more than JSON.parse itself. Unknown types and subtypes become
// `UnknownMessage` (forward compatibility); a known type missing a required field is a problem,
// because acting on it would go wrong later.

import { boundJsonDepth } from "../boundedJson.js";
import type { Json, ProtocolMessage, UnknownMessage } from "./messages.js";

export type ParseProblemCode = "not_json" | "not_object" | "invalid_message";

export interface ParseProblem {
  readonly code: ParseProblemCode;
  readonly lineNumber: number;
  readonly reason: string;
  readonly excerpt: string;
}

export type ParseLineResult =
  | { readonly ok: true; readonly message: ProtocolMessage }
  | { readonly ok: false; readonly problem: ParseProblem };

export type ParseMessageResult =
  | { readonly ok: true; readonly message: ProtocolMessage }
  | { readonly ok: false; readonly code: Exclude<ParseProblemCode, "not_json">; readonly reason: string };

const EXCERPT_CHARS = 200;
const BYTE_ORDER_MARK = 0xfeff;

/** Parses one line of stdout (already framed and decoded). Never throws. */
export function parseLine(text: string, lineNumber: number): ParseLineResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // A file saved by an editor may start with a byte-order mark; checked only once parsing failed.
    // One mark only: a line of many is noise (taking them off one call at a time overflowed the stack).
    const unmarked = text.charCodeAt(0) === BYTE_ORDER_MARK ? parseJson(text.slice(1)) : undefined;
    if (unmarked === undefined) {
      const detail = error instanceof Error ? error.message : String(error);
      return { ok: false, problem: { code: "not_json", lineNumber, reason: `not JSON: ${detail}`, excerpt: excerptOf(text) } };
    }
    value = unmarked.value;
  }
  // Cut to a depth everything downstream can take (boundedJson.ts): the one walk over the value.
  const result = parseMessage(boundJsonDepth(value).value);
  if (result.ok) return result;
  return { ok: false, problem: { code: result.code, lineNumber, reason: result.reason, excerpt: excerptOf(text) } };
}

/** `{value}` of JSON text, or undefined when it is not JSON. */
function parseJson(text: string): { readonly value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** Validates an already-parsed JSON value as a protocol message. Never throws. */
export function parseMessage(value: unknown): ParseMessageResult {
  if (!isObject(value)) {
    const what = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    return { ok: false, code: "not_object", reason: `expected a JSON object, got ${what}` };
  }
  const type = value.type;
  if (typeof type !== "string") return invalid("missing string field `type`");
  const checker = CHECKERS.get(type);
  if (checker === undefined) return unknown(value, type, undefined);
  const verdict = checker(value);
  if (verdict === OK) return { ok: true, message: value as unknown as ProtocolMessage };
  if (typeof verdict === "string") return invalid(`${type}: ${verdict}`);
  return unknown(value, type, verdict.subtype);
}

// ---- checks ---------------------------------------------------------------------------------

type Obj = { readonly [key: string]: unknown };
/** OK, a reason the line is invalid, or an unknown subtype. */
type Verdict = typeof OK | string | { readonly subtype: string };
type Checker = (value: Obj) => Verdict;

const OK = 0;

// Field lists, allocated once: this runs on every line.
const CAN_USE_TOOL_FIELDS = ["tool_name", "tool_use_id"] as const;
const HOOK_CALLBACK_FIELDS = ["callback_id"] as const;
const MCP_MESSAGE_FIELDS = ["server_name"] as const;
const INIT_FIELDS = ["cwd", "model", "permissionMode"] as const;
const TASK_FIELDS = ["task_id"] as const;
const TASK_NOTIFICATION_FIELDS = ["task_id", "status"] as const;
const API_RETRY_FIELDS = ["error"] as const;
const HOOK_FIELDS = ["hook_id", "hook_name", "hook_event"] as const;
const SESSION_STATE_FIELDS = ["state"] as const;
const CANCEL_FIELDS = ["request_id"] as const;
const SUGGESTION_FIELDS = ["suggestion"] as const;
const PERMISSION_DENIED_FIELDS = ["tool_name", "tool_use_id"] as const;
const INFORMATIONAL_FIELDS = ["content"] as const;
const TITLE_FIELDS = ["title"] as const;
const COMMAND_LIFECYCLE_FIELDS = ["command_uuid", "state"] as const;
const TOOL_PROGRESS_FIELDS = ["tool_use_id"] as const;

function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(reason: string): ParseMessageResult {
  return { ok: false, code: "invalid_message", reason };
}

function unknown(value: Obj, originalType: string, originalSubtype: string | undefined): ParseMessageResult {
  const message: UnknownMessage =
    originalSubtype === undefined
      ? { type: "unknown", originalType, raw: value as Json }
      : { type: "unknown", originalType, originalSubtype, raw: value as Json };
  return { ok: true, message };
}

function excerptOf(text: string): string {
  return text.length <= EXCERPT_CHARS ? text : `${text.slice(0, EXCERPT_CHARS)}…`;
}

/** Returns the name of the first field of `fields` that is not a string, or undefined. */
function notString(value: Obj, fields: readonly string[]): string | undefined {
  for (const field of fields) if (typeof value[field] !== "string") return field;
  return undefined;
}

function needStrings(value: Obj, fields: readonly string[]): Verdict {
  const bad = notString(value, fields);
  return bad === undefined ? OK : `missing string field \`${bad}\``;
}

function isStringOrNull(value: unknown): boolean {
  return value === null || typeof value === "string";
}

/** session_id and parent_tool_use_id, shared by assistant/user/stream_event lines. */
function conversationEnvelope(value: Obj): Verdict {
  if (typeof value.session_id !== "string") return "missing string field `session_id`";
  if (!isStringOrNull(value.parent_tool_use_id)) return "`parent_tool_use_id` must be a string or null";
  return OK;
}

/** One content block: an object with a string `type`; tool blocks need their ids. */
function checkBlock(block: unknown, index: number): Verdict {
  if (!isObject(block) || typeof block.type !== "string") return `content[${index}] has no string \`type\``;
  switch (block.type) {
    case "tool_use":
    case "server_tool_use":
    case "mcp_tool_use":
      if (typeof block.id !== "string" || typeof block.name !== "string" || !isObject(block.input)) {
        return `content[${index}] tool_use needs string \`id\`, string \`name\` and object \`input\``;
      }
      return OK;
    case "tool_result":
      return typeof block.tool_use_id === "string" ? OK : `content[${index}] tool_result needs string \`tool_use_id\``;
    case "text":
      return typeof block.text === "string" ? OK : `content[${index}] text block needs string \`text\``;
    case "thinking":
      return typeof block.thinking === "string" ? OK : `content[${index}] thinking block needs string \`thinking\``;
    default:
      return OK;
  }
}

function checkBlocks(content: readonly unknown[]): Verdict {
  for (let i = 0; i < content.length; i++) {
    const verdict = checkBlock(content[i], i);
    if (verdict !== OK) return verdict;
  }
  return OK;
}

function checkAssistant(value: Obj): Verdict {
  const envelope = conversationEnvelope(value);
  if (envelope !== OK) return envelope;
  const message = value.message;
  if (!isObject(message)) return "missing object field `message`";
  if (!Array.isArray(message.content)) return "`message.content` must be an array";
  if (typeof message.id !== "string") return "missing string field `message.id`";
  if (typeof message.model !== "string") return "missing string field `message.model`";
  return checkBlocks(message.content);
}

function checkUser(value: Obj): Verdict {
  const envelope = conversationEnvelope(value);
  if (envelope !== OK) return envelope;
  const message = value.message;
  if (!isObject(message)) return "missing object field `message`";
  const content = message.content;
  if (typeof content === "string") return OK;
  if (!Array.isArray(content)) return "`message.content` must be a string or an array";
  return checkBlocks(content);
}

function checkResult(value: Obj): Verdict {
  if (typeof value.session_id !== "string") return "missing string field `session_id`";
  if (typeof value.subtype !== "string") return "missing string field `subtype`";
  if (typeof value.is_error !== "boolean") return "missing boolean field `is_error`";
  return OK;
}

function checkStreamEvent(value: Obj): Verdict {
  const envelope = conversationEnvelope(value);
  if (envelope !== OK) return envelope;
  const event = value.event;
  if (!isObject(event) || typeof event.type !== "string") return "`event` must be an object with a string `type`";
  switch (event.type) {
    case "message_start":
      return isObject(event.message) ? OK : "message_start needs object `event.message`";
    case "content_block_start":
      return typeof event.index === "number" && isObject(event.content_block) ? OK : "content_block_start needs `index` and `content_block`";
    case "content_block_delta":
      return typeof event.index === "number" && isObject(event.delta) && typeof event.delta.type === "string"
        ? OK
        : "content_block_delta needs `index` and a typed `delta`";
    case "content_block_stop":
      return typeof event.index === "number" ? OK : "content_block_stop needs `index`";
    case "message_delta":
      return isObject(event.delta) ? OK : "message_delta needs object `delta`";
    case "message_stop":
      return OK;
    default:
      return { subtype: event.type };
  }
}

function checkControlRequest(value: Obj): Verdict {
  if (typeof value.request_id !== "string") return "missing string field `request_id`";
  const request = value.request;
  if (!isObject(request) || typeof request.subtype !== "string") return "`request` must be an object with a string `subtype`";
  switch (request.subtype) {
    case "can_use_tool":
      if (!isObject(request.input)) return "can_use_tool needs object `request.input`";
      return prefixed("can_use_tool", needStrings(request, CAN_USE_TOOL_FIELDS));
    case "hook_callback":
      if (!isObject(request.input)) return "hook_callback needs object `request.input`";
      return prefixed("hook_callback", needStrings(request, HOOK_CALLBACK_FIELDS));
    case "mcp_message":
      return prefixed("mcp_message", needStrings(request, MCP_MESSAGE_FIELDS));
    default:
      return { subtype: request.subtype };
  }
}

function checkControlResponse(value: Obj): Verdict {
  const response = value.response;
  if (!isObject(response) || typeof response.subtype !== "string") return "`response` must be an object with a string `subtype`";
  if (typeof response.request_id !== "string") return "missing string field `response.request_id`";
  if (response.subtype === "success") return OK;
  if (response.subtype === "error") return typeof response.error === "string" ? OK : "error response needs string `error`";
  return { subtype: response.subtype };
}

function prefixed(what: string, verdict: Verdict): Verdict {
  return typeof verdict === "string" ? `${what} ${verdict}` : verdict;
}

// ---- system subtypes -------------------------------------------------------------------------

// Maps, not object literals, so that a `type` like "constructor" finds nothing.
const SYSTEM_CHECKERS: ReadonlyMap<string, Checker> = new Map(Object.entries({
  init(v: Obj): Verdict {
    if (!Array.isArray(v.tools)) return "`tools` must be an array";
    if (!Array.isArray(v.mcp_servers)) return "`mcp_servers` must be an array";
    if (!Array.isArray(v.slash_commands)) return "`slash_commands` must be an array";
    return needStrings(v, INIT_FIELDS);
  },
  task_started: (v) => needStrings(v, TASK_FIELDS),
  task_progress: (v) => needStrings(v, TASK_FIELDS),
  task_updated: (v) => (isObject(v.patch) ? needStrings(v, TASK_FIELDS) : "missing object field `patch`"),
  task_notification: (v) => needStrings(v, TASK_NOTIFICATION_FIELDS),
  api_retry(v: Obj): Verdict {
    if (typeof v.attempt !== "number" || typeof v.max_retries !== "number" || typeof v.retry_delay_ms !== "number") {
      return "needs numeric `attempt`, `max_retries` and `retry_delay_ms`";
    }
    if (v.error_status !== null && typeof v.error_status !== "number") return "`error_status` must be a number or null";
    return needStrings(v, API_RETRY_FIELDS);
  },
  status: (v) => (isStringOrNull(v.status) ? OK : "`status` must be a string or null"),
  compact_boundary: (v) =>
    isObject(v.compact_metadata) && typeof v.compact_metadata.trigger === "string" ? OK : "needs `compact_metadata.trigger`",
  hook_started: (v) => needStrings(v, HOOK_FIELDS),
  hook_progress: (v) => needStrings(v, HOOK_FIELDS),
  hook_response: (v) => needStrings(v, HOOK_FIELDS),
  thinking_tokens: (v) => (typeof v.estimated_tokens === "number" ? OK : "missing number field `estimated_tokens`"),
  session_state_changed: (v) => needStrings(v, SESSION_STATE_FIELDS),
  permission_denied: (v) => needStrings(v, PERMISSION_DENIED_FIELDS),
  informational: (v) => needStrings(v, INFORMATIONAL_FIELDS),
  session_title_changed: (v) => needStrings(v, TITLE_FIELDS),
  // The entries are read leniently (toClientEvents.ts): a damaged one is left out, not the whole set.
  background_tasks_changed: (v) => (Array.isArray(v.tasks) ? OK : "`tasks` must be an array"),
} satisfies Record<string, Checker>));

const NoSessionIdNeeded: ReadonlySet<string> = new Set(["permission_denied", "informational", "session_title_changed"]);

function checkSystem(value: Obj): Verdict {
  const subtype = value.subtype;
  if (typeof subtype !== "string") return "missing string field `subtype`";
  // The notices 2.1.332 added do not concern the session's state: a line without its id is still worth showing.
  if (typeof value.session_id !== "string" && !NoSessionIdNeeded.has(subtype)) return "missing string field `session_id`";
  const checker = SYSTEM_CHECKERS.get(subtype);
  if (checker === undefined) return { subtype };
  return prefixed(subtype, checker(value));
}

const CHECKERS: ReadonlyMap<string, Checker> = new Map(Object.entries({
  system: checkSystem,
  assistant: checkAssistant,
  user: checkUser,
  result: checkResult,
  stream_event: checkStreamEvent,
  control_request: checkControlRequest,
  control_response: checkControlResponse,
  control_cancel_request: (v) => needStrings(v, CANCEL_FIELDS),
  keep_alive: () => OK,
  prompt_suggestion: (v) => needStrings(v, SUGGESTION_FIELDS),
  // Its fields are read leniently (toClientEvents.ts): one of the wrong type counts as absent.
  rate_limit_event: (v) => (isObject(v.rate_limit_info) ? OK : "missing object field `rate_limit_info`"),
  command_lifecycle: (v) => needStrings(v, COMMAND_LIFECYCLE_FIELDS),
  tool_progress: (v) => needStrings(v, TOOL_PROGRESS_FIELDS),
} satisfies Record<string, Checker>));

// Turns a recorded session (the CLI's stdout lines, optionally the client's stdin lines) into the
// ClientEvents a live client would have produced. Used by `baton replay`, tests and the bench.
//
// stdin supplies what stdout lacks: the person's prompts (not echoed without
// --replay-user-messages) and the answers to permission requests (applied right after the request).

import type { ClientEvent, PermissionResolvedEvent, UserPromptEvent } from "../../shared/events.js";
import type { Json, JsonObject } from "../../shared/protocol/messages.js";
import { parseLine } from "../../shared/protocol/parseMessage.js";
import { toClientEvents } from "../../shared/protocol/toClientEvents.js";

export interface RecordedLine {
  readonly text: string;
  readonly lineNumber: number;
}

export interface StdinRecording {
  readonly prompts: readonly UserPromptEvent[];
  readonly answers: ReadonlyMap<string, PermissionResolvedEvent>;
  /** stdin lines that were not JSON objects. */
  readonly badLines: readonly number[];
}

export function readStdinRecording(lines: Iterable<RecordedLine>): StdinRecording {
  const prompts: UserPromptEvent[] = [];
  const answers = new Map<string, PermissionResolvedEvent>();
  const badLines: number[] = [];
  for (const { text, lineNumber } of lines) {
    const value = parseObject(text);
    if (value === undefined) {
      badLines.push(lineNumber);
      continue;
    }
    if (value["type"] === "user") {
      const prompt = stdinPrompt(value);
      if (prompt !== undefined) prompts.push(prompt);
    } else if (value["type"] === "control_response") {
      const answer = stdinAnswer(asObject(value["response"]));
      if (answer !== undefined) answers.set(answer.requestId, answer);
    }
  }
  return { prompts, answers, badLines };
}

/** Stream events, with stdin prompts placed before the turn they started and answers after their request. */
export function recordingEvents(stream: Iterable<RecordedLine>, stdin?: StdinRecording): ClientEvent[] {
  const raw: ClientEvent[] = [];
  for (const { text, lineNumber } of stream) {
    const parsed = parseLine(text, lineNumber);
    if (parsed.ok) for (const event of toClientEvents(parsed.message, lineNumber)) raw.push(event);
    else raw.push({ kind: "protocol_problem", lineNumber, reason: parsed.problem.reason, excerpt: parsed.problem.excerpt });
  }
  if (stdin === undefined) return raw;
  const echoed = new Set<string>();
  for (const e of raw) {
    if (e.kind === "user_prompt" && e.parentToolUseId === null) {
      echoed.add(e.text);
      if (e.uuid !== undefined) echoed.add(e.uuid);
    }
  }
  const prompts = stdin.prompts.filter((p) => !echoed.has(p.text) && (p.uuid === undefined || !echoed.has(p.uuid)));
  // A prompt sent while a turn runs is folded into it (recording message-during-turn): it starts no
  // turn of its own, and the model sees it with the next tool result. The stream does not say when
  // it came, so a prompt no later turn can take is shown after the last tool result of the turn
  // that took the one before it (before its end, if it ran no tool).
  const turns = turnsOf(raw);
  const out: ClientEvent[] = [];
  let nextPrompt = 0;
  let folded = 0;
  let turn = -1;
  const fold = (): void => {
    for (; folded > 0; folded--) out.push(prompts[nextPrompt++]!);
  };
  for (let i = 0; i < raw.length; i++) {
    const e = raw[i]!;
    if (i === turns[turn + 1]?.start) {
      turn++;
      const prompt = prompts[nextPrompt++];
      if (prompt !== undefined) out.push(prompt);
      folded = Math.max(0, prompts.length - nextPrompt - (turns.length - turn - 1));
    }
    const current = turns[turn];
    if (i === current?.end) fold();
    out.push(e);
    if (i === current?.lastToolResult) fold();
    if (e.kind === "permission_request") {
      const answer = stdin.answers.get(e.requestId);
      if (answer !== undefined) out.push(answer);
    }
  }
  return out;
}

/** Where a turn is in the stream: indexes of the session_init that starts it, its turn_result and its last top-level tool result (-1: none). */
interface TurnSpan {
  readonly start: number;
  end: number;
  lastToolResult: number;
}

/** The turns of a stream: a session_init starts one unless a turn is open (it is repeated inside turns). */
function turnsOf(events: readonly ClientEvent[]): TurnSpan[] {
  const turns: TurnSpan[] = [];
  let open: TurnSpan | undefined;
  let turnOpen = false;
  events.forEach((e, i) => {
    if (e.kind === "session_init" && !turnOpen) {
      open = { start: i, end: -1, lastToolResult: -1 };
      turns.push(open);
    }
    if (e.kind === "session_init" || e.kind === "user_prompt") turnOpen = true;
    if (e.kind === "turn_result") {
      turnOpen = false;
      if (open !== undefined && open.end === -1) open.end = i;
    }
    if (turnOpen && open !== undefined && e.kind === "tool_result" && e.parentToolUseId === null) open.lastToolResult = i;
  });
  return turns;
}

function stdinPrompt(value: JsonObject): UserPromptEvent | undefined {
  const message = asObject(value["message"]);
  const content = message?.["content"];
  let text: string | undefined;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    text = (content as readonly Json[])
      .map((b) => asObject(b))
      .filter((b) => b?.["type"] === "text" && typeof b["text"] === "string")
      .map((b) => b?.["text"] as string)
      .join("\n");
  }
  if (text === undefined) return undefined;
  const uuid = typeof value["uuid"] === "string" ? value["uuid"] : undefined;
  return { kind: "user_prompt", parentToolUseId: null, text, ...(uuid === undefined ? {} : { uuid }) };
}

function stdinAnswer(response: JsonObject | undefined): PermissionResolvedEvent | undefined {
  const requestId = response?.["request_id"];
  if (response === undefined || typeof requestId !== "string") return undefined;
  if (response["subtype"] === "error") {
    const error = typeof response["error"] === "string" ? response["error"] : "error response";
    return { kind: "permission_resolved", requestId, behavior: "deny", decidedBy: "recorded", message: error };
  }
  const result = asObject(response["response"]);
  const behavior = result?.["behavior"];
  if (typeof behavior !== "string") return undefined; // not a permission answer (hook, initialize)
  // 2.1.197 rejects an allow without updatedInput, and any unknown behavior, as a failed answer.
  const allowed = behavior === "allow" && asObject(result?.["updatedInput"]) !== undefined;
  const message =
    typeof result?.["message"] === "string" ? result["message"] : allowed ? undefined : `invalid answer (behavior ${behavior})`;
  return {
    kind: "permission_resolved",
    requestId,
    behavior: allowed ? "allow" : "deny",
    decidedBy: "recorded",
    ...(message === undefined ? {} : { message }),
  };
}

function parseObject(text: string): JsonObject | undefined {
  try {
    return asObject(JSON.parse(text) as Json);
  } catch {
    return undefined;
  }
}

function asObject(value: Json | undefined): JsonObject | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

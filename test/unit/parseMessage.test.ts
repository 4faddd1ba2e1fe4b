import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLineFramer, type LineProblem } from "../../src/main/cli/lineFramer.js";
import type { ProtocolMessage } from "../../src/shared/protocol/messages.js";
import { parseLine, parseMessage, type ParseProblem } from "../../src/shared/protocol/parseMessage.js";
import { listRecordings, readJsonlLines, warnIfNoRecordings } from "../support/recordings.js";

/** `type/subtype` of a parsed message, for readable assertions. */
function kindOf(message: ProtocolMessage): string {
  switch (message.type) {
    case "system":
    case "result":
      return `${message.type}/${message.subtype}`;
    case "control_request":
      return `control_request/${message.request.subtype}`;
    case "unknown":
      return `unknown:${message.originalType}/${message.originalSubtype ?? ""}`;
    default:
      return message.type;
  }
}

function parseOk(value: unknown): ProtocolMessage {
  const result = parseMessage(value);
  if (!result.ok) throw new Error(`expected ok, got ${result.reason}`);
  return result.message;
}

interface Fed {
  readonly messages: { message: ProtocolMessage; lineNumber: number }[];
  readonly problems: (LineProblem | ParseProblem)[];
}

/** Framer + parser together, as the live client reads stdout: chunks of `chunkSize` bytes. */
function feed(data: Buffer, chunkSize: number): Fed {
  const fed: Fed = { messages: [], problems: [] };
  const framer = createLineFramer({
    onLine(text, lineNumber) {
      const result = parseLine(text, lineNumber);
      if (result.ok) fed.messages.push({ message: result.message, lineNumber });
      else fed.problems.push(result.problem);
    },
    onProblem: (problem) => fed.problems.push(problem),
  });
  for (let i = 0; i < data.length; i += chunkSize) framer.push(data.subarray(i, i + chunkSize));
  framer.end();
  return fed;
}

const session = { session_id: "s-1", uuid: "u-1" };

const recordings = listRecordings();
const noRecordings = warnIfNoRecordings("parseMessage");

describe.skipIf(noRecordings)("parseMessage on recorded CLI output", () => {
  for (const recording of recordings) {
    for (const file of recording.streamFiles) {
      const label = `${recording.name}/${path.basename(file)}`;
      it(`${label}: every stdout line parses into a known kind`, () => {
        const expected = readJsonlLines(file);
        // Odd chunk size so lines and multibyte characters straddle chunk boundaries.
        const fed = feed(readFileSync(file), 4093);
        expect(fed.problems).toEqual([]);
        expect(fed.messages.map((m) => m.lineNumber)).toEqual(expected.map((l) => l.lineNumber));
        const unknown = fed.messages.filter((m) => m.message.type === "unknown").map((m) => kindOf(m.message));
        expect(unknown).toEqual([]);
        for (const { message, lineNumber } of fed.messages) {
          const original = JSON.parse(expected.find((l) => l.lineNumber === lineNumber)!.text) as { type: string };
          expect(message.type).toBe(original.type);
        }
      });
    }
    for (const file of recording.stdinFiles) {
      const responses = readJsonlLines(file).filter((l) => l.text.includes('"type":"control_response"'));
      if (responses.length === 0) continue;
      it(`${recording.name}/${path.basename(file)}: control_response lines (echoed on stdout with replay) parse`, () => {
        for (const { text, lineNumber } of responses) {
          const result = parseLine(text, lineNumber);
          expect(result.ok && result.message.type, text.slice(0, 120)).toBe("control_response");
        }
      });
    }
  }

  it("sees every kind the recordings are known to contain", () => {
    const seen = new Set<string>();
    for (const recording of recordings) {
      for (const file of recording.streamFiles) {
        for (const { text, lineNumber } of readJsonlLines(file)) {
          const result = parseLine(text, lineNumber);
          if (result.ok) seen.add(kindOf(result.message));
        }
      }
    }
    const expected = [
      "system/init",
      "system/task_started",
      "system/task_progress",
      "system/task_updated",
      "system/task_notification",
      "system/api_retry",
      "system/status",
      "system/compact_boundary",
      "system/hook_started",
      "system/hook_response",
      "system/thinking_tokens",
      "assistant",
      "user",
      "result/success",
      "result/error_during_execution",
      "stream_event",
      "control_request/can_use_tool",
      "control_request/hook_callback",
      "control_response",
      "prompt_suggestion",
    ];
    // Only when the full shared set is present; fixtures alone may hold fewer kinds.
    if (recordings.some((r) => r.source === "shared")) expect([...seen].sort()).toEqual(expect.arrayContaining(expected));
    expect([...seen].filter((k) => k.startsWith("unknown"))).toEqual([]);
  });

  it("reports corrupted input and loses none of the lines around it", () => {
    const recording = recordings.find((r) => r.name === "a-subagent") ?? recordings[0]!;
    const good = readJsonlLines(recording.streamFiles[0]!).map((l) => l.text);
    const truncated = good[1]!.slice(0, Math.floor(good[1]!.length / 2));
    const invalidUtf8 = Buffer.concat([Buffer.from('{"type":"user","x":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    const huge = Buffer.alloc(20 * 1024 * 1024, 0x78);
    const pieces: Buffer[] = [];
    const add = (b: Buffer | string) => pieces.push(Buffer.isBuffer(b) ? b : Buffer.from(b), Buffer.from("\n"));
    add(good[0]!); //                       line 1
    add(truncated); //                      line 2
    add(good[1]!); //                       line 3
    add(invalidUtf8); //                    line 4
    add(good[2]!); //                       line 5
    add(huge); //                           line 6
    add("Warning: some log noise"); //      line 7
    add("42"); //                           line 8
    for (const line of good.slice(3)) add(line); // lines 9…
    const fed = feed(Buffer.concat(pieces), 64 * 1024);

    expect(fed.problems.map((p) => [p.lineNumber, p.code])).toEqual([
      [2, "not_json"],
      [4, "invalid_utf8"],
      [6, "line_too_long"],
      [7, "not_json"],
      [8, "not_object"],
    ]);
    const parsed = fed.messages.map((m) => JSON.stringify(m.message));
    expect(parsed).toEqual(good.map((l) => JSON.stringify(JSON.parse(l))));
    expect(fed.messages[0]!.lineNumber).toBe(1);
    expect(fed.messages.at(-1)!.lineNumber).toBe(8 + good.length - 3);
  });
});

describe("parseMessage", () => {
  it("returns the very object it was given (no copy)", () => {
    const value = { type: "keep_alive" };
    expect(parseOk(value)).toBe(value);
    const assistant = JSON.parse(
      '{"type":"assistant","message":{"id":"m","role":"assistant","model":"x","content":[{"type":"text","text":"hi"}],"stop_reason":null},"parent_tool_use_id":null,"session_id":"s"}',
    ) as unknown;
    expect(parseOk(assistant)).toBe(assistant);
  });

  it.each<[string, Record<string, unknown>]>([
    ["system/hook_progress", { type: "system", subtype: "hook_progress", hook_id: "h", hook_name: "PreToolUse:Bash", hook_event: "PreToolUse", ...session }],
    ["system/session_state_changed", { type: "system", subtype: "session_state_changed", state: "requires_action", ...session }],
    ["system/status", { type: "system", subtype: "status", status: null, permissionMode: "default", ...session }],
    ["system/task_started", { type: "system", subtype: "task_started", task_id: "bmbk311bd", task_type: "local_bash", ...session }],
    ["keep_alive", { type: "keep_alive" }],
    ["control_cancel_request", { type: "control_cancel_request", request_id: "r1" }],
    ["control_request/mcp_message", { type: "control_request", request_id: "r2", request: { subtype: "mcp_message", server_name: "srv", message: {} } }],
    ["control_response", { type: "control_response", response: { subtype: "error", request_id: "r3", error: "nope" } }],
    ["control_response", { type: "control_response", response: { subtype: "success", request_id: "r4" } }],
    ["user", { type: "user", message: { role: "user", content: "plain string" }, parent_tool_use_id: null, ...session }],
    ["result/error_max_turns", { type: "result", subtype: "error_max_turns", is_error: true, ...session }],
  ])("accepts %s with optional fields missing", (kind, value) => {
    expect(kindOf(parseOk(value))).toBe(kind);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ["assistant without content array", { type: "assistant", message: { id: "m", model: "x", content: "text" }, parent_tool_use_id: null, ...session }, /message\.content/],
    ["assistant without message", { type: "assistant", parent_tool_use_id: null, ...session }, /message/],
    ["assistant tool_use without id", { type: "assistant", message: { id: "m", model: "x", content: [{ type: "tool_use", name: "Bash", input: {} }] }, parent_tool_use_id: null, ...session }, /tool_use/],
    ["user with numeric content", { type: "user", message: { role: "user", content: 3 }, parent_tool_use_id: null, ...session }, /content/],
    ["user tool_result without tool_use_id", { type: "user", message: { content: [{ type: "tool_result", content: "x" }] }, parent_tool_use_id: null, ...session }, /tool_use_id/],
    ["user with bad parent id", { type: "user", message: { content: "x" }, parent_tool_use_id: 5, ...session }, /parent_tool_use_id/],
    ["system without subtype", { type: "system", ...session }, /subtype/],
    ["init without tools", { type: "system", subtype: "init", cwd: "/", model: "m", permissionMode: "default", mcp_servers: [], slash_commands: [], ...session }, /tools/],
    ["task_notification without status", { type: "system", subtype: "task_notification", task_id: "a1", ...session }, /status/],
    ["task_updated without patch", { type: "system", subtype: "task_updated", task_id: "a1", ...session }, /patch/],
    ["api_retry with string attempt", { type: "system", subtype: "api_retry", attempt: "1", max_retries: 1, retry_delay_ms: 1, error_status: null, error: "e", ...session }, /attempt/],
    ["result without is_error", { type: "result", subtype: "success", ...session }, /is_error/],
    ["can_use_tool without tool_use_id", { type: "control_request", request_id: "r", request: { subtype: "can_use_tool", tool_name: "Bash", input: {} } }, /tool_use_id/],
    ["control_request without request_id", { type: "control_request", request: { subtype: "can_use_tool" } }, /request_id/],
    ["control_response without request_id", { type: "control_response", response: { subtype: "success" } }, /request_id/],
    ["stream_event without event", { type: "stream_event", parent_tool_use_id: null, ...session }, /event/],
    ["prompt_suggestion without suggestion", { type: "prompt_suggestion", ...session }, /suggestion/],
    ["a line without type", { subtype: "init", ...session }, /type/],
  ])("rejects %s with a clear reason", (_name, value, reason) => {
    const result = parseMessage(value);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe("invalid_message");
      expect(result.reason).toMatch(reason);
    }
  });

  it.each<[string, Record<string, unknown>, string, string | undefined]>([
    ["a new type", { type: "tool_forecast", ...session }, "tool_forecast", undefined],
    ["a new system subtype", { type: "system", subtype: "weather_changed", ...session }, "system", "weather_changed"],
    ["a new control request", { type: "control_request", request_id: "r", request: { subtype: "request_user_dialog" } }, "control_request", "request_user_dialog"],
    ["a new stream event", { type: "stream_event", event: { type: "ping" }, parent_tool_use_id: null, ...session }, "stream_event", "ping"],
    ["a new control response subtype", { type: "control_response", response: { subtype: "partial", request_id: "r" } }, "control_response", "partial"],
    ["a type named like an Object property", { type: "constructor" }, "constructor", undefined],
  ])("turns %s into an unknown message, keeping the line", (_name, value, originalType, originalSubtype) => {
    const message = parseOk(value);
    expect(message).toEqual({ type: "unknown", originalType, ...(originalSubtype ? { originalSubtype } : {}), raw: value });
  });

  it.each([
    ["42", "number"],
    ["null", "null"],
    ['"text"', "string"],
    ["[1,2]", "array"],
  ])("reports the non-object JSON value %s", (text, what) => {
    const result = parseLine(text, 7);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem).toMatchObject({ code: "not_object", lineNumber: 7, excerpt: text });
      expect(result.problem.reason).toContain(what);
    }
  });

  it("reports non-JSON with its line number and a bounded excerpt", () => {
    const noise = `not json ${"x".repeat(1000)}`;
    const result = parseLine(noise, 12);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem.code).toBe("not_json");
      expect(result.problem.lineNumber).toBe(12);
      expect(result.problem.reason).toMatch(/^not JSON/);
      expect(result.problem.excerpt.length).toBeLessThanOrEqual(201);
      expect(noise.startsWith(result.problem.excerpt.slice(0, 200))).toBe(true);
    }
  });

  it("never throws, whatever the JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        parseMessage(value);
      }),
      { numRuns: 500 },
    );
    const types = ["system", "assistant", "user", "result", "stream_event", "control_request", "control_response", "prompt_suggestion"];
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue(), (type, rest, inner) => {
        const value = { ...rest, type, subtype: "init", message: inner, request: inner, response: inner, event: inner };
        parseMessage(value);
      }),
      { numRuns: 500 },
    );
  });

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        parseLine(text, 1);
      }),
      { numRuns: 500 },
    );
  });
});

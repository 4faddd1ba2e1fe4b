// Every line of every recording (both CLIs' stdout, stdin and history files), damaged the ways a
// cut pipe, a bad disk or a newer CLI damages lines: cut short, a character flipped or put in, a
// brace lost, a field of the wrong type, a number beyond a double, values nested 100,000 deep, a
// run of byte-order marks. The stdout parser never throws and answers with a typed message (an
// unknown type as `unknown`) or a typed problem; what it hands on becomes events without a throw;
// the history line mapper takes the same lines without a throw. Seeds: test/support/fuzz/settings.ts.

import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mapDiskLine } from "../../src/main/history/diskToEvents.js";
import type { JsonObject } from "../../src/shared/protocol/messages.js";
import { parseLine } from "../../src/shared/protocol/parseMessage.js";
import { toClientEvents } from "../../src/shared/protocol/toClientEvents.js";
import { allJsonlFiles, noteSharedRecordings } from "../support/fuzz/corpus.js";
import { corrupt, corruption } from "../support/fuzz/corruption.js";
import { fuzzParameters } from "../support/fuzz/settings.js";

const KnownTypes = new Set([
  "system",
  "assistant",
  "user",
  "result",
  "stream_event",
  "control_request",
  "control_response",
  "control_cancel_request",
  "keep_alive",
  "prompt_suggestion",
  "command_lifecycle",
  "tool_progress",
]);
const ProblemCodes = new Set(["not_json", "not_object", "invalid_message"]);

/** The recorded lines, each with the file it came from. */
const lines = allJsonlFiles().flatMap(({ label, file }) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((text) => text.trim() !== "")
    .map((text) => ({ label, text })),
);
noteSharedRecordings("fuzzParser");

function parseObject(text: string): JsonObject | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** What the stdout path and the history path do with one line; throws only if one of them does. */
function readBothWays(text: string, lineNumber: number): void {
  const parsed = parseLine(text, lineNumber);
  if (parsed.ok) {
    const { message } = parsed;
    expect(KnownTypes.has(message.type) || message.type === "unknown", message.type).toBe(true);
    if (message.type === "unknown") expect(typeof message.originalType).toBe("string");
    for (const event of toClientEvents(message, lineNumber)) expect(typeof event.kind).toBe("string");
  } else {
    const { problem } = parsed;
    expect(ProblemCodes.has(problem.code), problem.code).toBe(true);
    expect(problem.lineNumber).toBe(lineNumber);
    expect(problem.reason.length).toBeGreaterThan(0);
    expect(problem.excerpt.length).toBeLessThanOrEqual(201);
  }
  const value = parseObject(text.replace(/^\uFEFF/, ""));
  if (value === undefined) return;
  for (const parent of [null, "toolu_parent"]) {
    for (const event of mapDiskLine(value, parent).events) expect(typeof event.kind).toBe("string");
  }
}

describe.skipIf(lines.length === 0)("stream-json parser over damaged recorded lines", () => {
  it("a line of many byte-order marks is not JSON, and the parser says so (it overflowed the stack)", () => {
    const result = parseLine("\uFEFF".repeat(50_000) + '{"type":"keep_alive"}', 3);
    expect(result).toMatchObject({ ok: false, problem: { code: "not_json", lineNumber: 3 } });
    expect(parseLine('\uFEFF{"type":"keep_alive"}', 4)).toEqual({ ok: true, message: { type: "keep_alive" } });
  });

  it("every recorded line, undamaged, is read both ways without a throw", () => {
    lines.forEach(({ text }, i) => readBothWays(text, i + 1));
  });

  it("never throws on a damaged line, and answers with a typed message or a typed problem", () => {
    fc.assert(
      fc.property(fc.nat(lines.length - 1), fc.array(corruption, { minLength: 1, maxLength: 3 }), fc.nat(), (pick, damage, lineNumber) => {
        const text = damage.reduce(corrupt, lines[pick]!.text);
        readBothWays(text, lineNumber);
      }),
      fuzzParameters(1000),
    );
  }, 120_000);

  it("a recorded line whose type is one Baton does not know comes back as an unknown message keeping the line", () => {
    const objects = lines.map(({ text }) => parseObject(text)).filter((v) => v !== undefined);
    fc.assert(
      fc.property(fc.nat(objects.length - 1), fc.string({ minLength: 1, maxLength: 20 }), (pick, type) => {
        fc.pre(!KnownTypes.has(type));
        const line = { ...objects[pick]!, type };
        const parsed = parseLine(JSON.stringify(line), 1);
        expect(parsed).toMatchObject({ ok: true, message: { type: "unknown", originalType: type } });
        // Reported on the Console as a line Baton does not know, not drawn.
        if (parsed.ok) expect(toClientEvents(parsed.message, 1)).toEqual([expect.objectContaining({ kind: "protocol_problem", lineNumber: 1 })]);
      }),
      fuzzParameters(300),
    );
  });
});

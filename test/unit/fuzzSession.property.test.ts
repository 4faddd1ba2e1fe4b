// The session model fed every recorded run of both CLIs as the live client feeds it, with the
// stdout cut into random chunks, the agents' lines interleaved in other orders the CLI may write
// (test/support/fuzz/interleaving.ts), and lines lost, repeated or damaged: it never throws, no
// block of a subagent's line is ever at the top level, and each sits in the card of the Agent call
// its line names whenever the transcript has that card. With only the chunking changed, the
// transcript is exactly the recorded run's. Seeds: test/support/fuzz/settings.ts.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createStdoutReader } from "../../src/main/cli/stdoutReader.js";
import { modelOf, SessionModel } from "../../src/main/hub/index.js";
import { readStdinRecording, recordingEvents, type RecordedLine, type StdinRecording } from "../../src/main/hub/recordingEvents.js";
import type { ClientEvent } from "../../src/shared/events.js";
import { parseLine } from "../../src/shared/protocol/parseMessage.js";
import type { Block, Transcript } from "../../src/shared/transcript.js";
import { chunked, cuts } from "../support/fuzz/chunking.js";
import { noteSharedRecordings, streamCaptures, type StreamCapture } from "../support/fuzz/corpus.js";
import { corrupt, editLines, lineEdit } from "../support/fuzz/corruption.js";
import { interleave, mustFollow } from "../support/fuzz/interleaving.js";
import { emptyOrigins, expectNothingLost, expectSubagentBlocksPlaced, noteLine, streamParent, type SubagentOrigins } from "../support/fuzz/placement.js";
import { fuzzParameters } from "../support/fuzz/settings.js";
import { fixtureRecordingsDirFor, readJsonlLines, type RecordingVersion } from "../support/recordings.js";
import { ev } from "./hubTestKit.js";

/** The lines a stdout reader frames from `chunks`, as the live client reads them. */
function framedLines(chunks: readonly Buffer[]): RecordedLine[] {
  const lines: RecordedLine[] = [];
  const reader = createStdoutReader({ onMessage: () => undefined, onProblem: () => undefined, onLine: (text, lineNumber) => lines.push({ text, lineNumber }) });
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  return lines;
}

/** Applies `events` in batches of the given sizes (the live client applies what each chunk brought). */
function applyInBatches(events: readonly ClientEvent[], sizes: readonly number[]): Transcript {
  const model = new SessionModel();
  for (let at = 0, k = 0; at < events.length; k++) {
    const size = sizes.length === 0 ? events.length : (sizes[k % sizes.length] as number);
    model.apply(events.slice(at, at + size));
    at += size;
  }
  return model.transcript();
}

/**
 * Where the lines that parse put subagent blocks (the parser's own reading of each line). The
 * prompts Baton sent (`stdin`) are the conductor's whatever a line echoing one names as its parent.
 */
function originsOf(lines: readonly RecordedLine[], stdin: StdinRecording | undefined): SubagentOrigins {
  const origins = emptyOrigins();
  for (const prompt of stdin?.prompts ?? []) if (prompt.uuid !== undefined) origins.conductors.add(prompt.uuid);
  for (const { text, lineNumber } of lines) {
    const parsed = parseLine(text, lineNumber);
    if (parsed.ok) noteLine(origins, parsed.message as unknown as Record<string, unknown>, streamParent(parsed.message as unknown as Record<string, unknown>));
  }
  return origins;
}

interface Run {
  readonly capture: StreamCapture;
  readonly lines: readonly RecordedLine[];
  readonly stdin: StdinRecording | undefined;
  readonly before: readonly number[][];
  readonly reference: Transcript;
}

function runOf(capture: StreamCapture): Run {
  const lines = framedLines([capture.bytes]);
  const stdin = capture.stdinBytes === undefined ? undefined : readStdinRecording(framedLines([capture.stdinBytes]));
  const objects = lines.map(({ text }) => JSON.parse(text) as Record<string, unknown>);
  const reference = applyInBatches(recordingEvents(lines, stdin), []);
  return { capture, lines, stdin, before: mustFollow(objects), reference };
}

const runs = streamCaptures().map(runOf);
noteSharedRecordings("fuzzSession");

const batchSizes = fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 6 });
const picks = fc.array(fc.nat(), { minLength: 1, maxLength: 300 });

describe.skipIf(runs.length === 0)("session model over every recorded run, chunked, interleaved and damaged", () => {
  it("the recorded order keeps every subagent block in its card", () => {
    let checked = 0;
    for (const run of runs) {
      const origins = originsOf(run.lines, run.stdin);
      checked += expectSubagentBlocksPlaced(run.reference, origins, run.capture.label);
      expectNothingLost(run.reference, origins, run.capture.label);
    }
    // The check has something to check: the recordings' subagents have blocks in their cards (120 in the committed sets alone).
    expect(checked).toBeGreaterThan(50);
  });

  it.each(runs.map((r) => [r.capture.label, r] as const))("%s", (label, run) => {
    // Only the chunking (and so the batches) changed: exactly the recorded run's transcript.
    fc.assert(
      fc.property(cuts, batchSizes, (cutList, sizes) => {
        const lines = framedLines(chunked(run.capture.bytes, cutList));
        expect(applyInBatches(recordingEvents(lines, run.stdin), sizes)).toEqual(run.reference);
      }),
      fuzzParameters(6),
    );
    // Another order the CLI may write: never a throw, every subagent block in its card, none lost.
    fc.assert(
      fc.property(picks, (order) => {
        const lines = interleave(run.lines, run.before, order);
        const t = applyInBatches(recordingEvents(lines, run.stdin), []);
        const origins = originsOf(lines, run.stdin);
        expectSubagentBlocksPlaced(t, origins, label);
        expectNothingLost(t, origins, label);
      }),
      fuzzParameters(10),
    );
    // Interleaved, then lines lost, repeated and damaged: never a throw, no subagent block at the top level.
    fc.assert(
      fc.property(picks, fc.array(lineEdit, { minLength: 1, maxLength: 8 }), batchSizes, (order, edits, sizes) => {
        const lines = editLines(interleave(run.lines, run.before, order), edits, (line, c) => ({ ...line, text: corrupt(line.text, c) }));
        const t = applyInBatches(recordingEvents(lines, run.stdin), sizes);
        expectSubagentBlocksPlaced(t, originsOf(lines, run.stdin), label);
      }),
      fuzzParameters(14),
    );
  }, 120_000);
});

// ---- what the properties found, as plain cases (committed recordings) ---------------------------

/** A committed recording's run with the lines whose index `drop` picks left out. */
function withoutLines(version: RecordingVersion, name: string, drop: (text: string) => boolean): { reference: Transcript; damaged: Transcript } {
  const dir = `${fixtureRecordingsDirFor(version)}/${name}`;
  const lines = readJsonlLines(`${dir}/stream.jsonl`);
  const stdin = readStdinRecording(readJsonlLines(`${dir}/stdin.jsonl`));
  const kept = lines.filter((l) => !drop(l.text));
  expect(kept.length).toBeLessThan(lines.length);
  return { reference: modelOf(recordingEvents(lines, stdin)).transcript(), damaged: modelOf(recordingEvents(kept, stdin)).transcript() };
}

const card = (blocks: readonly Block[], id: string): Block | undefined => blocks.find((b) => b.id === id);
const ids = (blocks: readonly Block[] | undefined): string[] => (blocks ?? []).map((b) => b.id);

describe("a subagent whose Agent call line was lost (found by the properties above)", () => {
  it("its prompt, thinking and Bash calls sit in a card for that call, not at the top level as the conductor's, and its task and result complete the card", () => {
    const agent = "toolu_main_t0_1";
    const { reference, damaged } = withoutLines("2.1.197", "subagent", (text) => text.includes(`"id":"${agent}","name":"Agent"`));
    // Before the fix the subagent's prompt, thinking and both Bash calls were conductor blocks.
    expect(ids(damaged.blocks)).toEqual(ids(reference.blocks));
    const lost = card(damaged.blocks, agent)?.call?.subagent;
    const recorded = card(reference.blocks, agent)?.call?.subagent;
    expect(ids(lost?.blocks)).toEqual(ids(recorded?.blocks));
    expect(lost).toMatchObject({ status: "completed", description: recorded?.description, prompt: recorded?.prompt, taskId: recorded?.taskId });
    expect(damaged.blocks.some((b) => b.kind === "user" && b.text === recorded?.prompt)).toBe(false);
  });

  it("a nested agent whose call and task_started were both lost is put in its caller's card once its caller's result names it (CLI 2.1.332)", () => {
    const inner = "toolu_SUB-A_t0_0";
    const { reference, damaged } = withoutLines(
      "2.1.332",
      "nested-permission",
      (text) => text.includes(`"id":"${inner}","name":"Agent"`) || (text.includes('"subtype":"task_started"') && text.includes(`"tool_use_id":"${inner}"`)),
    );
    expect(ids(damaged.blocks)).toEqual(ids(reference.blocks));
    const outer = card(damaged.blocks, "toolu_main_t0_0")?.call?.subagent;
    const nested = card(outer?.blocks ?? [], inner)?.call?.subagent;
    expect(nested).toBeDefined();
    expect(ids(nested?.blocks)).toEqual(ids(card(card(reference.blocks, "toolu_main_t0_0")?.call?.subagent?.blocks ?? [], inner)?.call?.subagent?.blocks));
    expect(nested?.spawnDepth).toBe(2);
  });
});

describe("damaged lines that name calls in odd places", () => {
  it("a line naming its own Agent call as its parent leaves the card at the top level, not inside itself", () => {
    const t = modelOf([ev.init(), ev.prompt("go"), ev.agent("toolu_A", "self", "toolu_A"), ev.text("u1", "inside", "toolu_A")]).transcript();
    expect(ids(t.blocks)).toEqual([expect.any(String), "toolu_A"]);
    expect(ids(t.blocks[1]?.call?.subagent?.blocks)).toEqual(["u1:0"]);
  });

  it("a line naming a Bash call as its parent turns that call into a card holding the line's blocks", () => {
    const t = modelOf([ev.init(), ev.prompt("go"), ev.use("toolu_B", "Bash", { command: "true" }), ev.text("u1", "said by an agent", "toolu_B")]).transcript();
    expect(ids(t.blocks)).toEqual([expect.any(String), "toolu_B"]);
    expect(t.blocks[1]?.call).toMatchObject({ name: "Bash", subagent: { blocks: [{ id: "u1:0", text: "said by an agent" }] } });
  });
});

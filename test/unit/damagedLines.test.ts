// Lines another CLI version (or a damaged file) writes with a field of an unexpected type: the
// reader keeps everything else on the line, and nothing downstream (hub, tree printer, export)
// meets a number where it expects text. Found by mutating the recordings; the property tests
// below keep doing that, seeded, over every recording there is.

import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { restoreSession } from "../../src/main/history/restore.js";
import { modelOf } from "../../src/main/hub/index.js";
import { recordingEvents } from "../../src/main/hub/recordingEvents.js";
import { renderTranscriptTree } from "../../src/main/hub/transcriptTree.js";
import type { ClientEvent } from "../../src/shared/events.js";
import { parseMessage } from "../../src/shared/protocol/parseMessage.js";
import { toClientEvents } from "../../src/shared/protocol/toClientEvents.js";
import type { Block, Transcript } from "../../src/shared/transcript.js";
import { listRecordings, mainTranscriptFiles, readJsonlLines } from "../support/recordings.js";
import { tempDirs } from "../support/tempDirs.js";

function eventsOf(line: object): ClientEvent[] {
  const parsed = parseMessage(line);
  if (!parsed.ok) throw new Error(parsed.reason);
  return toClientEvents(parsed.message);
}

const session = { session_id: "s1" };
const tempDir = tempDirs("baton-damaged-", "all");

describe("fields of an unexpected type count as absent", () => {
  it("a turn result keeps its status when its cost, usage, denials and model usage are malformed", () => {
    const [event] = eventsOf({
      type: "result",
      subtype: "success",
      is_error: false,
      ...session,
      result: 42,
      total_cost_usd: "0.12",
      duration_ms: 900,
      usage: { input_tokens: "5", output_tokens: 7 },
      modelUsage: { "claude-x": null, "claude-y": { contextWindow: "big" }, "claude-z": { contextWindow: 200000 } },
      permission_denials: { tool_name: "Bash" },
      errors: ["one", 2],
    });
    expect(event).toMatchObject({ kind: "turn_result", subtype: "success", durationMs: 900, contextWindow: 200000, errors: ["one"] });
    expect(event).toMatchObject({ result: undefined, costUsd: undefined, permissionDenials: undefined });
    expect(event?.kind === "turn_result" ? event.usage : undefined).toEqual({ output_tokens: 7 });
  });

  it("a tool result whose content is neither text nor a list reads as empty, and non-objects in a list are skipped", () => {
    const line = (content: unknown) => ({
      type: "user",
      ...session,
      parent_tool_use_id: null,
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content }] },
    });
    expect(eventsOf(line(5))).toMatchObject([{ kind: "tool_result", toolUseId: "toolu_1", text: "" }]);
    expect(eventsOf(line([null, 3, { type: "text", text: "kept" }]))).toMatchObject([{ kind: "tool_result", text: "kept" }]);
  });

  it("task events keep their task id when their texts and usage are malformed", () => {
    const [started] = eventsOf({ type: "system", subtype: "task_started", ...session, task_id: "t1", tool_use_id: 7, description: { a: 1 }, prompt: "go" });
    expect(started).toMatchObject({ kind: "task_started", taskId: "t1", toolUseId: undefined, description: undefined, prompt: "go" });
    const [progress] = eventsOf({ type: "system", subtype: "task_progress", ...session, task_id: "t1", usage: { total_tokens: "9", tool_uses: 2 } });
    expect(progress).toMatchObject({ kind: "task_progress", usage: { tool_uses: 2 } });
    expect(progress?.kind === "task_progress" ? progress.usage?.total_tokens : "absent").toBeUndefined();
  });

  it("an image without a source is left out of its prompt, which keeps its text", () => {
    const events = eventsOf({
      type: "user",
      ...session,
      parent_tool_use_id: null,
      message: { role: "user", content: [{ type: "text", text: "look" }, { type: "image" }, { type: "image", source: { type: "base64", media_type: 1 } }] },
    });
    expect(events).toEqual([expect.objectContaining({ kind: "user_prompt", text: "look" })]);
    expect(events[0]).not.toHaveProperty("images");
  });

  it("a thinking block without text is a problem with the line, as a text block without text is", () => {
    const parsed = parseMessage({
      type: "assistant",
      ...session,
      parent_tool_use_id: null,
      message: { id: "m1", model: "claude-x", content: [{ type: "thinking", thinking: 12 }] },
    });
    expect(parsed).toMatchObject({ ok: false, reason: expect.stringContaining("thinking block needs string `thinking`") });
  });
});

describe("a byte-order mark before the first line (a file saved by an editor)", () => {
  const bom = "\uFEFF";

  it("replay still reads the first line", () => {
    const init = {
      type: "system",
      subtype: "init",
      ...session,
      cwd: "/home/user/code/x",
      model: "claude-x",
      permissionMode: "default",
      tools: [],
      mcp_servers: [],
      slash_commands: [],
    };
    const [first] = recordingEvents([{ text: `${bom}${JSON.stringify(init)}`, lineNumber: 1 }]);
    expect(first).toMatchObject({ kind: "session_init", sessionId: "s1", model: "claude-x" });
  });

  it("restore still reads the first line (its reader's decoder drops the mark)", async () => {
    const tree = tempDir();
    const file = path.join(tree, "-home-user-code-x", "s1.jsonl");
    const prompt = { type: "user", sessionId: "s1", uuid: "u1", cwd: "/home/user/code/x", message: { role: "user", content: "first words" } };
    mkdirSync(path.dirname(file));
    writeFileSync(file, `${bom}${JSON.stringify(prompt)}\n`);
    const { transcript, problems } = await restoreSession(file, { projectsDir: tree });
    expect(transcript.blocks).toMatchObject([{ kind: "user", text: "first words" }]);
    expect(problems).toEqual([]);
  });
});

// ---- property tests over the recordings -----------------------------------------------------

/** Values of every JSON type, put where a line had something else. */
const oddValue = fc.constantFrom<unknown>(null, 0, -1, 1.5, "", "x", true, [], {}, [null], [1, "a"], { type: "text" }, { text: 5 }, [{ type: "tool_use" }]);

/** Replaces the value at a pseudo-random path of `value` (chosen by `picks`) with `odd`. */
function mutate(value: unknown, picks: readonly number[], odd: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object") return odd;
  const keys = Object.keys(value);
  const pick = picks[depth];
  if (keys.length === 0 || pick === undefined) return odd;
  const key = keys[pick % keys.length] as string;
  const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as unknown as Record<string, unknown>) : { ...value };
  copy[key] = mutate((value as Record<string, unknown>)[key], picks, odd, depth + 1);
  return copy;
}

interface Edit {
  readonly line: number;
  readonly picks: readonly number[];
  readonly odd: unknown;
}

const damage: fc.Arbitrary<Edit[]> = fc.array(fc.record({ line: fc.nat(), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), odd: oddValue }), {
  minLength: 1,
  maxLength: 4,
});

/** `lines` with one value replaced on each edited line. */
function damaged(lines: readonly string[], edits: readonly Edit[]): string[] {
  const out = [...lines];
  for (const edit of edits) {
    const at = edit.line % out.length;
    try {
      out[at] = JSON.stringify(mutate(JSON.parse(out[at] as string), edit.picks, edit.odd));
    } catch {
      // a line that is not JSON stays as it is: the reader reports it
    }
  }
  return out;
}

/** Every text the tree printer and the window show is a string; numbers are numbers. */
function expectWellTyped(t: Transcript): void {
  if (t.costUsd !== undefined) expect(typeof t.costUsd).toBe("number");
  const walk = (blocks: readonly Block[]): void => {
    for (const b of blocks) {
      if (b.text !== undefined) expect(typeof b.text).toBe("string");
      const call = b.call;
      if (call === undefined) continue;
      expect(typeof call.name).toBe("string");
      if (call.result !== undefined) expect(typeof call.result.text).toBe("string");
      const r = call.subagent;
      if (r === undefined) continue;
      for (const text of [r.description, r.prompt, r.subagentType, r.progressLine, r.lastToolName, r.summaryMarkdown, r.model]) {
        if (text !== undefined) expect(typeof text).toBe("string");
      }
      for (const n of [r.totalTokens, r.toolUses, r.durationMs]) if (n !== undefined) expect(typeof n).toBe("number");
      walk(r.blocks);
    }
  };
  walk(t.blocks);
  expect(() => renderTranscriptTree(t)).not.toThrow();
  expect(() => JSON.stringify(t)).not.toThrow();
}

const recordings = listRecordings();

describe("damaged recordings replay and restore without a crash", () => {
  it.each(recordings.map((r) => [r.name, r] as const))("replay of %s", (_name, recording) => {
    const lines = recording.streamFiles.flatMap((f) => readJsonlLines(f).map((l) => l.text));
    fc.assert(
      fc.property(damage, (edits) => {
        const events = recordingEvents(damaged(lines, edits).map((text, i) => ({ text, lineNumber: i + 1 })));
        expectWellTyped(modelOf(events).transcript());
      }),
      { numRuns: 40, seed: 20261130 },
    );
  });

  const withHistory = recordings.filter((r) => mainTranscriptFiles(r).length > 0);
  it.each(withHistory.map((r) => [r.name, r] as const))("restore of %s, sidechains loaded", async (_name, recording) => {
    const projects = path.join(recording.dir, "projects");
    const tree = tempDir();
    cpSync(projects, tree, { recursive: true });
    const originals = mainTranscriptFiles(recording);
    await fc.assert(
      fc.asyncProperty(damage, async (edits) => {
        for (const original of originals) {
          const file = path.join(tree, path.relative(projects, original));
          writeFileSync(file, damaged(readFileSync(original, "utf8").split("\n"), edits).join("\n"));
          const { transcript } = await restoreSession(file, { projectsDir: tree, loadSidechains: true });
          expectWellTyped(transcript);
        }
      }),
      { numRuns: 8, seed: 20261130 },
    );
  });
});

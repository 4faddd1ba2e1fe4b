// One value nested 20,000 levels deep in a history file (or a CLI line): JSON.parse reads it, but
// JSON.stringify, structuredClone and every recursive walker throw "Maximum call stack size
// exceeded" on it. It must not break indexing or search for the whole history, nor leave the
// session's tab empty: the value is cut to a marked stand-in where it comes in, and said so.

import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { LogEntry, TranscriptDelta } from "../../src/shared/api.js";
import { boundJsonDepth, MaxJsonDepth, TooDeepPrefix } from "../../src/shared/boundedJson.js";
import { applyDelta, denormalize, emptyTranscriptState } from "../../src/shared/delta/index.js";
import { parseLine } from "../../src/shared/protocol/parseMessage.js";
import { toClientEvents } from "../../src/shared/protocol/toClientEvents.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { LogBus } from "../../src/main/platform/logBus.js";
import { SessionManager } from "../../src/main/core/sessionManager.js";
import { readJsonlSync } from "../../src/main/history/jsonlReader.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { modelOf } from "../../src/main/hub/index.js";
import { emptyFacts } from "../../src/main/search/extract.js";
import { extractFile, type FileChunk } from "../../src/main/search/extractFile.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const Depth = 20_000;
const DeepObject = `${'{"a":'.repeat(Depth)}"bottomword"${"}".repeat(Depth)}`;
const DeepArray = `${"[".repeat(Depth)}1${"]".repeat(Depth)}`;
const NormalId = "11111111-1111-4111-8111-111111111111";
const DeepId = "22222222-2222-4222-8222-222222222222";
const Project = "-home-user-code-app";

/** A line as the CLI writes it, with `"__DEEP__"` swapped for a value too deep to build with JSON.stringify. */
function line(sessionId: string, n: number, fields: object, deep = DeepObject): string {
  const envelope = {
    sessionId,
    uuid: `${sessionId}-${n}`,
    parentUuid: n > 1 ? `${sessionId}-${n - 1}` : null,
    isSidechain: false,
    cwd: "/home/user/code/app",
    version: "2.1.197",
    timestamp: `2026-01-01T00:00:0${n}.000Z`,
  };
  return JSON.stringify({ ...envelope, ...fields }).replace('"__DEEP__"', deep);
}

/** A normal session, and one whose tool input, tool result and prompt each hold a 20,000-level value. */
function writeHistory(projectsDir: string): { normal: string; deep: string } {
  const dir = path.join(projectsDir, Project);
  fs.mkdirSync(dir, { recursive: true });
  const normal = path.join(dir, `${NormalId}.jsonl`);
  const deep = path.join(dir, `${DeepId}.jsonl`);
  fs.writeFileSync(normal, `${line(NormalId, 1, { type: "user", message: { role: "user", content: "zetaword in a normal session" } })}\n`);
  const lines = [
    line(DeepId, 1, { type: "user", message: { role: "user", content: "alphaword starts the session" } }),
    line(DeepId, 2, {
      type: "assistant",
      message: {
        id: "msg_1",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [
          { type: "text", text: "betaword before the call" },
          { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "gammaword --list", options: "__DEEP__" } },
        ],
      },
    }),
    line(
      DeepId,
      3,
      { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "__DEEP__" }] } },
      DeepArray,
    ),
    line(DeepId, 4, { type: "user", message: { role: "user", content: [{ type: "text", text: "deltaword asks again", extra: "__DEEP__" }] } }),
    line(DeepId, 5, { type: "assistant", message: { id: "msg_2", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "epsilonword after it all" }] } }),
  ];
  fs.writeFileSync(deep, `${lines.join("\n")}\n`);
  return { normal, deep };
}

/** JSON.stringify and structuredClone, as the WebSocket and the IPC bridge use them, succeed. */
function crossesBoundaries(value: unknown): void {
  expect(() => JSON.stringify(value)).not.toThrow();
  expect(() => structuredClone(value)).not.toThrow();
}

const tempDir = tempDirs("baton-deep-json-", "all");
let tmp: string;
let projects: string;
let files: { normal: string; deep: string };

beforeAll(() => {
  tmp = tempDir();
  projects = path.join(tmp, "projects");
  files = writeHistory(projects);
});

describe("a deeply nested value in a history file", () => {
  // Inline: the store's thread reads; worker: the extract worker reads every file (a large run).
  it.each([
    ["on the store's thread", { parallelBytes: Number.MAX_SAFE_INTEGER }],
    ["on the extract worker", { parallelBytes: 0, workerRead: { whileStarting: 0, warmUpBytes: 0 } }],
  ])("indexing completes %s, search finds both sessions, and the report names the deep file", { timeout: 60_000 }, async (_where, options) => {
    const store = new StoreService({ dbPath: path.join(tmp, `h-${options.parallelBytes}.db`), ...options });
    try {
      const report = await store.index(projects);
      expect(report.filesNew).toBe(2);
      expect(report.problems).toEqual([{ path: files.deep, message: expect.stringContaining(`nested more than ${MaxJsonDepth} levels deep`) as string }]);
      const sessionsOf = (word: string): string[] => store.search(word).map((h) => h.sessionId);
      expect(sessionsOf("zetaword")).toEqual([NormalId]);
      // Words beside the deep values: the prompt, the tool input's command, the prompt after them.
      for (const word of ["alphaword", "gammaword", "deltaword", "epsilonword"]) expect(sessionsOf(word)).toEqual([DeepId]);
      expect(store.search("gammaword")[0]!.snippet).toContain("gammaword");
    } finally {
      store.close();
    }
  });

  it("restores with every block, the deep parts cut to a marked stand-in, and a notice", async () => {
    const restored = await restoreSession(files.deep);
    const { blocks } = restored.transcript;
    const texts = blocks.map((b) => b.text ?? "");
    for (const word of ["alphaword", "betaword", "deltaword", "epsilonword"]) expect(texts.some((t) => t.includes(word))).toBe(true);
    const tool = blocks.find((b) => b.call?.toolUseId === "toolu_1")!;
    expect(tool.call!.input["command"]).toBe("gammaword --list");
    expect(tool.call!.status).toBe("completed");
    // The stand-in says what was there: how many levels more, and how much JSON.
    const standIn = /\[nested too deep to show: ([\d,]+) more levels, ([\d.]+) KB of JSON\]/.exec(JSON.stringify(tool.call!.input));
    expect(standIn).not.toBeNull();
    expect(Number(standIn![1]!.replace(/,/g, ""))).toBeGreaterThan(Depth - MaxJsonDepth - 10);
    const notices = blocks.filter((b) => b.kind === "notice" && b.text?.includes("nested more than"));
    expect(notices.length).toBe(3);
    expect(restored.problems).toContainEqual(expect.objectContaining({ kind: "too_deep_values", path: files.deep, count: 3 }));
    crossesBoundaries(restored.transcript);
  });

  it("opens in a tab: the delta the window gets crosses IPC and the WebSocket, and the Console says why it is cut", { timeout: 30_000 }, async () => {
    const log = new LogBus();
    const manager = new SessionManager({ claudePath: "claude-not-needed", history: createHistorySource({ projectsDir: projects }), publishIntervalMs: 5, log });
    try {
      const tab = await manager.openSession(DeepId);
      const deltas: TranscriptDelta[] = [];
      let stop: (() => void) | undefined;
      const transcript = await new Promise<Transcript>((resolve) => {
        let state = emptyTranscriptState();
        // The first delta comes during subscribe(), before `stop` is set.
        stop = manager.subscribeTranscript(tab.tabId, (delta) => {
          deltas.push(delta);
          state = applyDelta(state, delta);
          const t = denormalize(state);
          if (t.blocks.some((b) => b.text?.includes("epsilonword"))) resolve(t);
        });
      });
      stop?.();
      for (const delta of deltas) crossesBoundaries(delta);
      expect(transcript.blocks.find((b) => b.call?.toolUseId === "toolu_1")?.call?.input["command"]).toBe("gammaword --list");
      expect(transcript.blocks.some((b) => b.kind === "notice" && b.level === "warning" && b.text?.includes("nested"))).toBe(true);
      const warnings = log.entries().filter((e: LogEntry) => e.tabId === tab.tabId && e.level === "warning");
      expect(warnings).toContainEqual(expect.objectContaining({ message: expect.stringContaining("nested too deeply") as string, fields: { path: files.deep } }));
    } finally {
      await manager.shutdown();
    }
  });
});

describe("a deeply nested tool input on the CLI's stream", () => {
  it("parses, maps and reduces, and the transcript crosses to the window", () => {
    const text = JSON.stringify({
      type: "assistant",
      session_id: "s1",
      parent_tool_use_id: null,
      uuid: "u1",
      message: { id: "msg_live", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "tool_use", id: "toolu_live", name: "Bash", input: { command: "thetaword", deep: "__DEEP__" } }] },
    }).replace('"__DEEP__"', DeepObject);
    const parsed = parseLine(text, 1);
    if (!parsed.ok) throw new Error(parsed.problem.reason);
    const events = toClientEvents(parsed.message, 1);
    crossesBoundaries(events);
    const transcript = modelOf(events).transcript();
    const call = transcript.blocks.find((b) => b.call?.toolUseId === "toolu_live")!.call!;
    expect(call.input["command"]).toBe("thetaword");
    expect(JSON.stringify(call.input)).toContain(TooDeepPrefix);
    crossesBoundaries(transcript);
  });
});

describe("boundJsonDepth", () => {
  it("keeps a value within bounds as it is (no copy), and cuts only the too-deep part of one that is not", () => {
    const shallow = { a: [1, { b: "x" }], c: null };
    expect(boundJsonDepth(shallow)).toEqual({ value: shallow, cut: 0 });
    expect(boundJsonDepth(shallow).value).toBe(shallow);
    const deep = JSON.parse(`{"keep":{"k":1},"__proto__":{"own":true},"deep":${DeepArray}}`) as Record<string, unknown>;
    const { value, cut } = boundJsonDepth(deep, 3);
    expect(cut).toBe(1);
    expect(value.keep).toBe(deep.keep);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(JSON.stringify(value)).toBe(`{"keep":{"k":1},"__proto__":{"own":true},"deep":[["${TooDeepPrefix} 19,998 more levels, 39.1 KB of JSON]"]]}`);
  });
});

describe("a file that fails part way through", () => {
  it("ends at what was read and reports the failure, instead of failing the whole run", async () => {
    const chunks: FileChunk[] = [];
    // A read error after the second line, as a failing disk gives.
    const failing: typeof readJsonlSync = (file, options) =>
      readJsonlSync(file, {
        ...options,
        onRecord: (record) => {
          if (record.lineNumber === 3) throw Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" });
          return options.onRecord(record);
        },
      });
    const job = { path: files.deep, isMain: true, fromOffset: 0, fromLines: 0, facts: emptyFacts() };
    await extractFile(job, 0, 1, (chunk) => chunks.push(chunk), failing);
    const last = chunks.at(-1)!;
    expect(last.totals?.problems).toContainEqual(expect.stringMatching(/^could not be read past byte \d+: EIO/));
    // The chunks written before the failure are kept (here the first line's), and the file's
    // indexed end is where they end: the rest is read when the file changes.
    expect(chunks.flatMap((c) => c.batch.rows.map((r) => r.text)).join(" ")).toContain("alphaword");
    expect(last.offset).toBe(fs.readFileSync(files.deep, "utf8").indexOf("\n") + 1);
  });
});

// Opening a big past session on its newest blocks: the first screen, read backwards from the end
// of the file, must show exactly what the full restore shows for those blocks (ids, statuses,
// subagent summaries), whatever the chunk size, and cope with damaged or unfinished last lines.

import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EarlierBlocksNoticeId, restoreFirstScreen, type FirstScreen } from "../../src/main/history/firstScreen.js";
import { restoreSession, type RestoreResult } from "../../src/main/history/restore.js";
import { TailReader } from "../../src/main/history/tailReader.js";
import type { Block, Transcript } from "../../src/shared/transcript.js";
import { filler, SessionWriter, writeBigSession } from "./historyFirstScreenKit.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-first-screen-", "all");

/** Synthetic `notice:N` ids count from the session's start, which a window cannot know: compare them by content. */
function comparable(blocks: readonly Block[]): unknown[] {
  return blocks.map((b) => (b.kind === "notice" && b.id.startsWith("notice:") ? { ...b, id: "notice" } : b));
}

function windowBlocks(first: FirstScreen): readonly Block[] {
  return first.transcript.blocks.filter((b) => b.id !== EarlierBlocksNoticeId);
}

function header(t: Transcript): Omit<Transcript, "blocks"> {
  const { blocks: _blocks, ...rest } = t;
  return rest;
}

describe("first screen of a big session", () => {
  let session: SessionWriter;
  let full: RestoreResult;
  let first: FirstScreen;

  beforeAll(async () => {
    session = writeBigSession(tempDir(), 20 * 1024 * 1024);
    full = await restoreSession(session.file);
    first = await restoreFirstScreen(session.sessionId, { projectsDir: path.dirname(session.projectDir), minBlocks: 50 });
  }, 120_000);

  it("holds exactly the newest blocks of the full restore: ids, statuses, subagent summaries", () => {
    const blocks = windowBlocks(first);
    expect(blocks.length).toBeGreaterThanOrEqual(50);
    expect(blocks.length).toBe(first.blockCount);
    expect(blocks.length).toBeLessThan(full.transcript.blocks.length);
    expect(comparable(blocks)).toEqual(comparable(full.transcript.blocks.slice(-blocks.length)));
    expect(header(first.transcript)).toEqual(header(full.transcript));
    expect(first.transcript.title).toBe("Conducting a big session");
  });

  it("shows the subagents of its window as the full restore does", () => {
    const records = windowBlocks(first).flatMap((b) => (b.call?.subagent !== undefined ? [b.call.subagent] : []));
    expect(records.map((r) => r.status)).toEqual(expect.arrayContaining(["completed", "stopped"]));
    const background = records.find((r) => r.summaryMarkdown === "Background work finished: all green");
    expect(background).toMatchObject({ status: "completed", background: true, totalTokens: 999 });
    expect(records.find((r) => r.description !== "" && r.sidechainPath === undefined)).toBeUndefined();
    expect(records.every((r) => r.taskId.startsWith("a"))).toBe(true);
  });

  it("says that earlier blocks are still loading, and where its window starts", () => {
    expect(first.complete).toBe(false);
    expect(first.transcript.blocks[0]).toMatchObject({ id: EarlierBlocksNoticeId, kind: "notice" });
    expect(first.startOffset).toBeGreaterThan(0);
    expect(first.endOffset).toBe(statSync(session.file).size);
    // The window starts at a line of the file, on the prompt that opens a turn.
    const bytes = readFileSync(session.file);
    expect(bytes[first.startOffset - 1]).toBe(10);
    expect(JSON.parse(bytes.subarray(first.startOffset, bytes.indexOf(10, first.startOffset)).toString("utf8"))).toMatchObject({ type: "user" });
    // Far less than the file was needed.
    expect(first.startOffset).toBeGreaterThan(bytes.length / 2);
  });

  it("is the same with chunks smaller than a line (lines and characters cut at chunk edges)", async () => {
    const small = await restoreFirstScreen(session.file, { minBlocks: 50, chunkBytes: 1000 });
    expect(small.startOffset).toBe(first.startOffset);
    expect(small.transcript).toEqual(first.transcript);
  });

  it("grows the window for more blocks", async () => {
    const more = await restoreFirstScreen(session.file, { minBlocks: 400 });
    const blocks = windowBlocks(more);
    expect(blocks.length).toBeGreaterThanOrEqual(400);
    expect(more.startOffset).toBeLessThan(first.startOffset);
    expect(comparable(blocks)).toEqual(comparable(full.transcript.blocks.slice(-blocks.length)));
  });

  it("its subagent cards load their own transcripts", async () => {
    const { loadSubagentBlocks } = await import("../../src/main/history/historySession.js");
    const agent = windowBlocks(first).find((b) => b.call?.subagent?.status === "completed" && b.call.subagent.background === false)!;
    const blocks = await loadSubagentBlocks(first.session, agent.id);
    expect(blocks.map((b) => b.text)).toEqual([agent.call?.subagent?.summaryMarkdown]);
  });
});

describe("first screen of small and damaged files", () => {
  function smallSession(): SessionWriter {
    const w = new SessionWriter(path.join(tempDir(), "-home-user-code-x"), "5e55f1e5-0000-4000-8000-000000000005");
    w.raw({ type: "custom-title", customTitle: "Small one", sessionId: w.sessionId });
    w.prompt("hello");
    w.tool("one");
    w.agent("sub done");
    w.interrupt();
    w.prompt("again");
    w.assistant({ type: "text", text: "bye 👋" });
    w.flush();
    return w;
  }

  it("a file smaller than one chunk is complete: the full restore itself, no notice", async () => {
    const w = smallSession();
    const first = await restoreFirstScreen(w.file);
    const full = await restoreSession(w.file);
    expect(first.complete).toBe(true);
    expect(first.startOffset).toBe(0);
    expect(first.transcript).toEqual(full.transcript);
    expect(first.transcript.blocks.some((b) => b.id === EarlierBlocksNoticeId)).toBe(false);
  });

  it("reads an unterminated last line of a finished file, as the full restore does", async () => {
    const w = smallSession();
    const last = JSON.stringify({ parentUuid: null, isSidechain: false, type: "assistant", uuid: "u-last", sessionId: w.sessionId, message: { id: "msg_last", role: "assistant", content: [{ type: "text", text: "no newline after me" }] } });
    appendFileSync(w.file, last);
    const first = await restoreFirstScreen(w.file, { minBlocks: 2 });
    const full = await restoreSession(w.file);
    expect(windowBlocks(first).at(-1)?.text).toBe("no newline after me");
    expect(comparable(windowBlocks(first))).toEqual(comparable(full.transcript.blocks.slice(-windowBlocks(first).length)));
    expect(first.endOffset).toBe(statSync(w.file).size);
  });

  it("skips a half-written last line, counting it; live, it is left for later", async () => {
    const w = smallSession();
    const before = statSync(w.file).size;
    appendFileSync(w.file, '{"type":"assistant","uuid":"u-half","message":{"content":[{"type":"te');
    const first = await restoreFirstScreen(w.file);
    expect(first.transcript.blocks.at(-1)?.text).toBe("bye 👋");
    expect(first.problems).toEqual([expect.objectContaining({ kind: "bad_lines", message: expect.stringContaining("1 truncated") })]);
    const live = await restoreFirstScreen(w.file, { live: true });
    expect(live.endOffset).toBe(before);
    expect(live.problems).toEqual([]);
    expect(live.transcript.blocks.at(-1)?.text).toBe("bye 👋");
  });

  it("handles a line longer than the chunk size", async () => {
    const w = smallSession();
    const huge = filler(3, 300_000);
    w.prompt("a huge output next");
    w.tool(huge);
    w.flush();
    const first = await restoreFirstScreen(w.file, { minBlocks: 2, chunkBytes: 4096 });
    const tool = windowBlocks(first).find((b) => b.call?.result?.text === huge);
    expect(tool?.call?.status).toBe("completed");
    expect(first.startOffset).toBeGreaterThan(0);
  });

  it("starts inside a very long turn when no prompt is near the end; results of earlier calls stay out", async () => {
    const w = new SessionWriter(path.join(tempDir(), "-home-user-code-x"), "5e55f1e5-0000-4000-8000-000000000010");
    w.prompt("one long autonomous turn");
    for (let i = 0; i < 400; i++) {
      // Calls answered out of order: the window's first lines are results of calls before it.
      const a = w.id("toolu_");
      const b = w.id("toolu_");
      w.assistant({ type: "tool_use", id: a, name: "Read", input: { file_path: `/home/user/code/x/${i}.ts` } });
      w.assistant({ type: "tool_use", id: b, name: "Grep", input: { pattern: `p${i}` } });
      w.result(a, filler(i, 200));
      w.result(b, filler(i + 1, 200));
      if (i % 50 === 7) w.agent(`sub ${i} done`);
    }
    w.flush();
    const full = await restoreSession(w.file);
    for (const [minBlocks, chunkBytes] of [[49, 4096], [50, 4096], [51, 256 * 1024]] as const) {
      const first = await restoreFirstScreen(w.file, { minBlocks, chunkBytes });
      const blocks = windowBlocks(first);
      expect(first.complete).toBe(false);
      expect(blocks.length).toBeGreaterThanOrEqual(minBlocks);
      expect(blocks.length).toBeLessThan(400);
      expect(blocks.every((b) => b.call?.name !== "")).toBe(true);
      expect(blocks).toEqual(full.transcript.blocks.slice(-blocks.length));
    }
  });

  it("stops at its byte cap with fewer blocks rather than read on", async () => {
    const w = smallSession();
    for (let i = 0; i < 30; i++) {
      w.prompt(`big turn ${i}`);
      w.tool(filler(i, 20_000));
    }
    w.flush();
    const full = await restoreSession(w.file);
    const first = await restoreFirstScreen(w.file, { minBlocks: 50, chunkBytes: 8192, maxBytes: 100_000 });
    const blocks = windowBlocks(first);
    expect(first.complete).toBe(false);
    expect(statSync(w.file).size - first.startOffset).toBeLessThan(100_000 + 8192);
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.length).toBeLessThan(50);
    expect(blocks[0]?.kind).toBe("user");
    expect(blocks).toEqual(full.transcript.blocks.slice(-blocks.length));
  });

  it("a missing session is a typed not_found error", async () => {
    await expect(restoreFirstScreen("no-such-session", { projectsDir: tempDir() })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("TailReader", () => {
  it("gives every line back, newest first, for any chunk size; multi-byte characters intact", async () => {
    const dir = tempDir();
    const file = path.join(dir, "lines.jsonl");
    const lines = Array.from({ length: 60 }, (_, i) => (i % 7 === 3 ? "" : JSON.stringify({ i, text: filler(i, (i * 97) % 300) })));
    const text = `${lines.join("\n")}\n${JSON.stringify({ last: "unterminated 🎼" })}`;
    writeFileSync(file, text);
    const expected = [...text.split("\n").entries()].filter(([, l]) => l !== "").reverse();
    const size = statSync(file).size;
    for (const chunkBytes of [3, 5, 64, 333, 4096, 1 << 20]) {
      const handle = await open(file, "r");
      try {
        const reader = new TailReader(handle, { end: size, chunkBytes });
        const got: { text: string; offset: number; terminated: boolean }[] = [];
        while (!reader.done) for (const l of await reader.next()) got.push({ text: l.bytes.toString("utf8"), offset: l.offset, terminated: l.terminated });
        expect(got.map((g) => g.text)).toEqual(expected.map(([, l]) => l));
        expect(got.map((g) => g.terminated)).toEqual(expected.map(([, l], k) => k !== 0 || !l.includes("unterminated")));
        const offsets = got.map((g) => Buffer.from(text).indexOf(Buffer.from(g.text)));
        expect(got.map((g) => g.offset)).toEqual(offsets);
      } finally {
        await handle.close();
      }
    }
  });

  it("marks a line over the cap as too long without keeping it", async () => {
    const dir = tempDir();
    const file = path.join(dir, "long.jsonl");
    writeFileSync(file, `{"a":1}\n${"x".repeat(5000)}\n{"b":2}\n`);
    const handle = await open(file, "r");
    try {
      const reader = new TailReader(handle, { end: statSync(file).size, chunkBytes: 512, maxLineBytes: 1000 });
      const got: { tooLong: boolean; length: number }[] = [];
      while (!reader.done) for (const l of await reader.next()) got.push({ tooLong: l.tooLong, length: l.bytes.length });
      expect(got).toEqual([{ tooLong: false, length: 7 }, { tooLong: true, length: 0 }, { tooLong: false, length: 7 }]);
    } finally {
      await handle.close();
    }
  });
});

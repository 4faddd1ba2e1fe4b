import { appendFileSync, mkdirSync, renameSync, statSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileIdentity, followJsonl, followTranscript, type Follower } from "../../src/main/history/tail.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { createHistorySource } from "../../src/main/core/historySource.js";
import type { ClientEvent } from "../../src/shared/events.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-tail-");
let dir: string;
const followers: Follower[] = [];
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => {
  followers.splice(0).forEach((f) => f.stop());
});

async function waitFor(what: string, ok: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const line = (o: object) => `${JSON.stringify(o)}\n`;

describe("followJsonl", () => {
  it("emits a line written in two halves once, whole, when it is complete", async () => {
    const file = path.join(dir, "s.jsonl");
    writeFileSync(file, line({ n: 1 }));
    const seen: unknown[] = [];
    const f = followJsonl(file, { pollMs: 20, onRecords: (rs) => rs.forEach((r) => seen.push(r.value)) });
    followers.push(f);
    await waitFor("first line", () => seen.length === 1);
    const whole = line({ n: 2, text: "a longer line, written by a slow writer" });
    appendFileSync(file, whole.slice(0, 15));
    await f.check();
    expect(seen).toEqual([{ n: 1 }]);
    appendFileSync(file, whole.slice(15));
    await waitFor("second line", () => seen.length === 2);
    await f.check();
    expect(seen).toEqual([{ n: 1 }, { n: 2, text: "a longer line, written by a slow writer" }]);
  });

  it("reads again from the start when the file is truncated", async () => {
    const file = path.join(dir, "t.jsonl");
    writeFileSync(file, line({ n: 1 }) + line({ n: 2 }));
    const seen: unknown[] = [];
    let resets = 0;
    const f = followJsonl(file, { pollMs: 20, onReset: () => (resets++, seen.splice(0)), onRecords: (rs) => rs.forEach((r) => seen.push(r.value)) });
    followers.push(f);
    await waitFor("two lines", () => seen.length === 2);
    truncateSync(file, 0);
    writeFileSync(file, line({ n: 9 }));
    await waitFor("reset and re-read", () => resets === 1 && seen.length === 1);
    expect(seen).toEqual([{ n: 9 }]);
  });

  it("reads the new file when it is replaced by another one", async () => {
    const file = path.join(dir, "r.jsonl");
    writeFileSync(file, line({ old: 1 }) + line({ old: 2 }) + line({ old: 3 }));
    const seen: unknown[] = [];
    let resets = 0;
    const f = followJsonl(file, { pollMs: 20, onReset: () => (resets++, seen.splice(0)), onRecords: (rs) => rs.forEach((r) => seen.push(r.value)) });
    followers.push(f);
    await waitFor("old lines", () => seen.length === 3);
    const next = path.join(dir, "r.next");
    writeFileSync(next, line({ fresh: 1 }) + line({ fresh: 2 }) + line({ fresh: 3 }) + line({ fresh: 4 }));
    renameSync(next, file);
    await waitFor("the replacement", () => resets >= 1 && seen.length === 4);
    expect(seen).toEqual([{ fresh: 1 }, { fresh: 2 }, { fresh: 3 }, { fresh: 4 }]);
  });

  it("reads again from the start a file replaced (by one of the same size) after it was read and before it is followed", async () => {
    const file = path.join(dir, "early.jsonl");
    writeFileSync(file, line({ n: 1 }));
    // What a restore does: the identity taken, the file read up to its end.
    const identity = await fileIdentity(file);
    const offset = statSync(file).size;
    const next = path.join(dir, "early.next");
    writeFileSync(next, line({ n: 2 }));
    renameSync(next, file);
    let resets = 0;
    const seen: unknown[] = [];
    const f = followJsonl(file, { offset, ...(identity !== undefined ? { identity } : {}), pollMs: 20, onReset: () => void resets++, onRecords: (rs) => rs.forEach((r) => seen.push(r.value)) });
    followers.push(f);
    await f.check();
    expect([resets, seen]).toEqual([1, [{ n: 2 }]]);
  });

  it("emits nothing after stop", async () => {
    const file = path.join(dir, "stop.jsonl");
    writeFileSync(file, line({ n: 1 }));
    const seen: unknown[] = [];
    const f = followJsonl(file, { pollMs: 20, onRecords: (rs) => rs.forEach((r) => seen.push(r.value)) });
    await waitFor("first line", () => seen.length === 1);
    f.stop();
    appendFileSync(file, line({ n: 2 }));
    await f.check();
    expect(seen).toEqual([{ n: 1 }]);
  });
});

describe("followTranscript after a live restore", () => {
  it("continues the restored session with the lines the CLI appends", async () => {
    const project = path.join(dir, "-home-user-code-live");
    const sessionId = "0c0c0c0c-1111-4222-8333-444444444444";
    const file = path.join(project, `${sessionId}.jsonl`);
    const base = { sessionId, cwd: "/home/user/code/live", version: "2.1.197", isSidechain: false };
    const prompt = { ...base, type: "user", uuid: "u1", message: { role: "user", content: "hi" } };
    const answer = { ...base, type: "assistant", uuid: "a1", message: { id: "m1", role: "assistant", model: "m", content: [{ type: "text", text: "hello" }] } };
    mkdirSync(project, { recursive: true });
    writeFileSync(file, line(prompt) + line(answer).slice(0, 30));
    const { session } = await restoreSession(file, { live: true });
    expect(session.model.transcript().blocks.map((b) => b.kind)).toEqual(["user"]);
    const events: ClientEvent[] = [];
    const f = followTranscript(file, { offset: session.offset, stream: session.stream, pollMs: 20, onEvents: (e) => events.push(...e) });
    followers.push(f);
    appendFileSync(file, line(answer).slice(30));
    await waitFor("the answer", () => events.length > 0);
    session.model.apply(events);
    const t = session.model.transcript();
    expect(t.cwd).toBe("/home/user/code/live");
    expect(t.blocks.map((b) => [b.kind, b.text])).toEqual([
      ["user", "hi"],
      ["text", "hello"],
    ]);
  });
});

describe("a restored tab follows its session file", () => {
  const sessionId = "0d0d0d0d-1111-4222-8333-444444444444";
  const base = { sessionId, cwd: "/home/user/code/term", version: "2.1.197", isSidechain: false };
  const prompt = (uuid: string, text: string) => line({ ...base, type: "user", uuid, timestamp: "2026-11-30T02:00:00.000Z", message: { role: "user", content: text } });
  const answer = (uuid: string, text: string) =>
    line({ ...base, type: "assistant", uuid, timestamp: "2026-11-30T02:00:01.000Z", message: { id: `m-${uuid}`, role: "assistant", model: "m", content: [{ type: "text", text }] } });

  it("shows what a terminal session appends, tells the tab, and stops when the tab closes", async () => {
    const project = path.join(dir, "-home-user-code-term");
    const file = path.join(project, `${sessionId}.jsonl`);
    mkdirSync(project, { recursive: true });
    writeFileSync(file, prompt("u1", "first question") + answer("a1", "first answer"));
    const restored = await createHistorySource({ projectsDir: dir }).restore(sessionId);
    let changes = 0;
    const errors: unknown[] = [];
    restored.follow?.(() => changes++, (e) => errors.push(e));
    const texts = () => restored.transcript().blocks.map((b) => b.text);
    expect(texts()).toEqual(["first question", "first answer"]);

    appendFileSync(file, prompt("u2", "second question") + answer("a2", "second answer"));
    await waitFor("the appended turn", () => texts().length === 4);
    expect(texts()).toEqual(["first question", "first answer", "second question", "second answer"]);
    expect(changes).toBeGreaterThan(0);

    restored.close?.();
    const seen = changes;
    // A witness following the same file shows when the tab would have seen the line too.
    let witnessed = 0;
    const witness = followJsonl(file, { offset: statSync(file).size, pollMs: 20, onRecords: (rs) => (witnessed += rs.length) });
    followers.push(witness);
    appendFileSync(file, prompt("u3", "after the tab closed"));
    await waitFor("the witness to read the new line", () => witnessed === 1);
    await witness.check();
    expect(changes).toBe(seen);
    expect(texts()).toHaveLength(4);
    expect(errors).toEqual([]);
  });
});


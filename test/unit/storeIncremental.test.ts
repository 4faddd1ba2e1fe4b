import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-incr-");
let dir: string;
let projects: string;
let file: string;
let dbPath: string;
let store: StoreService;
let clock = 0;

beforeEach(() => {
  dir = tempDir();
  projects = path.join(dir, "projects");
  file = path.join(projects, "-home-user-code-x", "s1.jsonl");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  dbPath = path.join(dir, "h.db");
  store = new StoreService({ dbPath, batchBytes: 256 });
});
afterEach(() => {
  store.close();
});

function prompt(text: string): string {
  clock++;
  const ts = new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString();
  return `${JSON.stringify({ type: "user", message: { role: "user", content: text }, uuid: `u${clock}`, timestamp: ts, sessionId: "s1", cwd: "/home/user/code/x" })}\n`;
}

function fileRow(): { indexed_offset: number; line_count: number; size: number } {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare("SELECT indexed_offset, line_count, size FROM files WHERE path = ?").get(file) as never;
  } finally {
    db.close();
  }
}

const sessionsOf = (q: string): string[] => store.search(q).map((h) => h.sessionId);

describe("incremental indexing", () => {
  it("a file another indexer (another process) added meanwhile is seen as known, not added twice", async () => {
    await store.index(projects);
    fs.writeFileSync(file, prompt("mike one") + prompt("mike two"));
    const other = new StoreService({ dbPath });
    try {
      expect((await other.index(projects)).filesNew).toBe(1);
    } finally {
      other.close();
    }
    const again = await store.index(projects);
    expect(again).toMatchObject({ filesNew: 0, filesSkipped: 1, rowsAdded: 0 });
    expect(store.search("mike")).toHaveLength(2);
  });

  it("a slash command counts as a prompt, its output does not, and neither names the session", async () => {
    const echo = "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>";
    fs.writeFileSync(file, prompt(echo) + prompt("<local-command-stdout>Set model to opus</local-command-stdout>") + prompt("golf: fix the parser"));
    await store.index(projects);
    expect(store.listSessions()[0]).toMatchObject({ promptCount: 2, title: "golf: fix the parser" });
  });

  it("indexes a subagent's answer without the note the CLI appends for the model", async () => {
    const result = {
      type: "user",
      uuid: "u-result",
      timestamp: "2026-01-01T00:00:09.000Z",
      sessionId: "s1",
      cwd: "/home/user/code/x",
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_A", content: "Juliet found the bug.\nagentId: a0123456789abcdef (use SendMessage with to: 'a0123456789abcdef' to continue this agent)\n<usage>subagent_tokens: 9</usage>" }],
      },
    };
    fs.writeFileSync(file, prompt("go") + `${JSON.stringify(result)}\n`);
    await store.index(projects);
    expect(sessionsOf("juliet")).toEqual(["s1"]);
    expect(sessionsOf("SendMessage")).toEqual([]);
    expect(sessionsOf("subagent_tokens")).toEqual([]);
  });

  it("a re-scan of unchanged files reads nothing", async () => {
    fs.writeFileSync(file, prompt("alpha one") + prompt("alpha two"));
    const first = await store.index(projects);
    expect(first.filesNew).toBe(1);
    // Two prompts and the row naming the project folder.
    expect(first.rowsAdded).toBe(3);
    const again = await store.index(projects);
    expect(again).toMatchObject({ filesSeen: 1, filesSkipped: 1, bytesRead: 0, rowsAdded: 0, sessionsChanged: 0 });
  });

  it("appended lines: only the new bytes are read, only new rows added, the offset advances", async () => {
    fs.writeFileSync(file, prompt("alpha one") + prompt("alpha two") + prompt("alpha three"));
    await store.index(projects);
    const before = fileRow();
    const appended = prompt("bravo four") + prompt("bravo five");
    fs.appendFileSync(file, appended);

    const report = await store.index(projects);
    expect(report).toMatchObject({ filesAppended: 1, filesReindexed: 0, rowsAdded: 2 });
    expect(report.bytesRead).toBe(Buffer.byteLength(appended));
    const after = fileRow();
    expect(after.indexed_offset).toBe(before.indexed_offset + Buffer.byteLength(appended));
    expect(after.line_count).toBe(5);
    expect(store.search("alpha")).toHaveLength(3);
    expect(store.search("bravo").map((h) => h.ref)).toEqual(expect.arrayContaining(["4#0", "5#0"]));
    expect(store.listSessions()[0]?.promptCount).toBe(5);
  });

  it("append after append: each re-scan reads only the new bytes, and an unchanged one reads nothing", async () => {
    fs.writeFileSync(file, prompt("oscar one") + prompt("oscar two"));
    await store.index(projects);
    for (const text of ["oscar three", "oscar four"]) {
      const more = prompt(text);
      fs.appendFileSync(file, more);
      expect(await store.index(projects)).toMatchObject({ filesAppended: 1, rowsAdded: 1, bytesRead: Buffer.byteLength(more) });
      expect(await store.index(projects)).toMatchObject({ filesSkipped: 1, bytesRead: 0 });
    }
    expect(store.search("oscar")).toHaveLength(4);
    expect(fileRow()).toMatchObject({ line_count: 4, indexed_offset: fs.statSync(file).size });
  });

  it("holds back a half-written last line until it is complete", async () => {
    fs.writeFileSync(file, prompt("alpha one"));
    await store.index(projects);
    const whole = prompt("charlie half");
    fs.appendFileSync(file, whole.slice(0, 30));
    const partial = await store.index(projects);
    expect(partial).toMatchObject({ filesAppended: 1, rowsAdded: 0, bytesRead: 0 });
    expect(sessionsOf("charlie")).toEqual([]);
    fs.appendFileSync(file, whole.slice(30));
    const done = await store.index(projects);
    expect(done.rowsAdded).toBe(1);
    expect(sessionsOf("charlie")).toEqual(["s1"]);
  });

  it("a truncated file is re-indexed from scratch", async () => {
    fs.writeFileSync(file, prompt("alpha one") + prompt("delta two") + prompt("delta three"));
    await store.index(projects);
    fs.writeFileSync(file, prompt("echo only"));
    const report = await store.index(projects);
    expect(report.filesReindexed).toBe(1);
    expect(sessionsOf("delta")).toEqual([]);
    expect(sessionsOf("alpha")).toEqual([]);
    expect(sessionsOf("echo")).toEqual(["s1"]);
    expect(store.listSessions()[0]?.promptCount).toBe(1);
  });

  it("a file truncated and regrown past the old offset is re-indexed (the indexed bytes changed)", async () => {
    fs.writeFileSync(file, prompt("alpha one") + prompt("alpha two"));
    await store.index(projects);
    fs.truncateSync(file, 0);
    fs.appendFileSync(file, prompt("foxtrot one") + prompt("foxtrot two") + prompt("foxtrot three"));
    const report = await store.index(projects);
    expect(report.filesReindexed).toBe(1);
    expect(sessionsOf("alpha")).toEqual([]);
    expect(store.search("foxtrot")).toHaveLength(3);
  });

  it("a replaced file (new inode) is re-indexed from scratch", async () => {
    fs.writeFileSync(file, prompt("alpha one"));
    await store.index(projects);
    const replacement = `${file}.tmp`;
    fs.writeFileSync(replacement, prompt("golf one") + prompt("alpha two"));
    fs.renameSync(replacement, file);
    const report = await store.index(projects);
    expect(report.filesReindexed).toBe(1);
    expect(store.search("alpha").map((h) => h.ref)).toEqual(["2#0"]);
    expect(sessionsOf("golf")).toEqual(["s1"]);
  });

  it("a deleted file takes its rows and its session with it", async () => {
    fs.writeFileSync(file, prompt("hotel one"));
    await store.index(projects);
    fs.rmSync(file);
    const report = await store.index(projects);
    expect(report.filesRemoved).toBe(1);
    expect(sessionsOf("hotel")).toEqual([]);
    expect(store.listSessions()).toEqual([]);
  });

  it("skips a malformed line, counts it, and indexes the rest", async () => {
    fs.writeFileSync(file, `${prompt("india one")}{"type":"user", broken\n${prompt("india two")}`);
    const report = await store.index(projects);
    expect(report.badLines).toBe(1);
    expect(store.search("india")).toHaveLength(2);
  });

  it("attributes a root-layout sidechain (CLI 2.0.x) to the session named inside it, and skips compaction agents", async () => {
    fs.writeFileSync(file, prompt("kilo main"));
    const side = (agentId: string, text: string): string =>
      `${JSON.stringify({ type: "user", isSidechain: true, agentId, sessionId: "s1", message: { role: "user", content: text }, timestamp: "2026-01-01T00:00:09.000Z" })}\n`;
    fs.writeFileSync(path.join(path.dirname(file), "agent-old1.jsonl"), side("old1", "lima from the old layout"));
    fs.writeFileSync(path.join(path.dirname(file), "agent-acompact-x.jsonl"), side("acompact-x", "lima compaction request"));
    await store.index(projects);
    const hits = store.search("lima");
    expect(hits.map((h) => [h.sessionId, h.subagent?.agentId])).toEqual([["s1", "old1"]]);
    expect(store.listSessions().map((s) => s.id)).toEqual(["s1"]);
  });
});

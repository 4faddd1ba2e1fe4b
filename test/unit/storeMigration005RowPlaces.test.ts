// Migration 5: no table row per text row; each chunk of a file keeps its rows' places in
// file_rows, and an upgraded index re-reads every file once.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { FTS_HASHSIZE, FTS_PGSZ } from "../../src/main/search/migrations/m003FtsTuning.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { expectUpgraded, ftsConfig, indexedAt, promptLine as prompt, writeSession } from "../support/legacyIndex.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-m005-");

/** A session file and a version-4 index that has read it whole, as the v4 indexer left it. */
function v4Index(dir: string): { projects: string; file: string; dbPath: string } {
  const first = prompt("u1", "a plain first line", "2026-01-01T00:00:00.000Z");
  const { projects, file } = writeSession(dir, [first, prompt("u2", "upgrade keeps quokka", "2026-01-02T00:00:00.000Z")]);
  const dbPath = path.join(dir, "h.db");
  const db = indexedAt(dbPath, 4, file, 2);
  db.prepare("INSERT INTO search_text (rowid, text) VALUES (1, 'a plain first line'), (2, 'upgrade keeps quokka')").run();
  db.prepare(
    `INSERT INTO search_rows (id, file_id, kind, time, ref, line_offset) VALUES
       (1, 1, 'prompt', '2026-01-01T00:00:00.000Z', '1#0', 0), (2, 1, 'prompt', '2026-01-02T00:00:00.000Z', '2#0', ?)`,
  ).run(Buffer.byteLength(first) + 1);
  db.prepare("INSERT INTO file_rows (file_id, lo, hi) VALUES (1, 1, 2)").run();
  db.close();
  return { projects, file, dbPath };
}

describe("migration 5 (row places per chunk)", () => {
  it("upgrades a version-4 index: no per-row table, an empty text index, every file marked for re-reading", () => {
    const { dbPath } = v4Index(tempDir());
    const db = new Database(dbPath);
    expectUpgraded(db, 5);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'search_rows'").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM search_text WHERE search_text MATCH 'quokka'").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM file_rows").pluck().get()).toBe(0);
    expect(ftsConfig(db)).toMatchObject({ pgsz: FTS_PGSZ, hashsize: FTS_HASHSIZE });
    db.close();
  });

  it("the next scan re-reads the file once: each hit names its kind, place and time, filtered by session", async () => {
    const { projects, dbPath } = v4Index(tempDir());
    const store = new StoreService({ dbPath });
    try {
      const report = await store.index(projects);
      // Two prompts, and (since version 6) the row naming the session's project folder.
      expect(report).toMatchObject({ filesReindexed: 1, rowsTotal: 3 });
      const hit = { sessionId: "s1", kind: "prompt", ref: "2#0", time: "2026-01-02T00:00:00.000Z", snippet: "upgrade keeps «quokka»" };
      expect(store.search("quokka")).toMatchObject([hit]);
      expect(store.search("quokka", { sessionId: "s1" })).toMatchObject([hit]);
      expect(store.search("quokka", { sessionId: "s2" })).toEqual([]);
      expect(store.search("plain").map((h) => [h.ref, h.time])).toEqual([["1#0", "2026-01-01T00:00:00.000Z"]]);
    } finally {
      store.close();
    }
  });
});

describe("row places", () => {
  it("a line holding two glued JSON objects: each object's rows are found and shown as their own", async () => {
    const dir = tempDir();
    const projects = path.join(dir, "projects");
    const file = path.join(projects, "-home-user-code-x", "s1.jsonl");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const first = prompt("u1", "opening words", "2026-01-01T00:00:00.000Z");
    const glued = prompt("u2", "the glued wombat", "2026-01-02T00:00:00.000Z") + prompt("u3", "the glued quokka", "2026-01-03T00:00:00.000Z");
    fs.writeFileSync(file, `${first}\n${glued}\n`);
    const store = new StoreService({ dbPath: path.join(dir, "h.db") });
    try {
      await store.index(projects);
      // Both objects are line 2, event 0: the place tells them apart by their order on the line.
      expect(store.search("wombat").map((h) => [h.ref, h.time, h.snippet])).toEqual([["2#0", "2026-01-02T00:00:00.000Z", "the glued «wombat»"]]);
      expect(store.search("quokka").map((h) => [h.ref, h.time, h.snippet])).toEqual([["2#0", "2026-01-03T00:00:00.000Z", "the glued «quokka»"]]);
    } finally {
      store.close();
    }
  });

  it("many chunks of one file and of several files: every hit comes from its own file and line", async () => {
    const dir = tempDir();
    const projects = path.join(dir, "projects");
    const lines = (session: string): string =>
      Array.from({ length: 300 }, (_, i) => JSON.stringify({ type: "user", message: { role: "user", content: `word${i} in ${session}` }, uuid: `${session}-${i}`, timestamp: "2026-01-01T00:00:00.000Z", sessionId: session })).join("\n") + "\n";
    for (const session of ["s1", "s2"]) {
      const file = path.join(projects, "-home-user-code-x", `${session}.jsonl`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, lines(session));
    }
    // Small chunks: each file is written as many file_rows entries, one after the other.
    const store = new StoreService({ dbPath: path.join(dir, "h.db"), batchBytes: 4096 });
    try {
      await store.index(projects);
      for (const i of [0, 1, 137, 299]) {
        expect(store.search(`word${i}`).map((h) => [h.sessionId, h.ref, h.snippet]).sort()).toEqual([
          ["s1", `${i + 1}#0`, `«word${i}» in s1`],
          ["s2", `${i + 1}#0`, `«word${i}» in s2`],
        ]);
        expect(store.search(`word${i}`, { sessionId: "s2" }).map((h) => h.snippet)).toEqual([`«word${i}» in s2`]);
      }
    } finally {
      store.close();
    }
  });
});

// Migration 6: a session is its project folder and id (sessions.key), and the full-text index holds
// whole texts in pieces, CJK pairs, titles and project folders. The catalogue is kept (each file,
// each session under each folder its files are in), every file is read again, and the store says
// it upgraded; the side file of the old index goes with its rows.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrate } from "../../src/main/platform/sqlite/migrate.js";
import { sideDbPath, SIDE_ROWID_BASE } from "../../src/main/search/sideIndex.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { expectUpgraded, indexedAt, promptLine as prompt, writeSession } from "../support/legacyIndex.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-m006-");

/**
 * A version-5 index that has read session s1 in `-home-user-code-x` and a copy of it (same name) in
 * `-home-user-code-y`: keyed by id alone, one sessions row for both, as v5 left it.
 */
function v5Index(dir: string): { projects: string; dbPath: string } {
  const { projects, file } = writeSession(dir, [prompt("u1", "first words"), prompt("u2", "upgrade keeps quokka")]);
  const copy = path.join(projects, "-home-user-code-y", "s1.jsonl");
  fs.mkdirSync(path.dirname(copy), { recursive: true });
  fs.writeFileSync(copy, fs.readFileSync(file, "utf8").replaceAll("/home/user/code/x", "/home/user/code/y"));
  const dbPath = path.join(dir, "h.db");
  const db = indexedAt(dbPath, 5, file, 2);
  const st = fs.statSync(copy);
  db.prepare(
    `INSERT INTO files (id, path, session_id, project, size, identity, mtime_ms, indexed_offset, line_count, prompt_count)
     VALUES (2, ?, 's1', '-home-user-code-y', ?, ?, ?, ?, 2, 2)`,
  ).run(copy, st.size, `${st.dev}:${st.ino}`, st.mtimeMs, st.size);
  db.prepare("INSERT INTO search_text (rowid, text) VALUES (1, 'first words'), (2, 'upgrade keeps quokka')").run();
  db.prepare("INSERT INTO file_rows (lo, hi, file_id, base_offset, base_line, places) VALUES (1, 2, 1, 0, 1, zeroblob(32))").run();
  db.prepare("INSERT INTO spawns (session_id, tool_use_id, file_id) VALUES ('s1', 'toolu_1', 1)").run();
  db.close();
  return { projects, dbPath };
}

describe("migration 6 (sessions by project folder)", () => {
  it("upgrades a version-5 index: a session per project folder, the catalogue kept, every file to be read again, the rest empty", () => {
    const { dbPath } = v5Index(tempDir());
    const db = new Database(dbPath);
    try {
      expectUpgraded(db, 6);
      expect(db.prepare("SELECT key, project, id, title FROM sessions ORDER BY project").all()).toEqual([
        { key: 1, project: "-home-user-code-x", id: "s1", title: "kept title" },
        { key: 2, project: "-home-user-code-y", id: "s1", title: null },
      ]);
      expect(db.prepare("SELECT id, session_key, identity, indexed_offset FROM files ORDER BY id").all()).toEqual([
        { id: 1, session_key: 1, identity: "", indexed_offset: 0 },
        { id: 2, session_key: 2, identity: "", indexed_offset: 0 },
      ]);
      for (const table of ["file_rows", "spawns", "subagents", "task_notes"]) expect(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get(), table).toBe(0);
      expect(db.prepare("SELECT count(*) FROM search_text WHERE search_text MATCH 'quokka'").pluck().get()).toBe(0);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%_v5'").all()).toEqual([]);
      // One id in two folders: two sessions; one folder holds it once.
      expect(() => db.prepare("INSERT INTO sessions (project, id) VALUES ('-home-user-code-x', 's1')").run()).toThrow(/UNIQUE/);
    } finally {
      db.close();
    }
  });

  it("the store says it upgraded, starts a new side file, and the next scan reads both files again: two sessions, their own hits", async () => {
    const { projects, dbPath } = v5Index(tempDir());
    // The old index's side file: rows it named are gone with its chunks.
    const oldSide = new Database(sideDbPath(dbPath));
    migrate(oldSide, [{ version: 1, name: "side-text", up: (d) => d.exec("CREATE TABLE side_reserved (upto INTEGER NOT NULL); INSERT INTO side_reserved VALUES (99)") }]);
    oldSide.close();
    const store = new StoreService({ dbPath });
    try {
      expect(store.info()).toMatchObject({ upgradedFrom: 5, schemaVersion: 6, movedAsideTo: null });
      const side = new Database(sideDbPath(dbPath), { readonly: true });
      expect(side.prepare("SELECT upto FROM side_reserved").pluck().get()).toBe(SIDE_ROWID_BASE);
      side.close();
      expect(await store.index(projects)).toMatchObject({ filesReindexed: 2, filesNew: 0, sessionsTotal: 2 });
      expect(store.listSessions().map((s) => [s.project, s.id, s.cwd]).sort()).toEqual([
        ["-home-user-code-x", "s1", "/home/user/code/x"],
        ["-home-user-code-y", "s1", "/home/user/code/y"],
      ]);
      const hits = store.search("quokka");
      expect(hits.map((h) => [h.project, h.cwd, path.relative(projects, h.file)]).sort()).toEqual([
        ["-home-user-code-x", "/home/user/code/x", path.join("-home-user-code-x", "s1.jsonl")],
        ["-home-user-code-y", "/home/user/code/y", path.join("-home-user-code-y", "s1.jsonl")],
      ]);
      expect(store.search("quokka", { sessionId: "s1", project: "-home-user-code-y" }).map((h) => h.project)).toEqual(["-home-user-code-y"]);
      expect(store.search("quokka", { sessionId: "s1" })).toHaveLength(2);
    } finally {
      store.close();
    }
    // Opened again, it is current: nothing to say.
    const again = new StoreService({ dbPath });
    try {
      expect(again.info().upgradedFrom).toBeNull();
    } finally {
      again.close();
    }
  });

  it("a new index is no upgrade", () => {
    const store = new StoreService({ dbPath: path.join(tempDir(), "fresh.db") });
    try {
      expect(store.info()).toMatchObject({ upgradedFrom: null, schemaVersion: 6 });
    } finally {
      store.close();
    }
  });
});

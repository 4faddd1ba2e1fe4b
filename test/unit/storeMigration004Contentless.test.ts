// Migration 4: the full-text index stops keeping a copy of the text; rows record their line's
// byte offset, and an upgraded index re-reads every file once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, schemaVersion } from "../../src/main/store/migrate.js";
import { MIGRATIONS } from "../../src/main/store/migrations/index.js";
import { FTS_HASHSIZE, FTS_PGSZ } from "../../src/main/store/migrations/m003FtsTuning.js";
import { StoreService } from "../../src/main/store/storeService.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const prompt = (uuid: string, text: string): string =>
  JSON.stringify({ type: "user", message: { role: "user", content: text }, uuid, timestamp: "2026-01-01T00:00:00.000Z", sessionId: "s1", cwd: "/home/user/code/x" });

/** A session file and a version-3 index that has read it whole, as the v3 indexer left it. */
function v3Index(dir: string): { projects: string; dbPath: string } {
  const projects = path.join(dir, "projects");
  const file = path.join(projects, "-home-user-code-x", "s1.jsonl");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${prompt("u1", "a plain first line")}\n${prompt("u2", "upgrade keeps quokka")}\n`);
  const st = fs.statSync(file);
  const dbPath = path.join(dir, "h.db");
  const db = new Database(dbPath);
  migrate(db, MIGRATIONS, 3);
  db.prepare(
    `INSERT INTO files (id, path, session_id, project, size, identity, mtime_ms, indexed_offset, line_count, prompt_count)
     VALUES (1, ?, 's1', '-home-user-code-x', ?, ?, ?, ?, 2, 2)`,
  ).run(file, st.size, `${st.dev}:${st.ino}`, st.mtimeMs, st.size);
  db.prepare("INSERT INTO sessions (id, project, title, prompt_count) VALUES ('s1', '-home-user-code-x', 'kept title', 2)").run();
  db.prepare("INSERT INTO search_text (rowid, text) VALUES (1, 'upgrade keeps quokka')").run();
  db.prepare("INSERT INTO search_rows (id, file_id, kind, time, ref) VALUES (1, 1, 'prompt', '2026-01-01T00:00:00.000Z', '2#0')").run();
  db.prepare("INSERT INTO file_rows (file_id, lo, hi) VALUES (1, 1, 1)").run();
  db.close();
  return { projects, dbPath };
}

describe("migration 4 (contentless full-text index)", () => {
  it("upgrades a version-3 index: no text kept, same tuning, every file marked for re-reading", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "baton-m004-"));
    dirs.push(dir);
    const { dbPath } = v3Index(dir);
    const db = new Database(dbPath);
    expect(migrate(db, MIGRATIONS, 4)).toEqual([4]);
    expect(schemaVersion(db)).toBe(4);
    expect(db.prepare("SELECT title FROM sessions").pluck().get()).toBe("kept title");
    expect(db.prepare("SELECT identity FROM files").pluck().get()).toBe("");
    expect(db.prepare("SELECT count(*) FROM search_rows").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'search_text_content'").pluck().get()).toBe(0);
    const config = Object.fromEntries((db.prepare("SELECT k, v FROM search_text_config").all() as { k: string; v: number }[]).map((r) => [r.k, r.v]));
    expect(config).toMatchObject({ pgsz: FTS_PGSZ, hashsize: FTS_HASHSIZE });
    db.close();
  });

  it("the next scan re-reads the file once: hits keep their place and get a snippet from the transcript", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "baton-m004-"));
    dirs.push(dir);
    const { projects, dbPath } = v3Index(dir);
    const store = new StoreService({ dbPath });
    try {
      const report = await store.index(projects);
      expect(report.filesReindexed).toBe(1);
      expect(report.rowsTotal).toBe(2);
      expect(store.search("quokka").map((h) => ({ ref: h.ref, kind: h.kind, snippet: h.snippet }))).toEqual([
        { ref: "2#0", kind: "prompt", snippet: "upgrade keeps «quokka»" },
      ]);
      // A row can be deleted from the contentless table: re-reading a replaced file leaves one copy.
      fs.writeFileSync(path.join(projects, "-home-user-code-x", "s1.jsonl"), `${prompt("u3", "quokka again, once")}\n`);
      await store.index(projects);
      expect(store.search("quokka").map((h) => h.snippet)).toEqual(["«quokka» again, once"]);
    } finally {
      store.close();
    }
  });
});

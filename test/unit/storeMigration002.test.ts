import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrate, schemaVersion } from "../../src/main/platform/sqlite/migrate.js";
import { MIGRATIONS } from "../../src/main/search/migrations/index.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-m002-");


const prompt = (sessionId: string, text: string): string =>
  JSON.stringify({ type: "user", message: { role: "user", content: text }, uuid: "u1", timestamp: "2026-01-01T00:00:00.000Z", sessionId, cwd: "/home/user/code/x" });

describe("migration 2 (full text)", () => {
  it("upgrades a version-1 index with data: keeps sessions, adds the FTS table, marks files for re-reading", () => {
    const db = new Database(path.join(tempDir(), "h.db"));
    migrate(db, MIGRATIONS, 1);
    db.prepare(
      `INSERT INTO files (path, session_id, project, size, identity, mtime_ms, indexed_offset, prompt_count)
       VALUES ('/p/s.jsonl', 's', '-p', 100, '1:2', 5, 100, 3)`,
    ).run();
    db.prepare("INSERT INTO sessions (id, project, title, prompt_count) VALUES ('s', '-p', 'kept title', 3)").run();

    expect(migrate(db, MIGRATIONS, 2)).toEqual([2]);
    expect(schemaVersion(db)).toBe(2);
    expect(db.prepare("SELECT title, prompt_count FROM sessions").get()).toEqual({ title: "kept title", prompt_count: 3 });
    // An empty identity never equals a real dev:ino, so the next scan reads the file from the start.
    expect(db.prepare("SELECT identity FROM files").pluck().get()).toBe("");
    db.prepare("INSERT INTO search_text (rowid, text, session_id, kind) VALUES (1, 'hello world', 's', 'prompt')").run();
    expect(db.prepare("SELECT session_id FROM search_text WHERE search_text MATCH 'hello'").pluck().all()).toEqual(["s"]);
    db.close();
  });

  it("a version-1 index that already catalogued a file makes it searchable on the next scan, without duplicates", async () => {
    const dir = tempDir();
    const projects = path.join(dir, "projects");
    const file = path.join(projects, "-home-user-code-x", "s1.jsonl");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${prompt("s1", "upgrade keeps zebrafish")}\n`);
    const st = fs.statSync(file);
    const dbPath = path.join(dir, "h.db");
    const v1 = new Database(dbPath);
    migrate(v1, MIGRATIONS, 1);
    // As v1 would have left it: fully read (offset = size), facts counted, but no text index.
    v1.prepare(
      `INSERT INTO files (path, session_id, project, size, identity, mtime_ms, indexed_offset, line_count, prompt_count)
       VALUES (?, 's1', '-home-user-code-x', ?, ?, ?, ?, 1, 1)`,
    ).run(file, st.size, `${st.dev}:${st.ino}`, st.mtimeMs, st.size);
    v1.close();

    const store = new StoreService({ dbPath });
    const report = await store.index(projects);
    expect(report.filesReindexed).toBe(1);
    expect(store.search("zebrafish").map((h) => h.sessionId)).toEqual(["s1"]);
    expect(store.listSessions()[0]?.promptCount).toBe(1);
    store.close();
  });
});

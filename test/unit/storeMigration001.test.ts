import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrate, schemaVersion } from "../../src/main/platform/sqlite/migrate.js";
import { MIGRATIONS } from "../../src/main/search/migrations/index.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-m001-");

function freshDb(): Database.Database {
  const dir = tempDir();
  return new Database(path.join(dir, "h.db"));
}

describe("migration 1 (catalogue)", () => {
  it("turns an empty database (version 0) into version 1 with the catalogue tables", () => {
    const db = freshDb();
    expect(schemaVersion(db)).toBe(0);
    expect(migrate(db, MIGRATIONS, 1)).toEqual([1]);
    expect(schemaVersion(db)).toBe(1);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual(["files", "sessions", "spawns", "subagents", "task_notes"]);
    db.close();
  });

  it("keeps a file's identity, offset and facts, and a subagent per session", () => {
    const db = freshDb();
    migrate(db, MIGRATIONS, 1);
    db.prepare(
      `INSERT INTO files (path, session_id, agent_id, project, size, identity, mtime_ms, indexed_offset, cwd)
       VALUES ('/p/s.jsonl', 's', NULL, '-p', 100, '1:2', 5, 90, '/home/user/code/x')`,
    ).run();
    db.prepare("INSERT INTO subagents (session_id, agent_id, description) VALUES ('s', 'a1', 'Outer')").run();
    expect(() => db.prepare("INSERT INTO subagents (session_id, agent_id) VALUES ('s', 'a1')").run()).toThrow(/UNIQUE/);
    expect(() => db.prepare("INSERT INTO files (path, session_id, project, size, identity, mtime_ms, indexed_offset) VALUES ('/p/s.jsonl', 's', '-p', 1, '', 0, 0)").run()).toThrow(/UNIQUE/);
    expect(db.prepare("SELECT indexed_offset, identity, cwd FROM files").get()).toEqual({
      indexed_offset: 90,
      identity: "1:2",
      cwd: "/home/user/code/x",
    });
    db.close();
  });

  it("running the migrations again applies nothing", () => {
    const db = freshDb();
    migrate(db, MIGRATIONS, 1);
    expect(migrate(db, MIGRATIONS, 1)).toEqual([]);
    expect(schemaVersion(db)).toBe(1);
    db.close();
  });
});

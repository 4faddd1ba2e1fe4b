// Fixtures for the index migration tests: a one-session projects dir, and an index migrated to an
// older version that has read that session whole, as that version's indexer left it. Each test adds
// the rows its version kept, and checks what every upgrade must leave.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { expect } from "vitest";
import { migrate, schemaVersion } from "../../src/main/platform/sqlite/migrate.js";
import { MIGRATIONS } from "../../src/main/search/migrations/index.js";

export const FIRST_TIME = "2026-01-01T00:00:00.000Z";

/** A typed prompt of session s1, as the CLI writes it. */
export function promptLine(uuid: string, text: string, time = FIRST_TIME): string {
  return JSON.stringify({ type: "user", message: { role: "user", content: text }, uuid, timestamp: time, sessionId: "s1", cwd: "/home/user/code/x" });
}

/** `<dir>/projects/-home-user-code-x/s1.jsonl` holding `lines`. */
export function writeSession(dir: string, lines: readonly string[]): { projects: string; file: string } {
  const projects = path.join(dir, "projects");
  const file = path.join(projects, "-home-user-code-x", "s1.jsonl");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.map((l) => `${l}\n`).join(""));
  return { projects, file };
}

/**
 * An index at `version` whose files table has read `file` (of `lines` prompts) to its end, with its
 * session row titled "kept title". Left open for the version's own rows; the caller closes it.
 */
export function indexedAt(dbPath: string, version: number, file: string, lines: number): Database.Database {
  const st = fs.statSync(file);
  const db = new Database(dbPath);
  migrate(db, MIGRATIONS, version);
  db.prepare(
    `INSERT INTO files (id, path, session_id, project, size, identity, mtime_ms, indexed_offset, line_count, prompt_count)
     VALUES (1, ?, 's1', '-home-user-code-x', ?, ?, ?, ?, ?, ?)`,
  ).run(file, st.size, `${st.dev}:${st.ino}`, st.mtimeMs, st.size, lines, lines);
  db.prepare("INSERT INTO sessions (id, project, title, prompt_count) VALUES ('s1', '-home-user-code-x', 'kept title', ?)").run(lines);
  return db;
}

/** Migrates one step to `version` and checks what every upgrade keeps (the session) and marks (every file to be read again). */
export function expectUpgraded(db: Database.Database, version: number): void {
  expect(migrate(db, MIGRATIONS, version)).toEqual([version]);
  expect(schemaVersion(db)).toBe(version);
  expect(db.prepare("SELECT title FROM sessions").pluck().get()).toBe("kept title");
  // An empty identity never equals a real dev:ino, so the next scan reads the file from the start.
  expect(db.prepare("SELECT identity FROM files").pluck().get()).toBe("");
}

/** A full-text table's tuning, as its config table holds it. */
export function ftsConfig(db: Database.Database, table = "search_text"): Record<string, number> {
  return Object.fromEntries((db.prepare(`SELECT k, v FROM ${table}_config`).all() as { k: string; v: number }[]).map((r) => [r.k, r.v]));
}

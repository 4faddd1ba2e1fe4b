// Whether a database file has a table: a reader of a table a later schema step adds answers
// "nothing" for a file from before that step, where reading it would fail.
import type Database from "better-sqlite3";

export function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

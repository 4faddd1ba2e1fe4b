// Schema versions by PRAGMA user_version; each step runs in its own IMMEDIATE transaction.
import type Database from "better-sqlite3";
import { StoreError } from "./errors.js";
import type { Migration } from "./migration.js";

export function schemaVersion(db: Database.Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/** Refuses a database from a newer Baton: its tables may mean something this code does not know. */
export function checkNotNewer(db: Database.Database, dbPath: string, latest: number): void {
  const version = schemaVersion(db);
  if (version > latest) {
    throw new StoreError(
      "newer_schema",
      `${dbPath} has schema version ${version}, but this Baton knows only up to ${latest}; ` +
        `update Baton or pass --db to use another file (the database was left untouched)`,
    );
  }
}

/** Applies every migration above the current version, up to `target`. Returns the versions applied. */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[],
  target = migrations[migrations.length - 1]?.version ?? 0,
): number[] {
  const applied: number[] = [];
  for (const m of migrations) {
    if (m.version > target) break;
    // Read before taking the write lock: opening an up-to-date file never waits on another writer.
    if (schemaVersion(db) >= m.version) continue;
    const step = db.transaction(() => {
      if (schemaVersion(db) >= m.version) return false;
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
      return true;
    });
    if (step.immediate()) applied.push(m.version);
  }
  return applied;
}

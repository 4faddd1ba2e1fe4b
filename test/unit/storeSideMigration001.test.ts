// The side file's schema v1 (sideIndex.ts): its full-text table, tuned like the index's own, and
// the rowid reservations starting at 2^50. A side file from a newer Baton is refused untouched.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrate, schemaVersion } from "../../src/main/platform/sqlite/migrate.js";
import { FTS_AUTOMERGE, FTS_CRISISMERGE, FTS_HASHSIZE, FTS_PGSZ } from "../../src/main/search/migrations/m003FtsTuning.js";
import { SIDE_ROWID_BASE, SideIndex, sideDbPath } from "../../src/main/search/sideIndex.js";
import { SIDE_LATEST_VERSION, SIDE_MIGRATIONS } from "../../src/main/search/sideMigrations/index.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { ftsConfig } from "../support/legacyIndex.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-side1-");

describe("side file schema v1", () => {
  it("creates a tuned contentless full-text table and reserves rowids from 2^50", () => {
    const db = new Database(path.join(tempDir(), "x.side.db"));
    try {
      expect(migrate(db, SIDE_MIGRATIONS, 1)).toEqual([1]);
      expect(schemaVersion(db)).toBe(1);
      expect(ftsConfig(db, "side_text")).toMatchObject({ pgsz: FTS_PGSZ, automerge: FTS_AUTOMERGE, crisismerge: FTS_CRISISMERGE, hashsize: FTS_HASHSIZE });
      expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'side_text'").pluck().get()).toMatch(/content = ''.*contentless_delete = 1/s);
      expect(db.prepare("SELECT upto FROM side_reserved").pluck().all()).toEqual([SIDE_ROWID_BASE]);
      // Contentless with deletes: a row can be taken out again by its rowid alone.
      db.prepare("INSERT INTO side_text (rowid, text) VALUES (?, 'hello side')").run(SIDE_ROWID_BASE);
      db.prepare("DELETE FROM side_text WHERE rowid BETWEEN ? AND ?").run(SIDE_ROWID_BASE, SIDE_ROWID_BASE + 9);
      expect(db.prepare("SELECT count(*) FROM side_text WHERE side_text MATCH 'hello'").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it("is opened beside the index, in WAL mode, and a newer one is refused and left untouched", () => {
    const dbPath = path.join(tempDir(), "history.db");
    const store = new StoreService({ dbPath });
    store.close();
    const side = sideDbPath(dbPath);
    expect(side).toBe(path.join(path.dirname(dbPath), "history.side.db"));
    const db = new Database(side);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(schemaVersion(db)).toBe(SIDE_LATEST_VERSION);
    db.pragma(`user_version = ${SIDE_LATEST_VERSION + 1}`);
    db.close();
    const before = fs.readFileSync(side);
    expect(() => SideIndex.open(dbPath)).toThrow(expect.objectContaining({ code: "newer_schema" }));
    expect(() => new StoreService({ dbPath })).toThrow(expect.objectContaining({ code: "newer_schema" }));
    expect(fs.readFileSync(side).equals(before)).toBe(true);
  });
});

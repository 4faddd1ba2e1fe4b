// Migration 4: the full-text index stops keeping a copy of the text; rows record their line's
// byte offset, and an upgraded index re-reads every file once.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { FTS_HASHSIZE, FTS_PGSZ } from "../../src/main/search/migrations/m003FtsTuning.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { expectUpgraded, ftsConfig, indexedAt, promptLine as prompt, writeSession } from "../support/legacyIndex.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-m004-");

/** A session file and a version-3 index that has read it whole, as the v3 indexer left it. */
function v3Index(dir: string): { projects: string; dbPath: string } {
  const { projects, file } = writeSession(dir, [prompt("u1", "a plain first line"), prompt("u2", "upgrade keeps quokka")]);
  const dbPath = path.join(dir, "h.db");
  const db = indexedAt(dbPath, 3, file, 2);
  db.prepare("INSERT INTO search_text (rowid, text) VALUES (1, 'upgrade keeps quokka')").run();
  db.prepare("INSERT INTO search_rows (id, file_id, kind, time, ref) VALUES (1, 1, 'prompt', '2026-01-01T00:00:00.000Z', '2#0')").run();
  db.prepare("INSERT INTO file_rows (file_id, lo, hi) VALUES (1, 1, 1)").run();
  db.close();
  return { projects, dbPath };
}

describe("migration 4 (contentless full-text index)", () => {
  it("upgrades a version-3 index: no text kept, same tuning, every file marked for re-reading", () => {
    const { dbPath } = v3Index(tempDir());
    const db = new Database(dbPath);
    expectUpgraded(db, 4);
    expect(db.prepare("SELECT count(*) FROM search_rows").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'search_text_content'").pluck().get()).toBe(0);
    expect(ftsConfig(db)).toMatchObject({ pgsz: FTS_PGSZ, hashsize: FTS_HASHSIZE });
    db.close();
  });

  it("the next scan re-reads the file once: hits keep their place and get a snippet from the transcript", async () => {
    const { projects, dbPath } = v3Index(tempDir());
    const store = new StoreService({ dbPath });
    try {
      const report = await store.index(projects);
      expect(report.filesReindexed).toBe(1);
      // Two prompts, and (since version 6) the row naming the session's project folder.
      expect(report.rowsTotal).toBe(3);
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

import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { FTS_AUTOMERGE, FTS_CRISISMERGE, FTS_HASHSIZE, FTS_PGSZ } from "../../src/main/search/migrations/m003FtsTuning.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { expectUpgraded, ftsConfig, indexedAt, promptLine, writeSession } from "../support/legacyIndex.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-m003fts-");

/** A version-2 index holding one fully read file and its text row, as the v2 indexer left them. */
function v2Index(dbPath: string, file: string, text: string): void {
  const db = indexedAt(dbPath, 2, file, 1);
  db.prepare(
    "INSERT INTO search_text (rowid, text, session_id, kind, time, ref) VALUES (1, ?, 's1', 'prompt', '2026-01-01T00:00:00.000Z', '1#0')",
  ).run(text);
  db.prepare("INSERT INTO file_rows (file_id, lo, hi) VALUES (1, 1, 1)").run();
  db.close();
}

describe("migration 3 (FTS tuning)", () => {
  it("upgrades a version-2 index: text-only FTS table with the tuned config, rows marked for re-reading", () => {
    const dir = tempDir();
    const { file } = writeSession(dir, [promptLine("u1", "upgrade keeps quokka")]);
    const dbPath = path.join(dir, "h.db");
    v2Index(dbPath, file, "upgrade keeps quokka");
    const db = new Database(dbPath);

    expectUpgraded(db, 3);
    expect(db.prepare("SELECT count(*) FROM file_rows").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM search_text").pluck().get()).toBe(0);
    const columns = db.prepare("SELECT name FROM pragma_table_info('search_text')").pluck().all();
    expect(columns).toEqual(["text"]);
    expect(ftsConfig(db)).toMatchObject({ pgsz: FTS_PGSZ, automerge: FTS_AUTOMERGE, crisismerge: FTS_CRISISMERGE, hashsize: FTS_HASHSIZE });
    db.close();
  });

  it("the next scan after the upgrade re-reads the file: searchable once, with its time, kind and place", async () => {
    const dir = tempDir();
    const { projects, file } = writeSession(dir, [promptLine("u1", "upgrade keeps quokka")]);
    const dbPath = path.join(dir, "h.db");
    v2Index(dbPath, file, "upgrade keeps quokka");

    const store = new StoreService({ dbPath });
    const report = await store.index(projects);
    expect(report.filesReindexed).toBe(1);
    // The prompt, and (since version 6) the row naming the session's project folder.
    expect(report.rowsTotal).toBe(2);
    const hits = store.search("quokka");
    expect(hits.map((h) => ({ sessionId: h.sessionId, kind: h.kind, time: h.time, ref: h.ref, subagent: h.subagent }))).toEqual([
      { sessionId: "s1", kind: "prompt", time: "2026-01-01T00:00:00.000Z", ref: "1#0", subagent: null },
    ]);
    expect(hits[0]?.snippet).toContain("«quokka»");
    expect(store.search("quokka", { sessionId: "s1" })).toHaveLength(1);
    expect(store.search("quokka", { sessionId: "s2" })).toEqual([]);
    store.close();

    // Two text rows (the prompt, the project folder's name), and one chunk of the file that covers them.
    const db = new Database(dbPath, { readonly: true });
    expect(db.prepare("SELECT count(*) FROM search_text t JOIN file_rows r ON t.rowid BETWEEN r.lo AND r.hi").pluck().get()).toBe(2);
    expect(db.prepare("SELECT count(*) FROM file_rows").pluck().get()).toBe(1);
    db.close();
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, schemaVersion } from "../../src/main/store/migrate.js";
import { MIGRATIONS } from "../../src/main/store/migrations/index.js";
import { FTS_AUTOMERGE, FTS_CRISISMERGE, FTS_HASHSIZE, FTS_PGSZ } from "../../src/main/store/migrations/m003FtsTuning.js";
import { StoreService } from "../../src/main/store/storeService.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "baton-m003fts-"));
  dirs.push(dir);
  return dir;
}

const prompt = (sessionId: string, text: string): string =>
  JSON.stringify({ type: "user", message: { role: "user", content: text }, uuid: "u1", timestamp: "2026-01-01T00:00:00.000Z", sessionId, cwd: "/home/user/code/x" });

/** A version-2 index holding one fully read file and its text row, as the v2 indexer left them. */
function v2Index(dbPath: string, file: string, text: string): void {
  const st = fs.statSync(file);
  const db = new Database(dbPath);
  migrate(db, MIGRATIONS, 2);
  db.prepare(
    `INSERT INTO files (id, path, session_id, project, size, identity, mtime_ms, indexed_offset, line_count, prompt_count)
     VALUES (1, ?, 's1', '-home-user-code-x', ?, ?, ?, ?, 1, 1)`,
  ).run(file, st.size, `${st.dev}:${st.ino}`, st.mtimeMs, st.size);
  db.prepare("INSERT INTO sessions (id, project, title, prompt_count) VALUES ('s1', '-home-user-code-x', 'kept title', 1)").run();
  db.prepare(
    "INSERT INTO search_text (rowid, text, session_id, kind, time, ref) VALUES (1, ?, 's1', 'prompt', '2026-01-01T00:00:00.000Z', '1#0')",
  ).run(text);
  db.prepare("INSERT INTO file_rows (file_id, lo, hi) VALUES (1, 1, 1)").run();
  db.close();
}

function writeSession(dir: string, text: string): { projects: string; file: string } {
  const projects = path.join(dir, "projects");
  const file = path.join(projects, "-home-user-code-x", "s1.jsonl");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${prompt("s1", text)}\n`);
  return { projects, file };
}

describe("migration 3 (FTS tuning)", () => {
  it("upgrades a version-2 index: text-only FTS table with the tuned config, rows marked for re-reading", () => {
    const dir = tempDir();
    const { file } = writeSession(dir, "upgrade keeps quokka");
    const dbPath = path.join(dir, "h.db");
    v2Index(dbPath, file, "upgrade keeps quokka");
    const db = new Database(dbPath);

    expect(migrate(db, MIGRATIONS, 3)).toEqual([3]);
    expect(schemaVersion(db)).toBe(3);
    expect(db.prepare("SELECT title FROM sessions").pluck().get()).toBe("kept title");
    // An empty identity never equals a real dev:ino, so the next scan reads the file from the start.
    expect(db.prepare("SELECT identity FROM files").pluck().get()).toBe("");
    expect(db.prepare("SELECT count(*) FROM file_rows").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM search_text").pluck().get()).toBe(0);
    const columns = db.prepare("SELECT name FROM pragma_table_info('search_text')").pluck().all();
    expect(columns).toEqual(["text"]);
    const config = Object.fromEntries(
      (db.prepare("SELECT k, v FROM search_text_config").all() as { k: string; v: number }[]).map((r) => [r.k, r.v]),
    );
    expect(config).toMatchObject({ pgsz: FTS_PGSZ, automerge: FTS_AUTOMERGE, crisismerge: FTS_CRISISMERGE, hashsize: FTS_HASHSIZE });
    db.close();
  });

  it("the next scan after the upgrade re-reads the file: searchable once, with its time, kind and place", async () => {
    const dir = tempDir();
    const { projects, file } = writeSession(dir, "upgrade keeps quokka");
    const dbPath = path.join(dir, "h.db");
    v2Index(dbPath, file, "upgrade keeps quokka");

    const store = new StoreService({ dbPath });
    const report = await store.index(projects);
    expect(report.filesReindexed).toBe(1);
    expect(report.rowsTotal).toBe(1);
    const hits = store.search("quokka");
    expect(hits.map((h) => ({ sessionId: h.sessionId, kind: h.kind, time: h.time, ref: h.ref, subagent: h.subagent }))).toEqual([
      { sessionId: "s1", kind: "prompt", time: "2026-01-01T00:00:00.000Z", ref: "1#0", subagent: null },
    ]);
    expect(hits[0]?.snippet).toContain("«quokka»");
    expect(store.search("quokka", { sessionId: "s1" })).toHaveLength(1);
    expect(store.search("quokka", { sessionId: "s2" })).toEqual([]);
    store.close();

    // One text row, and one chunk of the file that covers it.
    const db = new Database(dbPath, { readonly: true });
    expect(db.prepare("SELECT count(*) FROM search_text t JOIN file_rows r ON t.rowid BETWEEN r.lo AND r.hi").pluck().get()).toBe(1);
    db.close();
  });
});

// Large index runs: parsing on an extract worker while the store's thread writes, several files'
// chunks per transaction. The index must be exactly what a run on one thread builds.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateArchive, type ArchiveStats } from "../../bench/history/generateArchive.js";
import { chunksInWorker } from "../../src/main/store/chunkSource.js";
import { emptyFacts, type RowText } from "../../src/main/store/extract.js";
import type { FileChunk } from "../../src/main/store/extractFile.js";
import { StoreService } from "../../src/main/store/storeService.js";

let tmp: string;
let projects: string;
let archive: ArchiveStats;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "baton-par-"));
  projects = path.join(tmp, "projects");
  archive = generateArchive(projects, { sessions: 6, totalBytes: 3e6, big: { bytes: 1.5e6, lines: 600, subagents: 6 }, seed: 11 });
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type FileState = { path: string; indexed_offset: number; line_count: number; size: number; prompt_count: number; last_time: string };

function vocabulary(db: Database.Database): unknown[] {
  db.exec("CREATE VIRTUAL TABLE temp.words USING fts5vocab(main, search_text, 'row')");
  return db.prepare("SELECT term, doc, cnt FROM temp.words ORDER BY term").all();
}

function snapshot(dbPath: string): { files: FileState[]; rows: unknown[]; words: unknown[]; sessions: unknown[]; subagents: unknown[] } {
  const db = new Database(dbPath, { readonly: true });
  try {
    return {
      files: db
        .prepare("SELECT path, indexed_offset, line_count, size, prompt_count, last_time FROM files ORDER BY path")
        .all() as FileState[],
      // Rowids depend on batching; what each row says and where it comes from must not.
      rows: db
        .prepare("SELECT f.path, m.kind, m.ref, m.time, m.line_offset FROM search_text t JOIN search_rows m ON m.id = t.rowid JOIN file_rows r ON t.rowid BETWEEN r.lo AND r.hi JOIN files f ON f.id = r.file_id AND f.id = m.file_id ORDER BY f.path, t.rowid")
        .all(),
      // The index keeps no text, so compare what it indexed: every word, in how many rows, how often.
      words: vocabulary(db),
      sessions: db.prepare("SELECT * FROM sessions ORDER BY id").all(),
      subagents: db.prepare("SELECT * FROM subagents ORDER BY session_id, agent_id").all(),
    };
  } finally {
    db.close();
  }
}

async function build(name: string, options: { parallelBytes: number; batchBytes: number }): Promise<string> {
  const dbPath = path.join(tmp, `${name}.db`);
  const store = new StoreService({ dbPath, ...options });
  try {
    const report = await store.index(projects);
    expect(report.filesNew).toBe(archive.files);
    expect(report.badLines).toBe(0);
  } finally {
    store.close();
  }
  return dbPath;
}

// Starting a worker under tsx takes a second or more on a busy machine.
describe("large index runs", { timeout: 60_000 }, () => {
  it("parsed on the extract worker, the index is the same as one built on this thread", async () => {
    const inline = snapshot(await build("inline", { parallelBytes: Number.MAX_SAFE_INTEGER, batchBytes: 64 * 1024 }));
    const worker = snapshot(await build("worker", { parallelBytes: 0, batchBytes: 64 * 1024 }));
    expect(worker).toEqual(inline);
    expect(inline.rows.length).toBeGreaterThan(500);
    expect(inline.words.length).toBeGreaterThan(500);
    expect(inline.subagents).toHaveLength(archive.subagents);
  });

  it("many files per transaction: every file still records its own offset, line count and facts", async () => {
    const dbPath = await build("onetxn", { parallelBytes: 0, batchBytes: 1024 * 1024 * 1024 });
    const { files } = snapshot(dbPath);
    expect(files).toHaveLength(archive.files);
    for (const f of files) {
      const bytes = fs.readFileSync(f.path);
      expect(f.indexed_offset).toBe(bytes.length);
      expect(f.size).toBe(bytes.length);
      expect(f.line_count).toBe(bytes.toString("utf8").split("\n").length - 1);
      expect(f.last_time).toMatch(/^2026-/);
    }
    const store = new StoreService({ dbPath });
    try {
      expect(store.search("sessmark0")[0]).toMatchObject({ kind: "prompt", subagent: null });
      const again = await store.index(projects);
      expect(again).toMatchObject({ filesSkipped: archive.files, bytesRead: 0, rowsAdded: 0 });
    } finally {
      store.close();
    }
  });

  it("a worker that cannot start reports so without handing over anything, so the caller reads itself", async () => {
    const chunks: FileChunk<RowText>[] = [];
    const job = { path: archive.bigSessionPath, isMain: true, fromOffset: 0, fromLines: 0, facts: emptyFacts() };
    const missing = new URL(`file://${path.join(tmp, "no-such-worker.ts")}`);
    expect(await chunksInWorker([job], 1024, (c) => chunks.push(c), missing)).toBe(false);
    expect(chunks).toEqual([]);
  });

  it("an error while reading on the worker rejects the run with that error, typed by its code", async () => {
    const job = { path: path.join(tmp, "vanished.jsonl"), isMain: true, fromOffset: 0, fromLines: 0, facts: emptyFacts() };
    await expect(chunksInWorker([job], 1024, () => undefined)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

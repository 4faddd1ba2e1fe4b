// Large index runs: parsing on an extract worker while the store's thread writes, several files'
// chunks per transaction. The index must be exactly what a run on one thread builds.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { generateArchive, type ArchiveStats } from "../../bench/history/generateArchive.js";
import { chunksInline, chunksInWorker } from "../../src/main/search/chunkSource.js";
import type { PackedChunk } from "../../src/main/search/chunkWire.js";
import { emptyFacts } from "../../src/main/search/extract.js";
import type { FileJob } from "../../src/main/search/extractFile.js";
import { decodePlace, PLACE_BYTES } from "../../src/main/search/rowPlaces.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-par-", "all");
let tmp: string;
let projects: string;
let archive: ArchiveStats;

beforeAll(() => {
  tmp = tempDir();
  projects = path.join(tmp, "projects");
  archive = generateArchive(projects, { sessions: 6, totalBytes: 3e6, big: { bytes: 1.5e6, lines: 600, subagents: 6 }, seed: 11 });
}, 60_000);

type FileState = { path: string; indexed_offset: number; line_count: number; size: number; prompt_count: number; last_time: string };

function vocabulary(db: Database.Database): unknown[] {
  db.exec("CREATE VIRTUAL TABLE temp.words USING fts5vocab(main, search_text, 'row')");
  return db.prepare("SELECT term, doc, cnt FROM temp.words ORDER BY term").all();
}

/** Every indexed row's file and place, in file then rowid order; each rowid must be in the text index. */
function rowPlaces(db: Database.Database): unknown[] {
  const chunks = db
    .prepare("SELECT f.path, r.lo, r.hi, r.base_offset, r.base_line, r.places FROM file_rows r JOIN files f ON f.id = r.file_id ORDER BY f.path, r.lo")
    .all() as { path: string; lo: number; hi: number; base_offset: number; base_line: number; places: Buffer }[];
  const indexed = db.prepare("SELECT count(*) FROM search_text WHERE rowid BETWEEN ? AND ?").pluck();
  return chunks.flatMap((c) => {
    expect(c.places.byteLength).toBe((c.hi - c.lo + 1) * PLACE_BYTES);
    expect(indexed.get(c.lo, c.hi)).toBe(c.hi - c.lo + 1);
    return Array.from({ length: c.hi - c.lo + 1 }, (_, i) => ({
      path: c.path,
      ...decodePlace(c.places.subarray(i * PLACE_BYTES, (i + 1) * PLACE_BYTES), c.base_offset, c.base_line),
    }));
  });
}

/** Every transcript of the archive as a job read from its start, in path order. */
function allJobs(): FileJob[] {
  const files = (fs.readdirSync(projects, { recursive: true }) as string[]).filter((f) => f.endsWith(".jsonl")).sort();
  return files.map((f) => {
    const file = path.join(projects, f);
    return { path: file, isMain: !f.includes("subagents"), fromOffset: 0, size: fs.statSync(file).size, fromLines: 0, facts: emptyFacts() };
  });
}

/** The chunks a read hands over, each with its packed rows as a digest (typed arrays compare slowly). */
async function collect(read: (sink: (c: PackedChunk) => void) => Promise<void>): Promise<unknown[]> {
  const chunks: unknown[] = [];
  await read((c) => {
    const { texts, ends, places, ...rest } = c.batch.rows;
    const digest = createHash("sha256");
    for (const bytes of [texts, ends, places]) digest.update(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    chunks.push({ ...c, batch: { ...c.batch, rows: { ...rest, digest: digest.digest("hex") } } });
  });
  return chunks;
}

function snapshot(dbPath: string): { files: FileState[]; rows: unknown[]; words: unknown[]; sessions: unknown[]; subagents: unknown[] } {
  const db = new Database(dbPath, { readonly: true });
  try {
    return {
      files: db
        .prepare("SELECT path, indexed_offset, line_count, size, prompt_count, last_time FROM files ORDER BY path")
        .all() as FileState[],
      // Rowids depend on batching; what each row says and where it comes from must not.
      rows: rowPlaces(db),
      // The index keeps no text, so compare what it indexed: every word, in how many rows, how often.
      words: vocabulary(db),
      sessions: db.prepare("SELECT * FROM sessions ORDER BY project, id").all(),
      subagents: db.prepare("SELECT s.project, s.id, a.* FROM subagents a JOIN sessions s ON s.key = a.session_key ORDER BY s.project, s.id, a.agent_id").all(),
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

  it("jobs read here while the worker starts, the rest on the worker: the same chunks, in the same order, as one thread reads", async () => {
    const jobs = allJobs();
    const inline = await collect((sink) => chunksInline(jobs, 16 * 1024, sink));
    // The worker takes over where this thread stopped (after at most 0 or 3 jobs), or this thread
    // reads 1 MB more once the worker is ready, which starts past that and holds its chunks until
    // their turn.
    for (const [whileStarting, warmUpBytes] of [[0, 0], [3, 0], [0, 1024 * 1024]] as const) {
      let onWorker = 0;
      const split = await collect(async (sink) => {
        onWorker = await chunksInWorker(jobs, 16 * 1024, sink, undefined, { whileStarting, warmUpBytes });
      });
      expect(split).toEqual(inline);
      if (warmUpBytes === 0) expect(onWorker).toBeGreaterThanOrEqual(jobs.length - whileStarting);
      else expect(onWorker).toBeLessThan(jobs.length - 1);
      expect(onWorker).toBeGreaterThan(0);
    }
    expect(new Set(inline.map((c) => (c as PackedChunk).job)).size).toBe(jobs.length);
  });

  it("a worker that cannot start: this thread reads every job itself", async () => {
    const jobs = allJobs();
    const missing = new URL(`file://${path.join(tmp, "no-such-worker.ts")}`);
    let onWorker = -1;
    const chunks = await collect(async (sink) => {
      onWorker = await chunksInWorker(jobs, 16 * 1024, sink, missing, { whileStarting: 0 });
    });
    expect(onWorker).toBe(0);
    expect(chunks).toEqual(await collect((sink) => chunksInline(jobs, 16 * 1024, sink)));
  });

  it("a file that cannot be read, on the worker or here, ends the file with a problem naming the error, not the run", async () => {
    const job = { path: path.join(tmp, "vanished.jsonl"), isMain: true, fromOffset: 0, fromLines: 0, facts: emptyFacts() };
    for (const whileStarting of [0, 1]) {
      const chunks: PackedChunk[] = [];
      await chunksInWorker([job], 1024, (c) => chunks.push(c), undefined, { whileStarting });
      expect(chunks.at(-1)?.totals?.problems).toEqual([expect.stringMatching(/^could not be read past byte 0: ENOENT/)]);
    }
  });
  it("an error writing a chunk, on the worker or here, rejects the run with that error", async () => {
    const file = path.join(tmp, "one.jsonl");
    fs.writeFileSync(file, `${JSON.stringify({ type: "user", message: { role: "user", content: "hi" } })}\n`);
    const job = { path: file, isMain: true, fromOffset: 0, fromLines: 0, facts: emptyFacts() };
    for (const whileStarting of [0, 1]) {
      const sink = (): void => {
        throw Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
      };
      await expect(chunksInWorker([job], 1024, sink, undefined, { whileStarting })).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    }
  });
});

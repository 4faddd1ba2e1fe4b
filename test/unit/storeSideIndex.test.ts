// The side index: rows the extract worker writes into its own file while the writer lags. Search
// must find exactly what it finds when one thread wrote every row, and every way the two files can
// fall out of step (a cleared file, a run stopped between commits, a lost or stale side file)
// must end with the same answers after the next index run.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { generateArchive } from "../../bench/history/generateArchive.js";
import { chunksInWorker } from "../../src/main/search/chunkSource.js";
import type { PackedChunk } from "../../src/main/search/chunkWire.js";
import { emptyFacts } from "../../src/main/search/extract.js";
import type { SearchHit } from "../../src/main/search/search.js";
import { SIDE_ROWID_BASE, SideIndex, sideDbPath } from "../../src/main/search/sideIndex.js";
import { StoreService, type StoreServiceOptions } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-side-", "all");
let tmp: string;
let projects: string;

const QUERIES = ["sessmark0", "sessmark3", "the", "error file", '"npm test"', "agent"];

/** Every row on the worker, in the side index (the store's thread reads nothing itself). */
const SIDE_ONLY: Partial<StoreServiceOptions> = { parallelBytes: 0, divert: "always", workerRead: { whileStarting: 0, warmUpBytes: 0 } };
/** Every row written by the store's thread. */
const ONE_THREAD: Partial<StoreServiceOptions> = { parallelBytes: Number.MAX_SAFE_INTEGER };

beforeAll(() => {
  tmp = tempDir();
  projects = path.join(tmp, "projects");
  generateArchive(projects, { sessions: 5, totalBytes: 2e6, big: { bytes: 1e6, lines: 400, subagents: 4 }, seed: 7 });
}, 60_000);

/** A copy of the archive, so a test may change its files. */
function copyProjects(name: string): string {
  const dir = path.join(tmp, name, "projects");
  fs.cpSync(projects, dir, { recursive: true });
  return dir;
}

function open(name: string, options: Partial<StoreServiceOptions>): StoreService {
  return new StoreService({ dbPath: path.join(tmp, name, "history.db"), batchBytes: 256 * 1024, ...options });
}

/** What a user sees of each query's hits, best first (scores are bm25's, compared to 1e-9). */
function answers(store: StoreService, sessionId?: string): unknown[] {
  return QUERIES.map((q) =>
    store.search(q, { limit: 50, ...(sessionId !== undefined ? { sessionId } : {}) }).map((h: SearchHit) => ({ ...h, score: Math.round(h.score * 1e9) })),
  );
}

/** Terms of a full-text table with how many rows hold each, via fts5vocab. */
function vocabulary(dbPath: string, schema: "main" | "side", table: string): Map<string, number> {
  const db = new Database(dbPath, { readonly: true });
  try {
    if (schema === "side") db.prepare("ATTACH DATABASE ? AS side").run(sideDbPath(dbPath));
    db.exec(`CREATE VIRTUAL TABLE temp.words USING fts5vocab(${schema}, ${table}, 'row')`);
    return new Map((db.prepare("SELECT term, doc FROM temp.words").all() as { term: string; doc: number }[]).map((r) => [r.term, r.doc]));
  } finally {
    db.close();
  }
}

function sideChunks(dbPath: string): { lo: number; hi: number }[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare("SELECT lo, hi FROM file_rows WHERE lo >= ? ORDER BY lo").all(SIDE_ROWID_BASE) as { lo: number; hi: number }[];
  } finally {
    db.close();
  }
}

const firstSession = (store: StoreService): string => store.listSessions()[0]!.id;

describe("the side index", { timeout: 60_000 }, () => {
  it("rows the worker wrote into the side index are found as if one thread had written them all", async () => {
    const one = open("one", ONE_THREAD);
    const side = open("side", SIDE_ONLY);
    try {
      await one.index(projects);
      const report = await side.index(projects);
      expect(report.badLines).toBe(0);
      // Every row is in the side file, and the index's own table is empty.
      const dbPath = side.dbPath;
      expect(vocabulary(dbPath, "main", "search_text").size).toBe(0);
      expect(vocabulary(dbPath, "side", "side_text")).toEqual(vocabulary(one.dbPath, "main", "search_text"));
      expect(sideChunks(dbPath).length).toBeGreaterThan(5);
      // Same hits, same snippets and times, same order and scores; in one session too.
      const expected = answers(one);
      expect(expected.flat().length).toBeGreaterThan(20);
      expect(answers(side)).toEqual(expected);
      expect(answers(side, firstSession(side))).toEqual(answers(one, firstSession(one)));
      // An unchanged re-scan reads nothing.
      expect(await side.index(projects)).toMatchObject({ bytesRead: 0, rowsAdded: 0 });
    } finally {
      one.close();
      side.close();
    }
  });

  it("rows split between the two tables: every hit is found once, in either", async () => {
    const one = open("one-mixed", ONE_THREAD);
    // The store's thread reads the first jobs while the worker starts, the worker the rest.
    const mixed = open("mixed", { ...SIDE_ONLY, workerRead: { whileStarting: 3, warmUpBytes: 0 } });
    try {
      await one.index(projects);
      await mixed.index(projects);
      expect(vocabulary(mixed.dbPath, "main", "search_text").size).toBeGreaterThan(0);
      expect(vocabulary(mixed.dbPath, "side", "side_text").size).toBeGreaterThan(0);
      // bm25 scores each table by its own statistics, so compare what is found, not its order.
      const found = (store: StoreService, sessionId?: string): unknown[] =>
        QUERIES.map((q) =>
          store
            .search(q, { limit: 500, ...(sessionId !== undefined ? { sessionId } : {}) })
            .map(({ score: _, ...hit }) => hit)
            .sort((a, b) => (a.file + a.ref + a.kind < b.file + b.ref + b.kind ? -1 : 1)),
        );
      expect(found(mixed)).toEqual(found(one));
      for (const s of one.listSessions()) expect(found(mixed, s.id)).toEqual(found(one, s.id));
    } finally {
      one.close();
      mixed.close();
    }
  });

  it("a re-read or removed file takes its side rows with it", async () => {
    const dir = copyProjects("cleared");
    const store = open("cleared", SIDE_ONLY);
    try {
      await store.index(dir);
      const hit = store.search("sessmark1")[0]!;
      expect(hit).toBeDefined();
      const file = store.listSessions().find((s) => s.id === hit.sessionId)!;
      const main = path.join(dir, file.project ?? "", `${hit.sessionId}.jsonl`);
      // Replaced with one new prompt: the old words go, the new one comes.
      const line = { type: "user", message: { role: "user", content: "replacedmarker only" }, uuid: "u1", timestamp: "2026-02-01T00:00:00.000Z", sessionId: hit.sessionId, cwd: "/home/user/code/x" };
      fs.writeFileSync(`${main}.new`, `${JSON.stringify(line)}\n`);
      fs.renameSync(`${main}.new`, main);
      expect(await store.index(dir)).toMatchObject({ filesReindexed: 1 });
      expect(store.search("sessmark1")).toEqual([]);
      expect(store.search("replacedmarker")).toHaveLength(1);
      expect(vocabulary(store.dbPath, "side", "side_text").get("sessmark1")).toBeUndefined();
      // Removed: gone from the side file too.
      const before = vocabulary(store.dbPath, "side", "side_text").get("sessmark2");
      expect(before).toBeGreaterThan(0);
      const other = store.search("sessmark2")[0]!;
      fs.rmSync(path.join(dir, store.listSessions().find((s) => s.id === other.sessionId)!.project ?? "", `${other.sessionId}.jsonl`));
      expect(await store.index(dir)).toMatchObject({ filesRemoved: 1 });
      expect(store.search("sessmark2")).toEqual([]);
      expect(vocabulary(store.dbPath, "side", "side_text").get("sessmark2")).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it("side rows that no chunk names (a run stopped between the two commits) are never shown", async () => {
    const store = open("orphans", SIDE_ONLY);
    try {
      await store.index(projects);
      // Orphans still count in bm25's statistics (they are few: only a stopped run leaves any).
      const unscored = (): unknown[] => answers(store).map((hits) => (hits as SearchHit[]).map(({ score: _, ...hit }) => hit));
      const expected = unscored();
      // What a stopped run leaves: rows committed in the side file, past and between the chunks.
      const chunks = sideChunks(store.dbPath);
      const side = new Database(sideDbPath(store.dbPath));
      const insert = side.prepare("INSERT INTO side_text (rowid, text) VALUES (?, ?)");
      const upto = side.prepare("SELECT upto FROM side_reserved").pluck().get() as number;
      insert.run(upto + 5, "orphanword sessmark0 the agent");
      insert.run(chunks[0]!.lo - 3, "orphanword sessmark3 the");
      side.close();
      expect(store.search("orphanword")).toEqual([]);
      expect(unscored()).toEqual(expected);
    } finally {
      store.close();
    }
  });

  it("a lost or damaged side file makes its files be read again; a new index starts a new side file", async () => {
    const one = open("one-again", ONE_THREAD);
    await one.index(projects);
    const expected = answers(one);
    one.close();
    const name = "lost";
    let store = open(name, SIDE_ONLY);
    await store.index(projects);
    store.close();
    const sidePath = sideDbPath(store.dbPath);
    for (const damage of ["remove", "garble"] as const) {
      if (damage === "remove") fs.rmSync(sidePath);
      else fs.writeFileSync(sidePath, Buffer.alloc(8192, 7));
      for (const suffix of ["-wal", "-shm"]) fs.rmSync(sidePath + suffix, { force: true });
      store = open(name, SIDE_ONLY);
      try {
        // Nothing points into the new side file, and the files it held are due to be read again.
        expect(sideChunks(store.dbPath)).toEqual([]);
        expect(store.search("sessmark0")).toEqual([]);
        const report = await store.index(projects);
        expect(report.filesReindexed).toBeGreaterThan(0);
        expect(answers(store)).toEqual(expected);
      } finally {
        store.close();
      }
    }
    // The index itself is removed: its new file must not take the old side rows for its own.
    fs.rmSync(store.dbPath);
    for (const suffix of ["-wal", "-shm"]) fs.rmSync(store.dbPath + suffix, { force: true });
    store = open(name, ONE_THREAD);
    try {
      await store.index(projects);
      expect(vocabulary(store.dbPath, "side", "side_text").size).toBe(0);
      expect(answers(store)).toEqual(expected);
    } finally {
      store.close();
    }
  });

  it("runs reserve rowid blocks that never overlap, whichever connection asks, and none past exact integers", () => {
    const dbPath = path.join(tmp, "reserve", "history.db");
    fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    const a = SideIndex.open(dbPath);
    const b = SideIndex.open(dbPath);
    try {
      expect(a.reserve(1000)).toBe(SIDE_ROWID_BASE);
      expect(b.reserve(10)).toBe(SIDE_ROWID_BASE + 1000);
      expect(a.reserve(1)).toBe(SIDE_ROWID_BASE + 1010);
      // Past 2^53 rowids are no longer exact numbers: no block, and the next run writes no side rows.
      expect(b.reserve(Number.MAX_SAFE_INTEGER)).toBeUndefined();
      expect(a.reserve(5)).toBe(SIDE_ROWID_BASE + 1011);
    } finally {
      a.close();
      b.close();
    }
  });

  it("a side file the worker cannot open: the worker sends every row to the writer", async () => {
    const file = (fs.readdirSync(projects, { recursive: true }) as string[]).find((f) => f.endsWith(".jsonl"))!;
    const job = { path: path.join(projects, file), isMain: true, fromOffset: 0, fromLines: 0, facts: emptyFacts() };
    const chunks: PackedChunk[] = [];
    const side = { path: path.join(tmp, "no-such-dir", "x.side.db"), from: SIDE_ROWID_BASE, to: SIDE_ROWID_BASE + 1e9, divert: "always" as const };
    await chunksInWorker([job], 16 * 1024, (c) => chunks.push(c), undefined, { whileStarting: 0, warmUpBytes: 0, side });
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.some((c) => c.batch.rows.count > 0)).toBe(true);
    for (const c of chunks) {
      expect(c.batch.rows.sideLo).toBeUndefined();
      expect(c.batch.rows.ends).toHaveLength(c.batch.rows.count);
    }
  });
});

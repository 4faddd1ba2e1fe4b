// Incremental indexing of a projects dir. Each file remembers its indexed byte offset, size,
// mtime and identity (dev:ino): an unchanged file costs one stat, an appended one is read from
// its offset, a truncated or replaced one is cleared and read again. Every chunk is written in
// an IMMEDIATE transaction together with the offset it reaches, so a crash loses nothing. Large
// runs parse on an extract worker while this thread writes (chunkSource.ts), and the worker
// writes part of the full-text index itself when this thread lags (sideIndex.ts).
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { chunksInline, chunksInWorker, type WorkerReadOptions } from "./chunkSource.js";
import { ChunkWriter, type WriteCounters, type WriteTarget } from "./chunkWriter.js";
import { DirCache, discoverTranscripts, type DiscoveredFile, type SkippedEntry } from "./discover.js";
import { notRegularKind, notRegularMessage } from "../platform/regularFile.js";
import { StoreError } from "../platform/sqlite/errors.js";
import type { PackedChunk } from "./chunkWire.js";
import type { FileJob } from "./extractFile.js";
import type { DivertPolicy, SideTarget } from "./extractProtocol.js";
import { classify, identityOf, isUnchanged, sessionIdInside, type Outcome } from "./fileChanges.js";
import { IndexStatements, type FileRow } from "./indexStatements.js";
import { nativeBindingPath } from "../platform/sqlite/openDatabase.js";
import type { RowRange, SideIndex } from "./sideIndex.js";
import { readSubagentMeta } from "./subagentMeta.js";

export interface IndexReport {
  readonly projectsDir: string;
  readonly filesSeen: number;
  readonly filesSkipped: number;
  readonly filesNew: number;
  readonly filesAppended: number;
  readonly filesReindexed: number;
  readonly filesRemoved: number;
  readonly bytesRead: number;
  readonly linesRead: number;
  readonly badLines: number;
  readonly rowsAdded: number;
  readonly sessionsChanged: number;
  readonly sessionsTotal: number;
  readonly rowsTotal: number;
  readonly ms: number;
  /** Files with lines that could not be (fully) indexed or that failed to read; the rest was indexed. */
  readonly problems: readonly IndexProblem[];
}

export interface IndexProblem {
  readonly path: string;
  readonly message: string;
}

type SessionFile = DiscoveredFile & { readonly sessionId: string };
type Work = { readonly file: SessionFile; readonly row: FileRow | undefined; readonly st: fs.Stats };

/** Transcript bytes per write transaction (see chunkWriter.ts). */
const DEFAULT_BATCH_BYTES = 64 * 1024 * 1024;
/** Transcript bytes per extracted chunk: what the extract worker hands over at a time. */
const MAX_CHUNK_BYTES = 8 * 1024 * 1024;
/** Runs reading at least this much parse on an extract worker; smaller ones are not worth starting it. */
export const DEFAULT_PARALLEL_BYTES = 16 * 1024 * 1024;

export interface IndexerOptions {
  /** Transcript bytes per write transaction (smaller in tests to exercise batching). */
  readonly batchBytes?: number;
  /** Read on an extract worker when a run has at least this many bytes to read. */
  readonly parallelBytes?: number;
  /** The side index the extract worker may write rows into; none: this thread writes them all. */
  readonly side?: SideIndex;
  /** When the worker writes rows into the side index (default "lagging"; "always" in tests). */
  readonly divert?: DivertPolicy;
  /** How the worker takes over from this thread (tests start it at the first job). */
  readonly workerRead?: Omit<WorkerReadOptions, "side">;
}

export class Indexer {
  private readonly stmts: IndexStatements;
  private readonly batchBytes: number;
  private readonly parallelBytes: number;
  private readonly side: SideIndex | undefined;
  private readonly divert: DivertPolicy;
  private readonly workerRead: Omit<WorkerReadOptions, "side">;
  private readonly dirs = new DirCache();
  private readonly versions: Database.Statement<[], { data: number; changes: number }>;
  /** The files table as last read or written here, and the database state it matches. */
  private known: { readonly key: string; readonly rows: ReadonlyMap<string, FileRow> } | undefined;

  constructor(
    private readonly db: Database.Database,
    options: IndexerOptions = {},
  ) {
    this.stmts = new IndexStatements(db);
    this.batchBytes = options.batchBytes ?? DEFAULT_BATCH_BYTES;
    this.parallelBytes = options.parallelBytes ?? DEFAULT_PARALLEL_BYTES;
    this.side = options.side;
    this.divert = options.divert ?? "lagging";
    this.workerRead = options.workerRead ?? {};
    // data_version moves when another connection commits, total_changes when this one writes.
    this.versions = db.prepare("SELECT (SELECT data_version FROM pragma_data_version) AS data, total_changes() AS changes");
  }

  /**
   * The side index lost its rows (its file was new, damaged or removed): the files that had rows
   * there are read again by the next run, and their chunks go until then.
   */
  forgetSideRows(): void {
    this.db.transaction(() => this.stmts.resetSideFiles()).immediate();
  }

  async indexProjects(projectsDir: string): Promise<IndexReport> {
    const started = performance.now();
    const root = path.resolve(projectsDir);
    if (!fs.existsSync(root)) throw new StoreError("projects_dir_missing", `projects dir not found: ${root}`);
    const notRegular: SkippedEntry[] = [];
    const found = discoverTranscripts(root, this.dirs, notRegular);
    const before = this.versions.get()!;
    const known = this.knownFiles(before);
    const outcomes: Record<Outcome, number> = { skipped: 0, new: 0, appended: 0, reindexed: 0 };
    const counters: WriteCounters = { bytesRead: 0, linesRead: 0, badLines: 0, rowsAdded: 0 };
    /** Sessions (their keys) whose files changed. */
    const changed = new Set<number>();
    const problems: IndexProblem[] = notRegular.map((s) => ({ path: s.path, message: notRegularMessage(s.kind) }));
    // Stat everything first, then read changed files oldest first, so rowids follow time and
    // search's recency window (search.ts) holds the newest matches.
    const work: Work[] = [];
    for (const found1 of found) {
      const row = known.get(found1.path);
      const st = fs.statSync(found1.path, { throwIfNoEntry: false });
      // Replaced by a FIFO or the like since it was listed: never opened (a read would hang).
      const kind = st === undefined ? undefined : notRegularKind(st);
      if (kind !== undefined) problems.push({ path: found1.path, message: notRegularMessage(kind) });
      const sessionId = kind !== undefined ? undefined : found1.sessionId ?? row?.session_id ?? sessionIdInside(found1.path);
      if (!st || sessionId === undefined || isUnchanged(row, st)) {
        outcomes.skipped++;
        continue;
      }
      work.push({ file: { ...found1, sessionId }, row, st });
    }
    work.sort((a, b) => a.st.mtimeMs - b.st.mtimeMs || (a.file.path < b.file.path ? -1 : 1));
    let written: ReadonlyMap<string, FileRow> | undefined = new Map();
    if (work.length > 0) {
      const planned = this.prepare(work, outcomes);
      for (const p of planned) changed.add(p.target.sessionKey);
      written = await this.read(planned, counters, problems);
    }
    const gone = this.removeVanished(root, found, known, changed);
    // Nothing changed: take no write lock, so a re-scan never waits on another writer.
    if (changed.size > 0) {
      this.db.transaction(() => {
        for (const sessionKey of changed) this.stmts.refreshSession(sessionKey);
      }).immediate();
    }
    this.rememberFiles(before, known, written, gone);
    return {
      projectsDir: root,
      filesSeen: found.length,
      filesSkipped: outcomes.skipped,
      filesNew: outcomes.new,
      filesAppended: outcomes.appended,
      filesReindexed: outcomes.reindexed,
      filesRemoved: gone.length,
      ...counters,
      sessionsChanged: changed.size,
      sessionsTotal: count(this.db, "SELECT count(*) AS n FROM sessions"),
      rowsTotal: count(this.db, "SELECT coalesce(sum(hi - lo + 1), 0) AS n FROM file_rows"),
      ms: Math.round(performance.now() - started),
      problems,
    };
  }

  /** The files table, re-read only when another connection wrote since this one last knew it. */
  private knownFiles(now: { data: number; changes: number }): ReadonlyMap<string, FileRow> {
    const key = `${now.data}:${now.changes}`;
    if (this.known?.key !== key) {
      this.known = { key, rows: new Map(this.stmts.allFiles.all().map((r) => [r.path, r])) };
    }
    return this.known.rows;
  }

  /**
   * After a run, the files table is what it was plus what this run wrote, unless another
   * connection also wrote meanwhile: then the next run reads it again.
   */
  private rememberFiles(
    before: { data: number; changes: number },
    known: ReadonlyMap<string, FileRow>,
    written: ReadonlyMap<string, FileRow> | undefined,
    gone: readonly FileRow[],
  ): void {
    const after = this.versions.get()!;
    if (after.data !== before.data || written === undefined) {
      this.known = undefined;
      return;
    }
    if (written.size === 0 && gone.length === 0) return;
    const rows = new Map(known);
    for (const r of gone) rows.delete(r.path);
    for (const [p, r] of written) rows.set(p, r);
    this.known = { key: `${after.data}:${after.changes}`, rows };
  }

  /** One transaction for every file to read: create, clear or keep its row; its subagent meta. */
  private prepare(work: readonly Work[], outcomes: Record<Outcome, number>): Planned[] {
    const metas = work.map(({ file }) => (file.agentId !== null ? readSubagentMeta(file.path, file.agentId) : undefined));
    const kinds = work.map(({ file, row, st }) => classify(file.path, row, st, identityOf(st)));
    return this.clearing((sideRanges) => {
      const planned: Planned[] = [];
      work.forEach(({ file, row, st }, i) => {
        const identity = identityOf(st);
        const outcome = kinds[i]!;
        let id = row?.id;
        const sessionKey = row?.session_key ?? this.stmts.sessionKey(file.project, file.sessionId);
        if (id === undefined) id = this.stmts.createFile(file.path, sessionKey, file.agentId, identity);
        else if (outcome === "reindexed") this.stmts.clearFile(id, sideRanges, identity);
        else if (this.stmts.offsetOf(id) !== row?.indexed_offset) {
          outcomes.skipped++; // another indexer moved on
          return;
        }
        const meta = metas[i];
        if (meta) this.stmts.upsertSubagentMeta(sessionKey, meta);
        outcomes[outcome]++;
        const appended = outcome === "appended" && row !== undefined;
        const fromOffset = appended ? row.indexed_offset : 0;
        planned.push({
          target: { ...file, id, sessionKey, fromOffset, stat: { size: st.size, mtimeMs: st.mtimeMs, identity } },
          job: {
            path: file.path,
            isMain: file.agentId === null,
            fromOffset,
            size: st.size,
            fromLines: appended ? row.line_count : 0,
            facts: this.stmts.facts(id),
          },
        });
      });
      return planned;
    });
  }

  /**
   * Runs `fn` in one IMMEDIATE transaction. The files it clears may have rows in the side index,
   * another file: their ranges, collected in `sideRanges`, are deleted there once it committed.
   */
  private clearing<T>(fn: (sideRanges: RowRange[]) => T): T {
    const sideRanges: RowRange[] = [];
    const result = this.db.transaction(() => fn(sideRanges)).immediate();
    this.side?.deleteRanges(sideRanges);
    return result;
  }

  /** Reads and writes the planned files; returns their files-table rows as now written. */
  private async read(
    planned: readonly Planned[],
    counters: WriteCounters,
    problems: IndexProblem[],
  ): Promise<ReadonlyMap<string, FileRow> | undefined> {
    const writer = new ChunkWriter(this.db, this.stmts, planned.map((p) => p.target), this.batchBytes, counters);
    const jobs = planned.map((p) => p.job);
    const chunkBytes = Math.min(this.batchBytes, MAX_CHUNK_BYTES);
    const sink = (chunk: PackedChunk): void => {
      writer.add(chunk);
      const file = planned[chunk.job]!.target.path;
      for (const message of chunk.totals?.problems ?? []) problems.push({ path: file, message });
    };
    const toRead = planned.reduce((n, p) => n + Math.max(0, p.target.stat.size - p.target.fromOffset), 0);
    if (toRead < this.parallelBytes) {
      await chunksInline(jobs, chunkBytes, sink);
      writer.flush();
      return writtenRows(planned, writer);
    }
    // A large run (a first index, a rebuild): skip the WAL syncs at checkpoints. A power cut
    // mid-run can then damage the index, which is moved aside and rebuilt from the JSONL files.
    this.db.pragma("synchronous = OFF");
    try {
      const side = this.sideTarget(toRead);
      await chunksInWorker(jobs, chunkBytes, sink, undefined, { ...this.workerRead, ...(side === undefined ? {} : { side }) });
      writer.flush();
    } finally {
      this.db.pragma("synchronous = NORMAL");
    }
    return writtenRows(planned, writer);
  }

  /** The side index for a run reading `bytes`: a block of rowids for it (no row is shorter than a byte). */
  private sideTarget(bytes: number): SideTarget | undefined {
    if (this.side === undefined || bytes <= 0) return undefined;
    const from = this.side.reserve(bytes);
    if (from === undefined) return undefined;
    const nativeBinding = nativeBindingPath();
    return { path: this.side.path, from, to: from + bytes, divert: this.divert, ...(nativeBinding !== undefined ? { nativeBinding } : {}) };
  }

  private removeVanished(
    root: string,
    found: readonly DiscoveredFile[],
    known: ReadonlyMap<string, FileRow>,
    changed: Set<number>,
  ): FileRow[] {
    const present = new Set(found.map((f) => f.path));
    const gone = [...known.values()].filter((r) => r.path.startsWith(root + path.sep) && !present.has(r.path));
    if (gone.length === 0) return gone;
    this.clearing((sideRanges) => {
      for (const r of gone) {
        this.stmts.clearFile(r.id, sideRanges);
        changed.add(r.session_key);
      }
    });
    return gone;
  }
}

interface Planned {
  readonly target: WriteTarget;
  readonly job: FileJob;
}

/** Undefined unless every planned file was written to its end. */
function writtenRows(planned: readonly Planned[], writer: ChunkWriter): Map<string, FileRow> | undefined {
  const rows = new Map<string, FileRow>();
  for (const [i, { target }] of planned.entries()) {
    const end = writer.ends.get(i);
    if (!end) return undefined;
    rows.set(target.path, {
      id: target.id,
      path: target.path,
      session_key: target.sessionKey,
      session_id: target.sessionId,
      size: target.stat.size,
      identity: target.stat.identity,
      mtime_ms: target.stat.mtimeMs,
      indexed_offset: end.offset,
      boundary: end.boundary,
      line_count: end.lineCount,
    });
  }
  return rows;
}

function count(db: Database.Database, sql: string): number {
  return (db.prepare(sql).get() as { n: number }).n;
}

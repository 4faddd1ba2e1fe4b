// Incremental indexing of a projects dir. Each file remembers its indexed byte offset, size,
// mtime and identity (dev:ino): an unchanged file costs one stat, an appended one is read from
// its offset, a truncated or replaced one is cleared and read again. Every batch is written in
// one IMMEDIATE transaction together with the offset it reaches, so a crash loses nothing.
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { readJsonl } from "../history/jsonlReader.js";
import { discoverTranscripts, type DiscoveredFile } from "./discover.js";
import { emptyExtracted, extractLine, type Extracted, type FileFacts } from "./extract.js";
import { IndexStatements, type FileRow } from "./indexStatements.js";
import { readSubagentMeta } from "./subagentMeta.js";
import { StoreError } from "./errors.js";

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
}

type SessionFile = DiscoveredFile & { readonly sessionId: string };
type Outcome = "skipped" | "new" | "appended" | "reindexed";

const BOUNDARY_BYTES = 16;
const HEAD_BYTES = 64 * 1024;
const DEFAULT_BATCH_BYTES = 8 * 1024 * 1024;

interface Counters {
  bytesRead: number;
  linesRead: number;
  badLines: number;
  rowsAdded: number;
}

export class Indexer {
  private readonly stmts: IndexStatements;

  constructor(
    private readonly db: Database.Database,
    private readonly batchBytes = DEFAULT_BATCH_BYTES,
  ) {
    this.stmts = new IndexStatements(db);
  }

  async indexProjects(projectsDir: string): Promise<IndexReport> {
    const started = performance.now();
    const root = path.resolve(projectsDir);
    if (!fs.existsSync(root)) throw new StoreError("projects_dir_missing", `projects dir not found: ${root}`);
    const found = discoverTranscripts(root);
    const known = new Map(this.stmts.allFiles.all().map((r) => [r.path, r]));
    const outcomes: Record<Outcome, number> = { skipped: 0, new: 0, appended: 0, reindexed: 0 };
    const counters: Counters = { bytesRead: 0, linesRead: 0, badLines: 0, rowsAdded: 0 };
    const changed = new Set<string>();
    // Stat everything first, then read changed files oldest first, so rowids follow time and
    // search's recency window (search.ts) holds the newest matches.
    const work: { file: SessionFile; row: FileRow | undefined; st: fs.Stats }[] = [];
    for (const found1 of found) {
      const row = known.get(found1.path);
      const st = fs.statSync(found1.path, { throwIfNoEntry: false });
      const sessionId = found1.sessionId ?? row?.session_id ?? sessionIdInside(found1.path);
      if (!st || sessionId === undefined || isUnchanged(row, st)) {
        outcomes.skipped++;
        continue;
      }
      work.push({ file: { ...found1, sessionId }, row, st });
    }
    work.sort((a, b) => a.st.mtimeMs - b.st.mtimeMs || (a.file.path < b.file.path ? -1 : 1));
    for (const { file, row, st } of work) {
      const outcome = await this.indexFile(file, row, st, counters);
      outcomes[outcome]++;
      if (outcome !== "skipped") changed.add(file.sessionId);
    }
    const removed = this.removeVanished(root, found, known, changed);
    // Nothing changed: take no write lock, so a re-scan never waits on another writer.
    if (changed.size > 0) {
      this.db.transaction(() => {
        for (const sessionId of changed) this.stmts.refreshSession(sessionId);
      }).immediate();
    }
    return {
      projectsDir: root,
      filesSeen: found.length,
      filesSkipped: outcomes.skipped,
      filesNew: outcomes.new,
      filesAppended: outcomes.appended,
      filesReindexed: outcomes.reindexed,
      filesRemoved: removed,
      ...counters,
      sessionsChanged: changed.size,
      sessionsTotal: count(this.db, "SELECT count(*) AS n FROM sessions"),
      rowsTotal: count(this.db, "SELECT coalesce(sum(hi - lo + 1), 0) AS n FROM file_rows"),
      ms: Math.round(performance.now() - started),
    };
  }

  private async indexFile(file: SessionFile, row: FileRow | undefined, st: fs.Stats, counters: Counters): Promise<Outcome> {
    const identity = `${st.dev}:${st.ino}`;
    const outcome = classify(file.path, row, st, identity);
    const meta = file.agentId !== null ? readSubagentMeta(file.path, file.sessionId, file.agentId) : undefined;
    const start = this.db
      .transaction(() => {
        let id = row?.id;
        if (id === undefined) id = this.stmts.createFile(file.path, file.sessionId, file.agentId, file.project, identity);
        else if (outcome === "reindexed") this.stmts.clearFile(id, identity);
        else if (this.stmts.offsetOf(id) !== row?.indexed_offset) return undefined; // another indexer moved on
        if (meta) this.stmts.upsertSubagentMeta(meta);
        return id;
      })
      .immediate();
    if (start === undefined) return "skipped";
    const from = outcome === "appended" && row ? row.indexed_offset : 0;
    const lines = outcome === "appended" && row ? row.line_count : 0;
    await this.readInto({ ...file, id: start }, from, lines, { size: st.size, mtimeMs: st.mtimeMs, identity }, counters);
    return outcome;
  }

  private async readInto(
    file: SessionFile & { readonly id: number },
    fromOffset: number,
    fromLines: number,
    stat: { size: number; mtimeMs: number; identity: string },
    counters: Counters,
  ): Promise<void> {
    const facts: FileFacts = this.stmts.facts(file.id);
    const isMain = file.agentId === null;
    let batch: Extracted = emptyExtracted();
    let batchStart = fromOffset;
    let lastOffset = -1;
    const flush = (offset: number, lineCount: number, final: boolean): void => {
      const boundary = readBoundary(file.path, offset);
      this.db
        .transaction(() => {
          this.stmts.writeBatch(file, batch, facts, { offset, lineCount, boundary, ...(final ? { stat } : {}) });
        })
        .immediate();
      counters.rowsAdded += batch.rows.length;
      batch = emptyExtracted();
      batchStart = offset;
    };
    const result = await readJsonl(file.path, {
      offset: fromOffset,
      firstLineNumber: fromLines + 1,
      onRecord: (record) => {
        // Glued lines give several records at one offset: never cut a batch between them.
        if (record.offset !== lastOffset && record.offset - batchStart >= this.batchBytes) {
          flush(record.offset, record.lineNumber - 1, false);
        }
        lastOffset = record.offset;
        extractLine(record.value, record.lineNumber, isMain, facts, batch);
      },
    });
    flush(result.nextOffset, result.nextLineNumber - 1, true);
    const s = result.stats;
    counters.bytesRead += result.nextOffset - fromOffset;
    counters.linesRead += s.lines;
    counters.badLines += s.invalidUtf8 + s.tooLong + s.notJson + s.notObject;
  }

  private removeVanished(
    root: string,
    found: readonly DiscoveredFile[],
    known: ReadonlyMap<string, FileRow>,
    changed: Set<string>,
  ): number {
    const present = new Set(found.map((f) => f.path));
    const gone = [...known.values()].filter((r) => r.path.startsWith(root + path.sep) && !present.has(r.path));
    if (gone.length === 0) return 0;
    this.db
      .transaction(() => {
        for (const r of gone) {
          this.stmts.clearFile(r.id);
          changed.add(r.session_id);
        }
      })
      .immediate();
    return gone.length;
  }
}

function isUnchanged(row: FileRow | undefined, st: fs.Stats): boolean {
  return row !== undefined && row.identity === `${st.dev}:${st.ino}` && row.size === st.size && row.mtime_ms === st.mtimeMs;
}

function classify(filePath: string, row: FileRow | undefined, st: fs.Stats, identity: string): Outcome {
  if (!row) return "new";
  if (row.identity !== identity || st.size < row.indexed_offset) return "reindexed";
  // Same size but a new mtime: rewritten in place.
  if (st.size === row.size && st.mtimeMs !== row.mtime_ms) return "reindexed";
  // Truncated and regrown past the offset: the bytes before the offset changed.
  if (readBoundary(filePath, row.indexed_offset) !== row.boundary) return "reindexed";
  return "appended";
}

/** Hex of the bytes just before `offset`: cheap evidence that the indexed prefix is unchanged. */
function readBoundary(filePath: string, offset: number): string {
  const len = Math.min(BOUNDARY_BYTES, offset);
  if (len === 0) return "";
  const buf = Buffer.alloc(len);
  const fd = fs.openSync(filePath, "r");
  try {
    const n = fs.readSync(fd, buf, 0, len, offset - len);
    return buf.subarray(0, n).toString("hex");
  } finally {
    fs.closeSync(fd);
  }
}

/** A root-layout sidechain names its session only in its lines (CLI 2.0.x). */
function sessionIdInside(filePath: string): string | undefined {
  const buf = Buffer.alloc(HEAD_BYTES);
  let n = 0;
  try {
    const fd = fs.openSync(filePath, "r");
    try {
      n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const match = /"sessionId"\s*:\s*"([^"]+)"/.exec(buf.subarray(0, n).toString("utf8"));
  return match?.[1];
}

function count(db: Database.Database, sql: string): number {
  return (db.prepare(sql).get() as { n: number }).n;
}

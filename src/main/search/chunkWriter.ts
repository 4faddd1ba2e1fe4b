// Writes extracted chunks to SQLite, several files' chunks per IMMEDIATE transaction: FTS5 turns
// every commit into a new index segment that later has to be merged, so few large commits are
// both faster to write and faster to search. Each chunk still records its file's offset in the
// same transaction as its rows, so a crash loses nothing and duplicates nothing.
import type Database from "better-sqlite3";
import type { PackedChunk } from "./chunkWire.js";
import { readBoundary } from "./fileChanges.js";
import type { IndexStatements } from "./indexStatements.js";

export interface WriteTarget {
  readonly id: number;
  readonly path: string;
  readonly sessionId: string;
  /** The session's key in the index (its project folder and id). */
  readonly sessionKey: number;
  readonly agentId: string | null;
  readonly fromOffset: number;
  readonly stat: { readonly size: number; readonly mtimeMs: number; readonly identity: string };
}

export interface WriteCounters {
  bytesRead: number;
  linesRead: number;
  badLines: number;
  rowsAdded: number;
}

/** Where a file's last chunk of this run left it: its files-table row is now this. */
export interface FileEnd {
  readonly offset: number;
  readonly lineCount: number;
  readonly boundary: string;
}

export class ChunkWriter {
  /** By job index, once the file's last chunk is committed. */
  readonly ends = new Map<number, FileEnd>();
  private pending: PackedChunk[] = [];
  private pendingBytes = 0;
  private readonly lastOffset: number[];

  constructor(
    private readonly db: Database.Database,
    private readonly stmts: IndexStatements,
    private readonly targets: readonly WriteTarget[],
    /** Transcript bytes per transaction. */
    private readonly txnBytes: number,
    private readonly counters: WriteCounters,
  ) {
    this.lastOffset = targets.map((t) => t.fromOffset);
  }

  /** Takes a chunk; commits when the pending chunks cover `txnBytes` of transcript. */
  add(chunk: PackedChunk): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.offset - this.lastOffset[chunk.job]!;
    this.lastOffset[chunk.job] = chunk.offset;
    if (this.pendingBytes >= this.txnBytes) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const chunks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    this.db.transaction(() => {
      for (const chunk of chunks) this.write(chunk);
    }).immediate();
    for (const chunk of chunks) {
      this.counters.rowsAdded += chunk.batch.rows.count;
      if (chunk.totals) this.ends.set(chunk.job, this.lastEnd.get(chunk.job)!);
      if (chunk.totals) {
        this.counters.bytesRead += chunk.totals.bytesRead;
        this.counters.linesRead += chunk.totals.linesRead;
        this.counters.badLines += chunk.totals.badLines;
      }
    }
  }

  private readonly lastEnd = new Map<number, FileEnd>();

  private write(chunk: PackedChunk): void {
    const target = this.targets[chunk.job]!;
    const end: FileEnd = { offset: chunk.offset, lineCount: chunk.lineCount, boundary: readBoundary(target.path, chunk.offset) };
    this.stmts.writeBatch(target, chunk.batch, chunk.facts, { ...end, ...(chunk.totals ? { stat: target.stat } : {}) });
    if (chunk.totals) this.lastEnd.set(chunk.job, end);
  }
}

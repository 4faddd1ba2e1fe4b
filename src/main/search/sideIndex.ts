// The side index: a second full-text table, in its own file beside the index, which the extract
// worker of a large index run writes while the store's thread writes the index's own table.
// Writing the full-text index is most of a cold index's time, and it was all on one thread: SQLite
// lets one connection at a time write a file, so a second core can only help in a second file.
//
// The worker fills the side table only while the writer lags (extractWorker.ts). Each chunk it
// writes there keeps its `file_rows` entry in the index as any other, with a rowid range from a
// block the run reserved here, above SIDE_ROWID_BASE, so a rowid still names one chunk and one
// row. The worker commits a chunk's side rows before it hands the chunk over; a run that stops in
// between leaves side rows that no chunk names, which search never shows (search.ts).
//
// The two files are one index: a damaged or missing side file makes the files it held rows of be
// read again, and a fresh index starts a fresh side file.
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { BUSY_TIMEOUT_MS } from "../platform/sqlite/busyTimeout.js";
import { isBusy } from "../platform/sqlite/errors.js";
import { openDatabase, type DatabaseSchema } from "../platform/sqlite/openDatabase.js";
import { SIDE_LATEST_VERSION, SIDE_MIGRATIONS } from "./sideMigrations/index.js";

export { SIDE_ROWID_BASE } from "./sideMigrations/s001SideText.js";

export const SideSchema: DatabaseSchema = { migrations: SIDE_MIGRATIONS, latest: SIDE_LATEST_VERSION, cacheKiB: 16384 };

/** `history.db` → `history.side.db`, in the same folder. */
export function sideDbPath(dbPath: string): string {
  const ext = path.extname(dbPath);
  return `${dbPath.slice(0, dbPath.length - ext.length)}.side${ext}`;
}

export interface RowRange {
  readonly lo: number;
  readonly hi: number;
}

/** The store thread's connection to the side file: reservations, and deletes of cleared chunks. */
export class SideIndex {
  private readonly reserved: Database.Statement<[], { upto: number }>;
  private readonly reserveTo: Database.Statement;
  private readonly deleteRange: Database.Statement;

  private constructor(
    readonly path: string,
    readonly db: Database.Database,
    /** True when the file was created (or replaced, or a damaged one moved aside) by this open: it holds no rows. */
    readonly fresh: boolean,
  ) {
    this.reserved = db.prepare("SELECT upto FROM side_reserved");
    this.reserveTo = db.prepare("UPDATE side_reserved SET upto = ?");
    this.deleteRange = db.prepare("DELETE FROM side_text WHERE rowid BETWEEN ? AND ?");
  }

  /**
   * Opens (or creates) the side file of the index at `dbPath`. `replace`: the index is new, so
   * whatever side file is there belongs to no index (rows of derived data only): it is removed.
   */
  static open(dbPath: string, replace = false): SideIndex {
    const file = sideDbPath(dbPath);
    if (replace) for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
    const existed = fs.existsSync(file);
    const opened = openDatabase(file, SideSchema);
    return new SideIndex(file, opened.db, !existed || opened.movedAsideTo !== undefined);
  }

  /**
   * Reserves `count` rowids for one run's side rows; returns the first, or undefined once rowids
   * would pass 2^53 (JavaScript's exact integers; some million cold indexes away), or when another
   * program holds the side file locked: without waiting, as the run goes on without it (the writer
   * writes every row). Runs never share a block.
   */
  reserve(count: number): number | undefined {
    this.db.pragma("busy_timeout = 0");
    try {
      return this.db
        .transaction(() => {
          const from = this.reserved.get()!.upto;
          if (from + count > Number.MAX_SAFE_INTEGER) return undefined;
          this.reserveTo.run(from + count);
          return from;
        })
        .immediate();
    } catch (err) {
      if (isBusy(err)) return undefined;
      throw err;
    } finally {
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  /** Deletes the side rows of chunks whose `file_rows` entries were deleted (and committed). */
  deleteRanges(ranges: readonly RowRange[]): void {
    if (ranges.length === 0) return;
    this.db
      .transaction(() => {
        for (const r of ranges) this.deleteRange.run(r.lo, r.hi);
      })
      .immediate();
  }

  close(): void {
    this.db.close();
  }
}

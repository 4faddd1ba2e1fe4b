// The extract worker's own connection to the side index (sideIndex.ts). It writes the rows of the
// chunks it keeps from a lagging writer several chunks per transaction (a commit is a new
// full-text segment that must later be merged: one per small file cost the worker more than the
// inserts), and commits them before those chunks are sent, so every chunk the index records has
// its rows in place.
import type Database from "better-sqlite3";
import { insertTexts, type PackedRows } from "./chunkWire.js";
import { connect } from "../platform/sqlite/openDatabase.js";

export class SideWriter {
  private readonly insert: Database.Statement;
  private readonly begin: Database.Statement;
  private readonly commitTxn: Database.Statement;
  private readonly rollbackTxn: Database.Statement;

  private constructor(private readonly db: Database.Database) {
    this.insert = db.prepare("INSERT INTO side_text (rowid, text) VALUES (?, ?)");
    this.begin = db.prepare("BEGIN IMMEDIATE");
    this.commitTxn = db.prepare("COMMIT");
    this.rollbackTxn = db.prepare("ROLLBACK");
  }

  /**
   * Opens the side file the store's thread created; throws if it cannot. It never waits for a lock:
   * only another program can hold one during a run, and then the writer takes every row at once
   * (extractWorker.ts). Nor could it wait safely: a worker terminated while SQLite waits aborts the
   * whole process when that wait ends in SQLITE_BUSY.
   */
  static open(file: string, nativeBinding: string | undefined): SideWriter {
    const db = connect(file, { fileMustExist: true, timeout: 0 }, nativeBinding);
    try {
      // Like the index during a large run: a power cut may damage the file, and a damaged side
      // file only makes its files be read again.
      db.pragma("synchronous = OFF");
      return new SideWriter(db);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** Writes the rows as rowids `lo`.., in the open transaction (one is begun if none is). */
  write(rows: PackedRows, lo: number): void {
    if (!this.db.inTransaction) this.begin.run();
    insertTexts(this.insert, lo, rows);
  }

  /** Commits what `write` wrote since the last commit. */
  commit(): void {
    if (this.db.inTransaction) this.commitTxn.run();
  }

  /** Closes the connection, dropping what `write` wrote since the last commit. */
  close(): void {
    if (this.db.inTransaction) this.rollbackTxn.run();
    this.db.close();
  }
}

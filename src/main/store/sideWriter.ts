// The extract worker's own connection to the side index (sideIndex.ts): it writes the rows of the
// chunks it keeps from a lagging writer, each chunk in one transaction committed before the chunk
// is sent, so every chunk the index records has its rows in place.
import Database from "better-sqlite3";
import { insertTexts, type PackedRows } from "./chunkWire.js";

export class SideWriter {
  private readonly insert: Database.Statement;

  private constructor(private readonly db: Database.Database) {
    this.insert = db.prepare("INSERT INTO side_text (rowid, text) VALUES (?, ?)");
  }

  /** Opens the side file the store's thread created; throws if it cannot. */
  static open(file: string, nativeBinding: string | undefined): SideWriter {
    const db = new Database(file, { fileMustExist: true, timeout: 10_000, ...(nativeBinding !== undefined ? { nativeBinding } : {}) });
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

  /** Writes the rows as rowids `lo`.. and commits. */
  write(rows: PackedRows, lo: number): void {
    this.db.transaction(() => insertTexts(this.insert, lo, rows)).immediate();
  }

  close(): void {
    this.db.close();
  }
}

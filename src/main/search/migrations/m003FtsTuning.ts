// v3: a faster-to-write full-text index. The FTS5 table keeps only the text: its UNINDEXED
// metadata columns were stored in its content table and re-encoded as an FTS5 record per row, so
// they move to a plain rowid-keyed table (`search_rows`, same rowids), where the session and
// subagent come from the file the row was read from. Larger leaf pages, a larger in-memory term
// buffer and lazier merging cut the work FTS5 does per commit; these settings live in the table's
// config (search_text_config), so every connection that writes uses them.
import type { Migration } from "../../platform/sqlite/migration.js";

/** FTS5 leaf page size in bytes (default ~4050): fewer, larger pages to write and merge. */
export const FTS_PGSZ = 16000;
/** Segments per level before FTS5 merges them (default 4). */
export const FTS_AUTOMERGE = 16;
/** Segments per level at which a commit must merge them (default 16). */
export const FTS_CRISISMERGE = 64;
/**
 * Bytes of pending terms FTS5 holds in memory before it writes them as a new segment (default
 * 1 MB). The indexer commits about 64 MB of transcript at a time, so this makes each commit write
 * about one segment instead of dozens that must later be merged. Costs that much memory while the
 * writer's transaction is open.
 */
export const FTS_HASHSIZE = 64 * 1024 * 1024;

/** The tuning above, written into a full-text table's config (run right after creating the table). */
export function ftsTuningSql(table: string): string {
  return `
  INSERT INTO ${table} (${table}, rank) VALUES ('pgsz', ${FTS_PGSZ});
  INSERT INTO ${table} (${table}, rank) VALUES ('automerge', ${FTS_AUTOMERGE});
  INSERT INTO ${table} (${table}, rank) VALUES ('crisismerge', ${FTS_CRISISMERGE});
  INSERT INTO ${table} (${table}, rank) VALUES ('hashsize', ${FTS_HASHSIZE});`;
}

export const FTS_TUNING_SQL = ftsTuningSql("search_text");

/**
 * After the indexed rows are dropped: an empty identity makes the next scan re-read every file
 * from the start (clearing its spawns and notes too), so nothing is lost and nothing duplicated.
 */
export const REREAD_ALL_FILES_SQL = `
  DELETE FROM file_rows;
  UPDATE files SET identity = '';`;

export const m003FtsTuning: Migration = {
  version: 3,
  name: "fts-tuning",
  up(db) {
    db.exec(`
      DROP TABLE search_text;
      CREATE VIRTUAL TABLE search_text USING fts5(
        text,
        tokenize = 'unicode61 remove_diacritics 2'
      );
      ${FTS_TUNING_SQL}
      -- One row per search_text row, same rowid.
      CREATE TABLE search_rows (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        time TEXT,
        ref TEXT NOT NULL
      );
      ${REREAD_ALL_FILES_SQL}
    `);
  },
};

// v4: the full-text index keeps no copy of the text. A row's text is read back from its transcript
// line when a hit is shown (rowText.ts), so search_rows records the line's byte offset. The copy
// was four fifths of the database, and writing it about a fifth of a cold index's time.
// `contentless_delete` lets a re-read file's rows be deleted as before. Same tokenizer and tuning.
import type { Migration } from "../../platform/sqlite/migration.js";
import { ftsTuningSql, REREAD_ALL_FILES_SQL } from "./m003FtsTuning.js";

/** A contentless full-text table, tuned: `search_text` here and in v5, `side_text` in the side file. */
export function contentlessFtsSql(table: string): string {
  return `
  CREATE VIRTUAL TABLE ${table} USING fts5(
    text,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
  );
  ${ftsTuningSql(table)}`;
}

export const CONTENTLESS_SEARCH_TEXT_SQL = contentlessFtsSql("search_text");

export const m004Contentless: Migration = {
  version: 4,
  name: "contentless-fts",
  up(db) {
    db.exec(`
      DROP TABLE search_text;
      ${CONTENTLESS_SEARCH_TEXT_SQL}
      DROP TABLE search_rows;
      -- One row per search_text row, same rowid; line_offset is where the row's line starts.
      CREATE TABLE search_rows (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        time TEXT,
        ref TEXT NOT NULL,
        line_offset INTEGER NOT NULL
      );
      ${REREAD_ALL_FILES_SQL}
    `);
  },
};

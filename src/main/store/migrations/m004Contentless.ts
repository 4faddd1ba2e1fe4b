// v4: the full-text index keeps no copy of the text. A row's text is read back from its transcript
// line when a hit is shown (rowText.ts), so search_rows records the line's byte offset. The copy
// was four fifths of the database, and writing it about a fifth of a cold index's time.
// `contentless_delete` lets a re-read file's rows be deleted as before. Same tokenizer and tuning.
import type { Migration } from "./migration.js";
import { FTS_AUTOMERGE, FTS_CRISISMERGE, FTS_HASHSIZE, FTS_PGSZ } from "./m003FtsTuning.js";

export const m004Contentless: Migration = {
  version: 4,
  name: "contentless-fts",
  up(db) {
    db.exec(`
      DROP TABLE search_text;
      CREATE VIRTUAL TABLE search_text USING fts5(
        text,
        content = '',
        contentless_delete = 1,
        tokenize = 'unicode61 remove_diacritics 2'
      );
      INSERT INTO search_text (search_text, rank) VALUES ('pgsz', ${FTS_PGSZ});
      INSERT INTO search_text (search_text, rank) VALUES ('automerge', ${FTS_AUTOMERGE});
      INSERT INTO search_text (search_text, rank) VALUES ('crisismerge', ${FTS_CRISISMERGE});
      INSERT INTO search_text (search_text, rank) VALUES ('hashsize', ${FTS_HASHSIZE});
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
      -- The old rows are gone: an empty identity makes the next scan re-read every file from the
      -- start (clearing its spawns and notes too), so nothing is lost and nothing duplicated.
      DELETE FROM file_rows;
      UPDATE files SET identity = '';
    `);
  },
};

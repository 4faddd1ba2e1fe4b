// v2: full-text search over prompts, assistant text, tool inputs/outputs and sidechains.
import type { Migration } from "../../platform/sqlite/migration.js";

export const m002FullText: Migration = {
  version: 2,
  name: "full-text",
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE search_text USING fts5(
        text,
        session_id UNINDEXED,
        agent_id UNINDEXED,
        kind UNINDEXED,
        time UNINDEXED,
        ref UNINDEXED,
        tokenize = 'unicode61 remove_diacritics 2'
      );
      -- Rowid ranges each file inserted, so a file's rows can be deleted by rowid (UNINDEXED
      -- columns cannot be searched without a full scan).
      CREATE TABLE file_rows (
        file_id INTEGER NOT NULL,
        lo INTEGER NOT NULL,
        hi INTEGER NOT NULL
      );
      CREATE INDEX file_rows_file ON file_rows(file_id);
      -- Files catalogued by v1 have no text rows: an empty identity makes the next scan
      -- re-read them from the start.
      UPDATE files SET identity = '';
    `);
  },
};

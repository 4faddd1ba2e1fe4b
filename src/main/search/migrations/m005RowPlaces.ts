// v5: no table row per text row. Where each row comes from (its line's offset and number, event,
// kind) is kept per chunk in `file_rows.places` (rowPlaces.ts), and a row's chunk is the entry
// with the greatest `lo` not past its rowid. Inserting a search_rows row next to every text row
// was about a tenth of a cold index's time; the time a hit shows is read from its transcript line
// along with its snippet. The full-text table is recreated empty and every file read again once.
import type { Migration } from "../../platform/sqlite/migration.js";
import { REREAD_ALL_FILES_SQL } from "./m003FtsTuning.js";
import { CONTENTLESS_SEARCH_TEXT_SQL } from "./m004Contentless.js";

export const m005RowPlaces: Migration = {
  version: 5,
  name: "row-places",
  up(db) {
    db.exec(`
      DROP TABLE search_rows;
      DROP TABLE search_text;
      ${CONTENTLESS_SEARCH_TEXT_SQL}
      DROP TABLE file_rows;
      -- Rowids lo..hi of search_text, written from one chunk of one file.
      CREATE TABLE file_rows (
        lo INTEGER PRIMARY KEY,
        hi INTEGER NOT NULL,
        file_id INTEGER NOT NULL,
        base_offset INTEGER NOT NULL,
        base_line INTEGER NOT NULL,
        places BLOB NOT NULL
      );
      CREATE INDEX file_rows_file ON file_rows(file_id);
      ${REREAD_ALL_FILES_SQL}
    `);
  },
};

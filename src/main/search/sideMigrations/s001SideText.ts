// Side v1: the side index's full-text table (sideIndex.ts), tuned like the index's own, and the
// high-water mark of the rowids index runs have reserved in it.
import { contentlessFtsSql } from "../migrations/m004Contentless.js";
import type { Migration } from "../../platform/sqlite/migration.js";

/** Side rowids start here, far above any rowid of the index's own table (which count from 1). */
export const SIDE_ROWID_BASE = 2 ** 50;

export const s001SideText: Migration = {
  version: 1,
  name: "side-text",
  up(db) {
    db.exec(`
      ${contentlessFtsSql("side_text")}
      -- Rowids below upto are reserved by some index run (used or not): a run's block is its own.
      CREATE TABLE side_reserved (upto INTEGER NOT NULL);
      INSERT INTO side_reserved (upto) VALUES (${SIDE_ROWID_BASE});
    `);
  },
};

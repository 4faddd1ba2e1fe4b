// Audit v8: file rewinds (issue 37). "Rewind files to here" puts a live session's files back as
// they were just before one of its prompts (the CLI's `rewind_files`), and the prompt is marked
// "Files rewound to here". The CLI's history file records no rewind, so Baton records each one it
// applied: the session, the prompt rewound to, the files the rewind changed (their absolute paths,
// at most a008's bound; `file_count` is the whole count) and when. A restore applies the rows back
// (auditOverlay.ts: the same `files_rewound` event after the prompt), so a session reopened from
// history shows the mark as it did live, and `baton audit` lists them.
//
// In the trail's order (seq, a002's `audit_sequence`), as the interrupts are: a rewind is a step
// within one session's story, between its turns, and `baton audit` shows it in its place.
import type { Migration } from "../../platform/sqlite/migration.js";

export const a008Rewinds: Migration = {
  version: 8,
  name: "rewinds",
  up(db) {
    db.exec(`
      CREATE TABLE audit_rewinds (
        id INTEGER PRIMARY KEY,
        seq INTEGER,                           -- place in the session's whole trail (trigger)
        session_id TEXT NOT NULL CHECK (session_id <> ''),
        prompt_uuid TEXT NOT NULL CHECK (prompt_uuid <> ''), -- the prompt the files were rewound to (its uuid on disk)
        files TEXT NOT NULL CHECK (json_valid(files) AND json_type(files) = 'array'), -- JSON array of absolute paths, bounded
        file_count INTEGER NOT NULL CHECK (file_count >= json_array_length(files)), -- every file the rewind changed
        time TEXT NOT NULL                     -- ISO 8601: when the rewind was applied (Baton's clock)
      );
      CREATE INDEX audit_rewinds_session ON audit_rewinds(session_id, id);
      CREATE TRIGGER audit_rewinds_seq AFTER INSERT ON audit_rewinds BEGIN
        UPDATE audit_sequence SET last = last + 1;
        UPDATE audit_rewinds SET seq = (SELECT last FROM audit_sequence) WHERE id = NEW.id;
      END;
    `);
  },
};

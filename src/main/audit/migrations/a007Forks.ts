// Audit v7: forks (issue 37). "Fork from here" and "Edit and resend" start a session that continues
// another from one of its prompts; the CLI's file for the fork does not say which session it came
// from (its copied lines carry the fork's id, and only 2.1.332's assistant lines a request id), so
// Baton records the edge it made: one row per fork, written once the fork's CLI names the fork's
// session, read back by the session list (a fork under its origin) and a restore (the graph's edge).
//
// No place in the trail's order (seq): a fork is not a decision within a session but the edge
// between two, one per fork session, read by its id or all at once.
import type { Migration } from "../../platform/sqlite/migration.js";

export const a007Forks: Migration = {
  version: 7,
  name: "forks",
  up(db) {
    db.exec(`
      CREATE TABLE audit_forks (
        fork_session_id TEXT PRIMARY KEY CHECK (fork_session_id <> ''),
        origin_session_id TEXT NOT NULL CHECK (origin_session_id <> '' AND origin_session_id <> fork_session_id),
        prompt_uuid TEXT NOT NULL CHECK (prompt_uuid <> ''), -- the origin's prompt the fork was made at
        time TEXT NOT NULL                                   -- ISO 8601: when the fork's CLI named its session
      ) WITHOUT ROWID;
    `);
  },
};

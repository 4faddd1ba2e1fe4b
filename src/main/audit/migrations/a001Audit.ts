// Audit v1: Baton's own audit trail, in its own file (auditDatabase.ts). Unlike the index tables,
// these rows are not derived from the CLI's JSONL files (they hold what only Baton knew: its
// permission decisions and the interrupts it sent), so nothing may rebuild them from disk.
import type { Migration } from "../../platform/sqlite/migration.js";

export const a001Audit: Migration = {
  version: 1,
  name: "audit",
  up(db) {
    db.exec(`
      CREATE TABLE audit_permissions (
        id INTEGER PRIMARY KEY,                -- insertion order = decision order
        session_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        tool_use_id TEXT NOT NULL,
        agent_id TEXT,                         -- the asking subagent's task id; null: main agent
        agent_tool_use_id TEXT,                -- that subagent's Agent tool_use, when known
        tool_name TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('allow', 'deny', 'cancelled')),
        decided_by TEXT,                       -- "user", "policy:<name>", "timeout", "window-closed", …
        message TEXT,
        time TEXT NOT NULL                     -- ISO 8601, Baton's clock
      );
      CREATE INDEX audit_permissions_session ON audit_permissions(session_id, id);

      CREATE TABLE audit_interrupts (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL,
        time TEXT NOT NULL                     -- when Baton sent the interrupt
      );
      CREATE INDEX audit_interrupts_session ON audit_interrupts(session_id, id);
    `);
  },
};

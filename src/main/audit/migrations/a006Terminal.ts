// Audit v6: decisions on sessions running in a terminal (issue 35). Baton's policy engine now also
// answers the hooks of sessions Baton did not start (`baton claude`), so a decision may come from
// there (origin `terminal`); the person's answers to such a session's requests keep their table.
//
// SQLite cannot change a CHECK in place, so audit_policy_decisions is rebuilt as in version 4: its
// rows are copied with their ids, places in the trail (seq) and protections, then its index and
// order trigger are made again.
import type { Migration } from "../../platform/sqlite/migration.js";

export const a006Terminal: Migration = {
  version: 6,
  name: "terminal",
  up(db) {
    db.exec(`
      CREATE TABLE audit_policy_decisions_v6 (
        id INTEGER PRIMARY KEY,
        seq INTEGER,                           -- place in the session's whole trail (trigger)
        session_id TEXT NOT NULL,
        time TEXT NOT NULL,                    -- ISO 8601, Baton's clock
        tool_use_id TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        agent_id TEXT,                         -- the asking agent; all three null: the main agent
        agent_type TEXT,
        preset TEXT,
        input_digest TEXT NOT NULL,            -- one bounded line (auditDigest.ts), not the input
        decision TEXT NOT NULL CHECK (decision IN ('allow', 'deny', 'ask')),
        rule TEXT NOT NULL,                    -- "preset:coder/exec", "conductor-only", …
        message TEXT,
        origin TEXT NOT NULL CHECK (origin IN ('hook', 'permission', 'mcp', 'terminal')),
        protection TEXT CHECK (protection IS NULL OR protection IN ('os-sandbox', 'policy-only'))
      );
      INSERT INTO audit_policy_decisions_v6
          (id, seq, session_id, time, tool_use_id, tool_name, agent_id, agent_type, preset, input_digest, decision, rule, message, origin, protection)
        SELECT id, seq, session_id, time, tool_use_id, tool_name, agent_id, agent_type, preset, input_digest, decision, rule, message, origin, protection
        FROM audit_policy_decisions ORDER BY id;
      DROP TABLE audit_policy_decisions;
      ALTER TABLE audit_policy_decisions_v6 RENAME TO audit_policy_decisions;
      CREATE INDEX audit_policy_decisions_session ON audit_policy_decisions(session_id, id);
      CREATE TRIGGER audit_policy_decisions_seq AFTER INSERT ON audit_policy_decisions BEGIN
        UPDATE audit_sequence SET last = last + 1;
        UPDATE audit_policy_decisions SET seq = (SELECT last FROM audit_sequence) WHERE id = NEW.id;
      END;
    `);
  },
};

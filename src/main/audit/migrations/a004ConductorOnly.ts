// Audit v4: who answered (issue 31, "Only the conductor conducts"). Every answer and review in the
// escalation chain names who gave it by agent id (`answered_by`: `main` for the conductor, checked
// to be the main agent; `person`; `baton`), and a decision may now be made by Baton's MCP server
// (origin `mcp`): the escalation desk refusing a conductor's tool to a caller the PreToolUse hook
// had not refused.
//
// Earlier rows: a settlement by the person or by Baton is named after who settled it (nobody else
// could); a conductor's keeps no id. Before this version any agent could call
// review_subagent_plan and be recorded as the conductor, so writing `main` there would claim a
// check that was never made.
//
// SQLite cannot change a CHECK in place, so audit_policy_decisions is rebuilt: its rows are copied
// with their ids and their places in the trail (seq), then its index and order trigger are made
// again. audit_orchestration only gains a column.
import type { Migration } from "../../platform/sqlite/migration.js";

export const a004ConductorOnly: Migration = {
  version: 4,
  name: "conductor-only",
  up(db) {
    db.exec(`
      ALTER TABLE audit_orchestration ADD COLUMN answered_by TEXT
        CHECK (answered_by IS NULL OR (answered_by <> '' AND kind IN ('answer', 'review')));
      UPDATE audit_orchestration SET answered_by = settled_by
        WHERE kind IN ('answer', 'review') AND settled_by IN ('person', 'baton');

      CREATE TABLE audit_policy_decisions_v4 (
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
        origin TEXT NOT NULL CHECK (origin IN ('hook', 'permission', 'mcp'))
      );
      INSERT INTO audit_policy_decisions_v4
          (id, seq, session_id, time, tool_use_id, tool_name, agent_id, agent_type, preset, input_digest, decision, rule, message, origin)
        SELECT id, seq, session_id, time, tool_use_id, tool_name, agent_id, agent_type, preset, input_digest, decision, rule, message, origin
        FROM audit_policy_decisions ORDER BY id;
      DROP TABLE audit_policy_decisions;
      ALTER TABLE audit_policy_decisions_v4 RENAME TO audit_policy_decisions;
      CREATE INDEX audit_policy_decisions_session ON audit_policy_decisions(session_id, id);
      CREATE TRIGGER audit_policy_decisions_seq AFTER INSERT ON audit_policy_decisions BEGIN
        UPDATE audit_sequence SET last = last + 1;
        UPDATE audit_policy_decisions SET seq = (SELECT last FROM audit_sequence) WHERE id = NEW.id;
      END;
    `);
  },
};

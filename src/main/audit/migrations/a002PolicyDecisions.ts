// Audit v2: the policy engine's decisions (issue 22, "Every decision on the record"), and one order
// for the whole trail. A policy decision has its own table, beside the person's answers: it is made
// where no permission request exists (the PreToolUse hook), may be "ask", and carries what the
// answers never had (the agent's type and preset, a digest of the input, the rule, where it was
// decided). The answers keep their table and meaning, so a restore reads them as before.
//
// Order: each table's id orders its own rows only, and times can tie within a millisecond (a hook
// verdict and the person's answer to another call). So every row of the three tables takes the
// next number of one counter as it is inserted (`seq`, set by a trigger: every writer, the import
// of a development build's rows included, gets it without knowing). Rows written before this
// version are numbered by time, the best order they have.
import type { Migration } from "../../platform/sqlite/migration.js";

const orderedTables = ["audit_permissions", "audit_interrupts", "audit_policy_decisions"] as const;

/** Numbers each inserted row of `table` with the next value of the trail's counter. */
function orderTrigger(table: (typeof orderedTables)[number]): string {
  return `
    CREATE TRIGGER ${table}_seq AFTER INSERT ON ${table} BEGIN
      UPDATE audit_sequence SET last = last + 1;
      UPDATE ${table} SET seq = (SELECT last FROM audit_sequence) WHERE id = NEW.id;
    END;`;
}

export const a002PolicyDecisions: Migration = {
  version: 2,
  name: "policy-decisions",
  up(db) {
    db.exec(`
      CREATE TABLE audit_policy_decisions (
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
        rule TEXT NOT NULL,                    -- "preset:coder/exec", "rule:deny Bash(rm:*) (project)", …
        message TEXT,
        origin TEXT NOT NULL CHECK (origin IN ('hook', 'permission'))
      );
      CREATE INDEX audit_policy_decisions_session ON audit_policy_decisions(session_id, id);

      ALTER TABLE audit_permissions ADD COLUMN seq INTEGER;
      ALTER TABLE audit_interrupts ADD COLUMN seq INTEGER;
      CREATE TABLE audit_sequence (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        last INTEGER NOT NULL                  -- the seq given to the latest row
      );

      CREATE TEMP TABLE audit_backfill (kind INTEGER, id INTEGER, n INTEGER, PRIMARY KEY (kind, id)) WITHOUT ROWID;
      INSERT INTO temp.audit_backfill (kind, id, n)
        SELECT kind, id, ROW_NUMBER() OVER (ORDER BY time, kind, id) FROM (
          SELECT 0 AS kind, id, time FROM audit_permissions
          UNION ALL SELECT 1 AS kind, id, time FROM audit_interrupts
        );
      UPDATE audit_permissions SET seq = (SELECT n FROM temp.audit_backfill b WHERE b.kind = 0 AND b.id = audit_permissions.id);
      UPDATE audit_interrupts SET seq = (SELECT n FROM temp.audit_backfill b WHERE b.kind = 1 AND b.id = audit_interrupts.id);
      INSERT INTO audit_sequence (id, last) SELECT 1, count(*) FROM temp.audit_backfill;
      DROP TABLE temp.audit_backfill;
      ${orderedTables.map(orderTrigger).join("\n")}
    `);
  },
};

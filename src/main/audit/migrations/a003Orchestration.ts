// Audit v3: the session DAG (issue 24): every spawn (parent → child), every subagent status change,
// every question and plan a subagent sent, where each went, how it was settled and by whom, and
// every phase change of a Deliberate subagent. The JSONL files hold none of the escalation chain
// (Baton runs it), so a restore reads it back from here (auditOverlay.ts).
//
// One table, a `kind` column and typed columns, not one table per kind: every row has the same
// links (session, the agent's record by its Agent call's tool_use id and, when known, its agent
// id, and the ask_conductor / submit_plan call), every reader wants them together in recorded
// order (`baton audit`, a restore), and each kind adds only two to five fields. One table is one
// insert, one index, one read and one more order trigger; the CHECKs below say which columns
// each kind must have, so a row cannot be stored half.
//
// Order: a row takes the next number of the trail's counter (a002's `audit_sequence`) as the
// other tables' rows do, so the orchestration rows interleave with the decisions and interrupts.
import type { Migration } from "../../platform/sqlite/migration.js";

export const a003Orchestration: Migration = {
  version: 3,
  name: "orchestration",
  up(db) {
    db.exec(`
      CREATE TABLE audit_orchestration (
        id INTEGER PRIMARY KEY,
        seq INTEGER,                           -- place in the session's whole trail (trigger)
        session_id TEXT NOT NULL,
        time TEXT NOT NULL,                    -- ISO 8601: when it happened (Baton's clock)
        kind TEXT NOT NULL CHECK (kind IN ('spawn', 'status', 'question', 'plan', 'route', 'answer', 'review', 'phase')),
        agent_tool_use_id TEXT NOT NULL,       -- the agent's record: its Agent call
        agent_id TEXT,                         -- its task id, when known
        tool_use_id TEXT,                      -- question … review: the ask_conductor / submit_plan call
        -- spawn
        parent_tool_use_id TEXT,               -- the calling agent's Agent call; null: the conductor
        subagent_type TEXT,                    -- the preset's name when it runs as one
        description TEXT,
        background INTEGER CHECK (background IN (0, 1)),
        -- status
        status TEXT CHECK (status IN ('running', 'completed', 'failed', 'stopped')),
        -- question, plan, route
        question TEXT,
        plan_goal TEXT,
        plan_steps TEXT,                       -- JSON array of strings
        plan_version INTEGER,
        routed_to TEXT CHECK (routed_to IN ('conductor', 'person')),
        reason TEXT,
        -- answer (a question's), review (a plan's)
        outcome TEXT CHECK (outcome IN ('answered', 'approved', 'rejected', 'failed')),
        reply TEXT,                            -- the answer, the feedback, or why it failed
        approved_plan TEXT,                    -- an approval with edits: the plan the agent got
        settled_by TEXT CHECK (settled_by IN ('conductor', 'person', 'baton')),
        -- phase
        phase TEXT CHECK (phase IN ('clarifying', 'review', 'executing', 'completed')),

        CHECK (kind IN ('spawn', 'status', 'phase') OR tool_use_id IS NOT NULL),
        CHECK (kind <> 'status' OR status IS NOT NULL),
        CHECK (kind <> 'question' OR (question IS NOT NULL AND routed_to IS NOT NULL AND reason IS NOT NULL)),
        CHECK (kind <> 'plan' OR (plan_goal IS NOT NULL AND plan_steps IS NOT NULL AND plan_version IS NOT NULL AND routed_to IS NOT NULL AND reason IS NOT NULL)),
        CHECK (kind <> 'route' OR (routed_to IS NOT NULL AND reason IS NOT NULL)),
        CHECK (kind NOT IN ('answer', 'review') OR (outcome IS NOT NULL AND settled_by IS NOT NULL)),
        CHECK (kind <> 'phase' OR phase IS NOT NULL)
      );
      CREATE INDEX audit_orchestration_session ON audit_orchestration(session_id, id);

      CREATE TRIGGER audit_orchestration_seq AFTER INSERT ON audit_orchestration BEGIN
        UPDATE audit_sequence SET last = last + 1;
        UPDATE audit_orchestration SET seq = (SELECT last FROM audit_sequence) WHERE id = NEW.id;
      END;
    `);
  },
};

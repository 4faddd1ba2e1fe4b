// Audit migration 2 (policy decisions, one order for the trail): a version-1 trail with rows is
// upgraded in place; every earlier answer and interrupt reads back as it was, in the order it
// happened, the person's answers as rule "person"; the new table takes policy verdicts, refuses
// what it does not know, and numbers new rows after the old ones.
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { insertInterrupt, insertPermission, insertPolicyDecision, readSessionAudit, type AuditPolicyRecord } from "../../src/main/audit/audit.js";
import { AUDIT_LATEST_VERSION, AUDIT_MIGRATIONS } from "../../src/main/audit/migrations/index.js";
import { migrate, schemaVersion } from "../../src/main/platform/sqlite/migrate.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-a002-");

const A001_COLUMNS = "id, session_id, request_id, tool_use_id, agent_id, agent_tool_use_id, tool_name, decision, decided_by, message, time";

/**
 * A version-1 trail as Baton wrote it: s1's answers and interrupt interleaved in time with s2's,
 * each table in its own id order (the interrupt at 00:00:02 has id 1, before s1's later answers).
 */
function v1Trail(file: string): Database.Database {
  const db = new Database(file);
  migrate(db, AUDIT_MIGRATIONS, 1);
  const answer = db.prepare(`INSERT INTO audit_permissions (${A001_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  answer.run(1, "s1", "req-1", "toolu_1", null, null, "Bash", "allow", "user", null, "2026-01-01T00:00:01.000Z");
  answer.run(2, "s2", "req-9", "toolu_9", null, null, "Write", "deny", "window-closed", "The window was closed; denied.", "2026-01-01T00:00:01.500Z");
  answer.run(3, "s1", "req-2", "toolu_2", "a0123456789abcdef", "toolu_agent", "Edit", "deny", "user", "Not that file", "2026-01-01T00:00:03.000Z");
  answer.run(4, "s1", "req-3", "toolu_3", null, null, "Bash", "cancelled", null, null, "2026-01-01T00:00:04.000Z");
  const interrupt = db.prepare("INSERT INTO audit_interrupts (id, session_id, time) VALUES (?, ?, ?)");
  interrupt.run(1, "s1", "2026-01-01T00:00:02.000Z");
  interrupt.run(2, "s2", "2026-01-01T00:00:05.000Z");
  return db;
}

const verdict: AuditPolicyRecord = {
  sessionId: "s1",
  time: "2026-01-01T00:00:06.000Z",
  toolUseId: "toolu_4",
  toolName: "Bash",
  agentId: "a0123456789abcdef",
  agentType: "coder",
  preset: "coder",
  inputDigest: "npm install left-pad",
  decision: "deny",
  rule: "preset:coder/exec",
  message: "coder may not run `npm install`",
  origin: "hook",
};

describe("audit migration 2 (policy decisions)", () => {
  it("upgrades a version-1 trail in place: every earlier row intact, numbered in the order it happened", () => {
    const db = v1Trail(path.join(tempDir(), "audit.sqlite"));
    const before = { answers: db.prepare(`SELECT ${A001_COLUMNS} FROM audit_permissions ORDER BY id`).all(), interrupts: db.prepare("SELECT * FROM audit_interrupts ORDER BY id").all() };

    expect(migrate(db, AUDIT_MIGRATIONS, 2)).toEqual([2]);
    expect(schemaVersion(db)).toBe(2);
    expect(db.prepare(`SELECT ${A001_COLUMNS} FROM audit_permissions ORDER BY id`).all()).toEqual(before.answers);
    expect(db.prepare("SELECT id, session_id, time FROM audit_interrupts ORDER BY id").all()).toEqual(before.interrupts);
    // Across both tables, by time: answer 1, answer 2 (s2), interrupt 1, answer 3, answer 4, interrupt 2 (s2).
    expect(db.prepare("SELECT seq FROM audit_permissions ORDER BY id").pluck().all()).toEqual([1, 2, 4, 5]);
    expect(db.prepare("SELECT seq FROM audit_interrupts ORDER BY id").pluck().all()).toEqual([3, 6]);
    expect(db.prepare("SELECT count(*) FROM sqlite_temp_master").pluck().get()).toBe(0);
    db.close();
  });

  it("the earlier answers and interrupts read back as before, and as one trail: the person's answers with rule person", () => {
    const db = v1Trail(path.join(tempDir(), "audit.sqlite"));
    const restoreBefore = readV1(db);
    migrate(db, AUDIT_MIGRATIONS, 2);
    const s1 = readSessionAudit(db, "s1");
    expect({ permissions: s1.permissions, interrupts: s1.interrupts }).toEqual(restoreBefore);
    expect(s1.trail.map((r) => (r.kind === "decision" ? [r.toolUseId, r.decision, r.rule, r.origin] : [r.kind, r.time]))).toEqual([
      ["toolu_1", "allow", "person", "person"],
      ["interrupt", "2026-01-01T00:00:02.000Z"],
      ["toolu_2", "deny", "person", "person"],
      ["toolu_3", "cancelled", "cancelled", "permission"],
    ]);
    expect(s1.trail[2]).toEqual({
      kind: "decision",
      sessionId: "s1",
      time: "2026-01-01T00:00:03.000Z",
      toolUseId: "toolu_2",
      toolName: "Edit",
      agentId: "a0123456789abcdef",
      decision: "deny",
      rule: "person",
      message: "Not that file",
      origin: "person",
      requestId: "req-2",
    });
    expect(readSessionAudit(db, "s2").trail.map((r) => (r.kind === "decision" ? `${r.decision} by ${r.rule}` : r.kind))).toEqual(["deny by window-closed", "interrupt"]);
    db.close();
  });

  it("the new table takes policy verdicts after the old rows, and refuses an unknown decision or origin", () => {
    const db = v1Trail(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 2);
    insertPolicyDecision(db, verdict);
    // The same millisecond as the verdict: recorded order decides, not the clock.
    insertInterrupt(db, { sessionId: "s1", time: verdict.time });
    insertPermission(db, { sessionId: "s1", requestId: "req-5", toolUseId: "toolu_5", toolName: "Read", decision: "allow", decidedBy: "user", time: verdict.time });
    const trail = readSessionAudit(db, "s1").trail;
    expect(trail.slice(4)).toEqual([
      { kind: "decision", ...verdict },
      { kind: "interrupt", sessionId: "s1", time: verdict.time },
      expect.objectContaining({ toolUseId: "toolu_5", rule: "person", origin: "person" }),
    ]);
    expect(db.prepare("SELECT seq FROM audit_policy_decisions").pluck().all()).toEqual([7]);

    const raw = db.prepare(
      "INSERT INTO audit_policy_decisions (session_id, time, tool_use_id, tool_name, input_digest, decision, rule, origin) VALUES ('s1', 'now', 't', 'Bash', 'ls', ?, 'r', ?)",
    );
    expect(() => raw.run("maybe", "hook")).toThrow(/CHECK constraint/);
    expect(() => raw.run("allow", "person")).toThrow(/CHECK constraint/);
    expect(() => insertPolicyDecision(db, { ...verdict, decision: "perhaps" as never })).toThrow(/unknown decision/);
    expect(() => insertPolicyDecision(db, { ...verdict, rule: "" })).toThrow(/rule/);
    expect(db.prepare("SELECT count(*) FROM audit_policy_decisions").pluck().get()).toBe(1);
    db.close();
  });

  it("a store opening a version-1 audit file upgrades it and keeps its trail", () => {
    const dir = tempDir();
    v1Trail(path.join(dir, "audit.sqlite")).close();
    const store = new StoreService({ dbPath: path.join(dir, "history.db") });
    try {
      expect(store.info().audit).toMatchObject({ schemaVersion: AUDIT_LATEST_VERSION, error: null, movedAsideTo: null });
      store.recordPolicyDecision(verdict);
      expect(store.readAudit("s1").trail.map((r) => (r.kind === "decision" ? r.toolUseId : "interrupt"))).toEqual(["toolu_1", "interrupt", "toolu_2", "toolu_3", "toolu_4"]);
    } finally {
      store.close();
    }
  });
});

/** How a version-1 Baton read a session's trail (audit.ts before version 2), for s1. */
function readV1(db: Database.Database): unknown {
  const permissions = db.prepare("SELECT * FROM audit_permissions WHERE session_id = 's1' ORDER BY id").all() as Record<string, string | null>[];
  return {
    permissions: permissions.map((r) =>
      Object.fromEntries(
        Object.entries({
          sessionId: r["session_id"],
          requestId: r["request_id"],
          toolUseId: r["tool_use_id"],
          agentId: r["agent_id"],
          agentToolUseId: r["agent_tool_use_id"],
          toolName: r["tool_name"],
          decision: r["decision"],
          decidedBy: r["decided_by"],
          message: r["message"],
          time: r["time"],
        }).filter(([, v]) => v !== null),
      ),
    ),
    interrupts: db.prepare("SELECT session_id AS sessionId, time FROM audit_interrupts WHERE session_id = 's1' ORDER BY id").all(),
  };
}

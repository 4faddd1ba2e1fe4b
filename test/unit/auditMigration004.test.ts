// Audit migration 4 (who answered, issue 31): a fresh file gets `answered_by` on the session DAG and
// takes decisions made by Baton's MCP server (origin "mcp"); a version-3 trail with rows is
// upgraded in place: every earlier row reads back as before, a person's or Baton's settlement is
// named after who settled it and a conductor's is left unnamed (nobody checked who called then),
// the rebuilt decisions table keeps each row's id and place in the trail and numbers new rows after
// them; the schema refuses what it cannot mean; a store opening a version-3 file upgrades it.
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  insertInterrupt,
  insertOrchestration,
  insertPolicyDecision,
  readSessionAudit,
  type AuditOrchestration,
  type AuditPolicyRecord,
} from "../../src/main/audit/audit.js";
import { AUDIT_LATEST_VERSION, AUDIT_MIGRATIONS } from "../../src/main/audit/migrations/index.js";
import { migrate, schemaVersion } from "../../src/main/platform/sqlite/migrate.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-a004-");

const at = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const base = { sessionId: "s1", agentToolUseId: "toolu_coder", agentId: "a1b2" } as const;

const verdict: AuditPolicyRecord = {
  sessionId: "s1",
  time: at(1),
  toolUseId: "toolu_gp",
  toolName: "mcp__baton__review_subagent_plan",
  agentId: "a9f00d",
  agentType: "general-purpose",
  inputDigest: "a1b2 approved",
  decision: "allow",
  rule: "default:ask",
  origin: "permission",
};
const byConductor: AuditOrchestration = { kind: "review", ...base, time: at(2), toolUseId: "toolu_plan1", outcome: "approved", by: "conductor" };
const byPerson: AuditOrchestration = { kind: "answer", ...base, time: at(3), toolUseId: "toolu_ask1", outcome: "answered", reply: "JSON", by: "person" };
const byBaton: AuditOrchestration = { kind: "answer", ...base, time: at(4), toolUseId: "toolu_ask2", outcome: "failed", reply: "the turn was interrupted", by: "baton" };
const phase: AuditOrchestration = { kind: "phase", ...base, time: at(2), phase: "executing" };

/** A version-3 trail as Baton wrote it: a verdict, settlements by each settler, a phase, an interrupt; and a verdict of s2. */
function v3Trail(file: string): Database.Database {
  const db = new Database(file);
  migrate(db, AUDIT_MIGRATIONS, 3);
  insertPolicyDecision(db, verdict);
  for (const row of [byConductor, phase, byPerson, byBaton]) insertOrchestration(db, row);
  insertInterrupt(db, { sessionId: "s1", time: at(5) });
  insertPolicyDecision(db, { ...verdict, sessionId: "s2" });
  return db;
}

function columns(db: Database.Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
}

describe("audit migration 4 (who answered)", () => {
  it("a fresh file: every version up to 4, answered_by on the DAG, decisions by Baton's MCP server, the trail's triggers and indexes all there", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    expect(migrate(db, AUDIT_MIGRATIONS, 4)).toEqual([1, 2, 3, 4]);
    expect(schemaVersion(db)).toBe(4);
    expect(columns(db, "audit_orchestration")).toContain("answered_by");
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").pluck().all()).toEqual([
      "audit_interrupts_seq", "audit_orchestration_seq", "audit_permissions_seq", "audit_policy_decisions_seq",
    ]);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_policy_decisions'").pluck().all()).toEqual(["audit_policy_decisions_session"]);
    const refused = { ...verdict, decision: "deny", rule: "conductor-only", message: "Only the conductor (the main agent) may call review_subagent_plan", origin: "mcp" } as const;
    insertPolicyDecision(db, refused);
    insertOrchestration(db, { ...byConductor, answeredBy: "main" });
    expect(readSessionAudit(db, "s1").trail).toEqual([{ kind: "decision", ...refused }, { ...byConductor, answeredBy: "main" }]);
    db.close();
  });

  it("upgrades a version-3 trail in place: earlier rows intact, settlers named, a conductor's answer left unnamed, new rows numbered after", () => {
    const db = v3Trail(path.join(tempDir(), "audit.sqlite"));
    const before = { s1: readSessionAudit(db, "s1"), s2: readSessionAudit(db, "s2") };
    const seqs = db.prepare("SELECT id, seq FROM audit_policy_decisions ORDER BY id").all();
    expect(migrate(db, AUDIT_MIGRATIONS, 4)).toEqual([4]);
    expect(schemaVersion(db)).toBe(4);
    expect(db.prepare("SELECT id, seq FROM audit_policy_decisions ORDER BY id").all()).toEqual(seqs);
    const named = before.s1.trail.map((r) => ((r.kind === "answer" || r.kind === "review") && r.by !== "conductor" ? { ...r, answeredBy: r.by } : r));
    expect(readSessionAudit(db, "s1")).toEqual({ ...before.s1, trail: named });
    expect(readSessionAudit(db, "s1").trail.find((r) => r.kind === "review")).not.toHaveProperty("answeredBy");
    expect(readSessionAudit(db, "s2")).toEqual(before.s2);

    // The rebuilt table's trigger numbers a new decision after every earlier row of the trail.
    insertPolicyDecision(db, { ...verdict, toolUseId: "toolu_gp2", decision: "deny", rule: "conductor-only", origin: "mcp" });
    insertOrchestration(db, { ...byConductor, toolUseId: "toolu_plan2", answeredBy: "main" });
    const last = db.prepare("SELECT last FROM audit_sequence").pluck().get() as number;
    expect(db.prepare("SELECT seq FROM audit_policy_decisions WHERE tool_use_id = 'toolu_gp2'").pluck().get()).toBe(last - 1);
    expect(readSessionAudit(db, "s1").trail.slice(-2).map((r) => r.kind)).toEqual(["decision", "review"]);
    db.close();
  });

  it("the schema refuses an origin it does not know and a name on a row nobody answered; the writer refuses an empty name before SQL", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 4);
    expect(() => insertPolicyDecision(db, { ...verdict, origin: "desk" as never })).toThrow(/unknown origin/);
    expect(() =>
      db.prepare("INSERT INTO audit_policy_decisions (session_id, time, tool_use_id, tool_name, input_digest, decision, rule, origin) VALUES ('s1', 'now', 't', 'x', '', 'deny', 'r', 'desk')").run(),
    ).toThrow(/CHECK constraint/);
    expect(() => db.prepare("INSERT INTO audit_orchestration (session_id, time, agent_tool_use_id, kind, phase, answered_by) VALUES ('s1', 'now', 'a', 'phase', 'review', 'main')").run()).toThrow(
      /CHECK constraint/,
    );
    expect(() =>
      db.prepare("INSERT INTO audit_orchestration (session_id, time, agent_tool_use_id, kind, tool_use_id, outcome, settled_by, answered_by) VALUES ('s1', 'now', 'a', 'answer', 't', 'answered', 'conductor', '')").run(),
    ).toThrow(/CHECK constraint/);
    expect(() => insertOrchestration(db, { ...byConductor, answeredBy: "" })).toThrow(/answeredBy/);
    expect(db.prepare("SELECT count(*) FROM audit_orchestration").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM audit_policy_decisions").pluck().get()).toBe(0);
    db.close();
  });

  it("a store opening a version-3 audit file upgrades it and keeps its trail", () => {
    const dir = tempDir();
    const v3 = v3Trail(path.join(dir, "audit.sqlite"));
    const before = readSessionAudit(v3, "s2");
    v3.close();
    const store = new StoreService({ dbPath: path.join(dir, "history.db") });
    try {
      expect(store.info().audit).toMatchObject({ schemaVersion: AUDIT_LATEST_VERSION, error: null, movedAsideTo: null });
      expect(store.readAudit("s2")).toEqual(before);
      expect(store.readAudit("s1").trail.filter((r) => r.kind === "answer").map((r) => (r.kind === "answer" ? r.answeredBy : undefined))).toEqual(["person", "baton"]);
      store.recordOrchestration({ ...byConductor, toolUseId: "toolu_plan3", answeredBy: "main" });
      expect(store.readAudit("s1").trail.at(-1)).toEqual({ ...byConductor, toolUseId: "toolu_plan3", answeredBy: "main" });
    } finally {
      store.close();
    }
  });
});

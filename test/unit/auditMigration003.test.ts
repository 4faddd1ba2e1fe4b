// Audit migration 3 (the session DAG): a fresh file gets the orchestration table; a version-2
// trail with rows is upgraded in place, every earlier row reads back as before and new rows take
// their place after them in the one trail; the schema refuses a row without what its kind needs;
// a file from a newer Baton is refused and left untouched; a damaged one is moved aside.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { insertInterrupt, insertOrchestration, insertPermission, insertPolicyDecision, readSessionAudit, type AuditOrchestration } from "../../src/main/audit/audit.js";
import { AUDIT_LATEST_VERSION, AUDIT_MIGRATIONS } from "../../src/main/audit/migrations/index.js";
import { StoreError } from "../../src/main/platform/sqlite/errors.js";
import { migrate, schemaVersion } from "../../src/main/platform/sqlite/migrate.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-a003-");

/** A version-2 trail as Baton wrote it: an answer, an interrupt and a verdict of s1, a verdict of s2. */
function v2Trail(file: string): Database.Database {
  const db = new Database(file);
  migrate(db, AUDIT_MIGRATIONS, 2);
  insertPermission(db, { sessionId: "s1", requestId: "req-1", toolUseId: "toolu_1", toolName: "Bash", decision: "allow", decidedBy: "user", time: "2026-01-01T00:00:01.000Z" });
  insertInterrupt(db, { sessionId: "s1", time: "2026-01-01T00:00:02.000Z" });
  const verdict = { time: "2026-01-01T00:00:03.000Z", toolUseId: "toolu_2", toolName: "Bash", inputDigest: "ls", decision: "allow", rule: "preset:coder/exec", origin: "hook" } as const;
  insertPolicyDecision(db, { ...verdict, sessionId: "s1", agentId: "a01", agentType: "coder", preset: "coder" });
  insertPolicyDecision(db, { ...verdict, sessionId: "s2" });
  return db;
}

const spawn: AuditOrchestration = { kind: "spawn", sessionId: "s1", time: "2026-01-01T00:00:04.000Z", agentToolUseId: "toolu_agent", subagentType: "coder", description: "Fix it", background: true };
const question: AuditOrchestration = {
  kind: "question",
  sessionId: "s1",
  time: "2026-01-01T00:00:05.000Z",
  agentToolUseId: "toolu_agent",
  agentId: "a01",
  toolUseId: "toolu_ask",
  question: "Which file?",
  routedTo: "conductor",
  reason: "background agent",
};
const plan: AuditOrchestration = {
  kind: "plan",
  sessionId: "s1",
  time: "2026-01-01T00:00:06.000Z",
  agentToolUseId: "toolu_agent",
  toolUseId: "toolu_plan",
  plan: { goal: "Fix", steps: ["one", "two"], version: 2 },
  routedTo: "person",
  reason: "no answer in 120 s",
};
const review: AuditOrchestration = {
  kind: "review",
  sessionId: "s1",
  time: "2026-01-01T00:00:07.000Z",
  agentToolUseId: "toolu_agent",
  toolUseId: "toolu_plan",
  outcome: "approved",
  approvedPlan: "Goal: Fix\n\n1. one",
  by: "person",
};

function columns(db: Database.Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
}

describe("audit migration 3 (the session DAG)", () => {
  it("a fresh file: every version up to 3, the orchestration table and its order trigger", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    expect(migrate(db, AUDIT_MIGRATIONS, 3)).toEqual([1, 2, 3]);
    expect(schemaVersion(db)).toBe(3);
    expect(columns(db, "audit_orchestration")).toEqual(expect.arrayContaining(["seq", "session_id", "kind", "agent_tool_use_id", "agent_id", "tool_use_id", "parent_tool_use_id", "outcome", "settled_by", "phase", "status"]));
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").pluck().all()).toEqual([
      "audit_interrupts_seq", "audit_orchestration_seq", "audit_permissions_seq", "audit_policy_decisions_seq",
    ]);
    for (const row of [spawn, question, plan, review]) insertOrchestration(db, row);
    expect(readSessionAudit(db, "s1").trail).toEqual([spawn, question, plan, review]);
    db.close();
  });

  it("upgrades a version-2 trail in place: every earlier row intact, new rows numbered after them", () => {
    const db = v2Trail(path.join(tempDir(), "audit.sqlite"));
    const before = { s1: readSessionAudit(db, "s1"), s2: readSessionAudit(db, "s2"), last: db.prepare("SELECT last FROM audit_sequence").pluck().get() };
    expect(migrate(db, AUDIT_MIGRATIONS, 3)).toEqual([3]);
    expect(schemaVersion(db)).toBe(3);
    expect(readSessionAudit(db, "s1")).toEqual(before.s1);
    expect(readSessionAudit(db, "s2")).toEqual(before.s2);
    expect(before.last).toBe(4);

    insertOrchestration(db, spawn);
    insertInterrupt(db, { sessionId: "s1", time: spawn.time }); // the same millisecond: recorded order decides
    insertOrchestration(db, question);
    expect(db.prepare("SELECT seq FROM audit_orchestration ORDER BY id").pluck().all()).toEqual([5, 7]);
    expect(readSessionAudit(db, "s1").trail.map((r) => r.kind)).toEqual(["decision", "interrupt", "decision", "spawn", "interrupt", "question"]);
    expect(readSessionAudit(db, "s2").trail.map((r) => r.kind)).toEqual(["decision"]);
    db.close();
  });

  it("the schema refuses a row its kind cannot be read back from, and the writer refuses it before SQL", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 3);
    const raw = (cols: string, values: string): (() => unknown) => () =>
      db.prepare(`INSERT INTO audit_orchestration (session_id, time, agent_tool_use_id, ${cols}) VALUES ('s1', 'now', 'toolu_agent', ${values})`).run();
    expect(raw("kind", "'guess'")).toThrow(/CHECK constraint/);
    expect(raw("kind", "'question'")).toThrow(/CHECK constraint/);
    expect(raw("kind, tool_use_id, question, routed_to, reason", "'question', 't', 'q', 'nobody', 'r'")).toThrow(/CHECK constraint/);
    expect(raw("kind, tool_use_id, outcome", "'answer', 't', 'answered'")).toThrow(/CHECK constraint/);
    expect(raw("kind, phase", "'phase', 'dreaming'")).toThrow(/CHECK constraint/);
    expect(raw("kind, status", "'status', 'sleeping'")).toThrow(/CHECK constraint/);
    expect(raw("kind, background", "'spawn', 2")).toThrow(/CHECK constraint/);
    expect(() => insertOrchestration(db, { ...question, routedTo: "nobody" as never })).toThrow(/unknown routedTo/);
    expect(() => insertOrchestration(db, { ...review, by: "timeout" as never })).toThrow(/unknown by/);
    expect(() => insertOrchestration(db, { ...plan, plan: { goal: "x", steps: [1] as never, version: 1 } })).toThrow(/plan.steps/);
    expect(() => insertOrchestration(db, { ...spawn, agentToolUseId: "" })).toThrow(/agentToolUseId/);
    expect(() => insertOrchestration(db, { ...spawn, kind: "rumour" as never })).toThrow(/unknown kind/);
    expect(db.prepare("SELECT count(*) FROM audit_orchestration").pluck().get()).toBe(0);
    db.close();
  });

  it("a store opening a version-2 audit file upgrades it and keeps its trail", () => {
    const dir = tempDir();
    const before = readSessionAudit(v2Trail(path.join(dir, "audit.sqlite")), "s1");
    const store = new StoreService({ dbPath: path.join(dir, "history.db") });
    try {
      expect(store.info().audit).toMatchObject({ schemaVersion: AUDIT_LATEST_VERSION, error: null, movedAsideTo: null });
      expect(store.readAudit("s1")).toEqual(before);
      store.recordOrchestration(spawn);
      expect(store.readAudit("s1").trail.at(-1)).toEqual(spawn);
    } finally {
      store.close();
    }
  });

  it("a newer audit file is refused and left untouched; a damaged one is moved aside, kept, and a fresh trail takes the DAG", () => {
    const dir = tempDir();
    const auditPath = path.join(dir, "audit.sqlite");
    const newer = new Database(auditPath);
    newer.pragma(`user_version = ${AUDIT_LATEST_VERSION + 1}`);
    newer.close();
    const bytes = fs.readFileSync(auditPath);
    const store = new StoreService({ dbPath: path.join(dir, "history.db") });
    try {
      expect(store.info().audit.error?.code).toBe("newer_schema");
      expect(() => store.recordOrchestration(spawn)).toThrow(StoreError);
    } finally {
      store.close();
    }
    expect(fs.readFileSync(auditPath).equals(bytes)).toBe(true);

    const garbage = Buffer.from("not an audit trail ".repeat(300));
    fs.writeFileSync(auditPath, garbage);
    const again = new StoreService({ dbPath: path.join(dir, "history.db") });
    try {
      const movedTo = again.info().audit.movedAsideTo;
      expect(movedTo).toMatch(/audit\.sqlite\.corrupt-/);
      expect(fs.readFileSync(movedTo!).equals(garbage)).toBe(true);
      again.recordOrchestration(spawn);
      expect(again.readAudit("s1").trail).toEqual([spawn]);
    } finally {
      again.close();
    }
  });
});

// Audit migration 5 (what held each decision, issue 31): a fresh file records whether a preset
// agent's allowed Bash ran in the OS sandbox or under policy check only; a version-4 trail is
// upgraded in place with every earlier row reading back as before (no protection: there was no
// OS sandbox then); the schema and the writer refuse a protection they do not know.
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { insertPolicyDecision, readSessionAudit, type AuditPolicyRecord } from "../../src/main/audit/audit.js";
import { AUDIT_LATEST_VERSION, AUDIT_MIGRATIONS } from "../../src/main/audit/migrations/index.js";
import { migrate, schemaVersion } from "../../src/main/platform/sqlite/migrate.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-a005-");

const allowed: AuditPolicyRecord = {
  sessionId: "s1",
  time: "2026-12-01T00:00:01.000Z",
  toolUseId: "toolu_ls",
  toolName: "Bash",
  agentId: "a1",
  agentType: "coder",
  preset: "coder",
  inputDigest: "npm test",
  decision: "allow",
  rule: "preset:coder",
  origin: "hook",
};

describe("audit migration 5 (protection)", () => {
  it("a fresh file records the OS sandbox and policy check only, and reads them back", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    expect(migrate(db, AUDIT_MIGRATIONS, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(schemaVersion(db)).toBe(5);
    insertPolicyDecision(db, { ...allowed, protection: "os-sandbox" });
    insertPolicyDecision(db, { ...allowed, toolUseId: "toolu_2", protection: "policy-only" });
    insertPolicyDecision(db, { ...allowed, toolUseId: "toolu_3", toolName: "Read", rule: "preset:coder" });
    expect(readSessionAudit(db, "s1").trail.map((r) => (r.kind === "decision" ? r.protection : "?"))).toEqual(["os-sandbox", "policy-only", undefined]);
    db.close();
  });

  it("upgrades a version-4 trail in place, its rows as before", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 4);
    db.prepare(
      "INSERT INTO audit_policy_decisions (session_id, time, tool_use_id, tool_name, agent_id, agent_type, preset, input_digest, decision, rule, origin) VALUES ('s1', ?, 'toolu_old', 'Bash', 'a1', 'coder', 'coder', 'ls', 'allow', 'preset:coder', 'hook')",
    ).run(allowed.time);
    const before = readSessionAudit(db, "s1");
    expect(migrate(db, AUDIT_MIGRATIONS, 5)).toEqual([5]);
    expect(readSessionAudit(db, "s1")).toEqual(before);
    expect(before.trail[0]).not.toHaveProperty("protection");
    db.close();
  });

  it("refuses a protection it does not know, in the writer and in the schema", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 5);
    expect(() => insertPolicyDecision(db, { ...allowed, protection: "container" as never })).toThrow(/unknown protection/);
    expect(() =>
      db.prepare("INSERT INTO audit_policy_decisions (session_id, time, tool_use_id, tool_name, input_digest, decision, rule, origin, protection) VALUES ('s1', 'now', 't', 'Bash', '', 'allow', 'r', 'hook', 'none')").run(),
    ).toThrow(/CHECK constraint/);
    db.close();
  });

  it("a store writes and reads the protection through its worker's service", () => {
    const store = new StoreService({ dbPath: path.join(tempDir(), "history.db") });
    try {
      expect(store.info().audit).toMatchObject({ schemaVersion: AUDIT_LATEST_VERSION, error: null });
      store.recordPolicyDecision({ ...allowed, protection: "os-sandbox" });
      expect(store.readAudit("s1").trail[0]).toMatchObject({ kind: "decision", protection: "os-sandbox" });
    } finally {
      store.close();
    }
  });
});

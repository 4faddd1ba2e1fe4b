// Audit migration 6 (terminal sessions, issue 35): a fresh file records a decision made on a
// terminal session's hook (origin "terminal") and reads it back; a version-5 trail is upgraded in
// place with every earlier row, its place in the trail and its protection reading back as before;
// the schema and the writer still refuse an origin they do not know.
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { insertPolicyDecision, readSessionAudit, type AuditPolicyRecord } from "../../src/main/audit/audit.js";
import { AUDIT_MIGRATIONS } from "../../src/main/audit/migrations/index.js";
import { migrate, schemaVersion } from "../../src/main/platform/sqlite/migrate.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-a006-");

const denied: AuditPolicyRecord = {
  sessionId: "s1",
  time: "2026-12-01T00:00:01.000Z",
  toolUseId: "toolu_rm",
  toolName: "Bash",
  agentId: "a1",
  agentType: "general-purpose",
  inputDigest: "rm -rf build",
  decision: "deny",
  rule: "rule:deny Bash(rm:*) (everywhere)",
  origin: "terminal",
};

describe("audit migration 6 (terminal)", () => {
  it("a fresh file records a terminal session's decision and reads it back in the trail's order", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    expect(migrate(db, AUDIT_MIGRATIONS, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(schemaVersion(db)).toBe(6);
    insertPolicyDecision(db, { ...denied, origin: "hook" });
    insertPolicyDecision(db, { ...denied, toolUseId: "toolu_2" });
    expect(readSessionAudit(db, "s1").trail.map((r) => (r.kind === "decision" ? [r.toolUseId, r.origin] : "?"))).toEqual([
      ["toolu_rm", "hook"],
      ["toolu_2", "terminal"],
    ]);
    db.close();
  });

  it("upgrades a version-5 trail in place, its rows as before", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 5);
    insertPolicyDecision(db, { ...denied, origin: "hook", protection: "os-sandbox" });
    insertPolicyDecision(db, { ...denied, toolUseId: "toolu_mcp", origin: "mcp" });
    const before = readSessionAudit(db, "s1");
    expect(migrate(db, AUDIT_MIGRATIONS, 6)).toEqual([6]);
    expect(readSessionAudit(db, "s1")).toEqual(before);
    insertPolicyDecision(db, { ...denied, toolUseId: "toolu_after" });
    expect(readSessionAudit(db, "s1").trail.map((r) => (r.kind === "decision" ? r.toolUseId : "?"))).toEqual(["toolu_rm", "toolu_mcp", "toolu_after"]);
    db.close();
  });

  it("refuses an origin it does not know, in the writer and in the schema", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 6);
    expect(() => insertPolicyDecision(db, { ...denied, origin: "phone" as never })).toThrow(/unknown origin/);
    expect(() =>
      db.prepare("INSERT INTO audit_policy_decisions (session_id, time, tool_use_id, tool_name, input_digest, decision, rule, origin) VALUES ('s1', 'now', 't', 'Bash', '', 'deny', 'r', 'phone')").run(),
    ).toThrow(/CHECK constraint/);
    db.close();
  });
});

// Audit migration 7 (forks, issue 37): a fresh file records which session each fork continues and
// at which prompt, and reads it back for the fork (a restore, `baton audit`) and all at once (the
// session list), a fork of a fork too; the first record of a fork stands; a version-6 trail is
// upgraded in place with every earlier row as before; the writer and the schema refuse a fork with
// missing parts or of itself; a store opening a version-6 file upgrades it and records forks.
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { insertFork, insertInterrupt, insertPolicyDecision, readForks, readSessionAudit, type AuditFork, type AuditPolicyRecord } from "../../src/main/audit/audit.js";
import { AUDIT_LATEST_VERSION, AUDIT_MIGRATIONS } from "../../src/main/audit/migrations/index.js";
import { migrate, schemaVersion } from "../../src/main/platform/sqlite/migrate.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-a007-");

const fork: AuditFork = { forkSessionId: "f1", originSessionId: "s1", promptUuid: "00000000-0000-4000-8000-000000000002", time: "2026-12-06T10:00:00.000Z" };
const forkOfFork: AuditFork = { forkSessionId: "ff", originSessionId: "f1", promptUuid: "00000000-0000-4000-8000-000000000009", time: "2026-12-06T10:05:00.000Z" };

const verdict: AuditPolicyRecord = {
  sessionId: "s1",
  time: "2026-12-01T00:00:01.000Z",
  toolUseId: "toolu_1",
  toolName: "Bash",
  inputDigest: "git status",
  decision: "allow",
  rule: "rule:allow Bash(git status:*) (project)",
  origin: "terminal",
  protection: "policy-only",
};

describe("audit migration 7 (forks)", () => {
  it("a fresh file records forks and reads each back for its session and all at once, a fork of a fork too", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    expect(migrate(db, AUDIT_MIGRATIONS, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(schemaVersion(db)).toBe(7);
    insertFork(db, forkOfFork);
    insertFork(db, fork);
    expect(readSessionAudit(db, "f1").forkedFrom).toEqual(fork);
    expect(readSessionAudit(db, "ff").forkedFrom).toEqual(forkOfFork);
    // The origin is no fork: its trail says nothing of one.
    expect(readSessionAudit(db, "s1")).toEqual({ permissions: [], interrupts: [], trail: [] });
    expect(readForks(db)).toEqual([fork, forkOfFork]);
    db.close();
  });

  it("keeps a fork's first record: its CLI started again names the same session", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 7);
    insertFork(db, fork);
    insertFork(db, { ...fork, originSessionId: "other", time: "2026-12-06T11:00:00.000Z" });
    expect(readForks(db)).toEqual([fork]);
    db.close();
  });

  it("upgrades a version-6 trail in place, its rows as before, and then records forks", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 6);
    insertPolicyDecision(db, verdict);
    insertInterrupt(db, { sessionId: "s1", time: "2026-12-01T00:00:02.000Z" });
    // Read before the upgrade: a version-6 file has no forks to read.
    const before = readSessionAudit(db, "s1");
    expect(readForks(db)).toEqual([]);
    expect(migrate(db, AUDIT_MIGRATIONS, 7)).toEqual([7]);
    expect(readSessionAudit(db, "s1")).toEqual(before);
    insertFork(db, { ...fork, originSessionId: "s0", forkSessionId: "s1" });
    expect(readSessionAudit(db, "s1")).toEqual({ ...before, forkedFrom: { ...fork, originSessionId: "s0", forkSessionId: "s1" }, forkOrigins: ["s0"] });
    db.close();
  });

  it("refuses a fork with a missing part or of itself, in the writer and in the schema", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 7);
    expect(() => insertFork(db, { ...fork, promptUuid: "" })).toThrow(/promptUuid must be a non-empty string/);
    expect(() => insertFork(db, { ...fork, originSessionId: undefined as never })).toThrow(/originSessionId/);
    expect(() => insertFork(db, { ...fork, originSessionId: "f1" })).toThrow(/not a fork of itself/);
    expect(() => db.prepare("INSERT INTO audit_forks (fork_session_id, origin_session_id, prompt_uuid, time) VALUES ('a', 'a', 'p', 't')").run()).toThrow(/CHECK constraint/);
    expect(() => db.prepare("INSERT INTO audit_forks (fork_session_id, origin_session_id, prompt_uuid, time) VALUES ('a', 'b', '', 't')").run()).toThrow(/CHECK constraint/);
    expect(readForks(db)).toEqual([]);
    db.close();
  });

  it("a store opening a version-6 audit file upgrades it, keeps its trail and records forks", () => {
    const dir = tempDir();
    const v6 = new Database(path.join(dir, "audit.sqlite"));
    migrate(v6, AUDIT_MIGRATIONS, 6);
    insertPolicyDecision(v6, verdict);
    const before = readSessionAudit(v6, "s1");
    v6.close();
    const store = new StoreService({ dbPath: path.join(dir, "history.db") });
    try {
      expect(store.info().audit).toMatchObject({ schemaVersion: AUDIT_LATEST_VERSION, error: null, movedAsideTo: null });
      expect(store.readAudit("s1")).toEqual(before);
      store.recordFork(fork);
      expect(store.readForks()).toEqual([fork]);
      expect(store.readAudit("f1").forkedFrom).toEqual(fork);
    } finally {
      store.close();
    }
  });
});

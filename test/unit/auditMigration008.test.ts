// Audit migration 8 (file rewinds, issue 37): a fresh file records each rewind Baton applied (the
// session, the prompt, the files, their whole count, when) in the trail's order among the other
// rows; a long file list is kept bounded with the whole count; a version-7 trail (forks and all)
// is upgraded in place with every earlier row as before; the writer and the schema refuse a rewind
// with missing parts; a store opening a version-7 file upgrades it and records rewinds.
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { insertFork, insertInterrupt, insertPolicyDecision, insertRewind, readSessionAudit, rewindRecord, type AuditPolicyRecord, type AuditRewind } from "../../src/main/audit/audit.js";
import { MaxRewindFiles } from "../../src/main/audit/auditRewinds.js";
import { AUDIT_LATEST_VERSION, AUDIT_MIGRATIONS } from "../../src/main/audit/migrations/index.js";
import { migrate, schemaVersion } from "../../src/main/platform/sqlite/migrate.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-a008-");

const Prompt2 = "00000000-0000-4000-8000-000000000002";
const rewind: AuditRewind = { sessionId: "s1", promptUuid: Prompt2, files: ["/home/user/code/x/a.txt", "/home/user/code/x/sub/b.txt"], fileCount: 2, time: "2026-12-06T10:00:03.000Z" };

const verdict: AuditPolicyRecord = {
  sessionId: "s1",
  time: "2026-12-06T10:00:01.000Z",
  toolUseId: "toolu_1",
  toolName: "Edit",
  inputDigest: "a.txt",
  decision: "allow",
  rule: "preset:coder/edit",
  origin: "hook",
  protection: "policy-only",
};

describe("audit migration 8 (file rewinds)", () => {
  it("a fresh file records rewinds in the trail's order among the other rows, each session's its own", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    expect(migrate(db, AUDIT_MIGRATIONS, 8)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(schemaVersion(db)).toBe(8);
    expect(AUDIT_LATEST_VERSION).toBe(8);
    insertPolicyDecision(db, verdict);
    insertRewind(db, rewind);
    insertInterrupt(db, { sessionId: "s1", time: "2026-12-06T10:00:04.000Z" });
    // A later rewind to an earlier prompt, written with an earlier clock: the trail keeps the order of writing.
    const again: AuditRewind = { ...rewind, promptUuid: "00000000-0000-4000-8000-000000000001", files: ["/home/user/code/x/a.txt"], fileCount: 1, time: "2026-12-06T10:00:02.000Z" };
    insertRewind(db, again);
    insertRewind(db, { ...rewind, sessionId: "s2" });
    const { trail } = readSessionAudit(db, "s1");
    expect(trail.map((r) => r.kind)).toEqual(["decision", "rewind", "interrupt", "rewind"]);
    expect(trail[1]).toEqual({ kind: "rewind", ...rewind });
    expect(trail[3]).toEqual({ kind: "rewind", ...again });
    expect(readSessionAudit(db, "s2").trail).toEqual([{ kind: "rewind", ...rewind, sessionId: "s2" }]);
    // Neither the answers nor the interrupts a restore reads change meaning.
    expect(readSessionAudit(db, "s1").interrupts).toEqual([{ sessionId: "s1", time: "2026-12-06T10:00:04.000Z" }]);
    db.close();
  });

  it("keeps a bounded list of a big rewind's files with the whole count", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 8);
    const files = Array.from({ length: MaxRewindFiles + 50 }, (_, i) => `/home/user/code/x/${i}.txt`);
    const record = rewindRecord("s1", Prompt2, files, rewind.time);
    expect(record.files).toHaveLength(MaxRewindFiles);
    expect(record.fileCount).toBe(MaxRewindFiles + 50);
    // A row that did not come through rewindRecord (another thread's message) is bounded on insert too.
    insertRewind(db, { ...rewind, files, fileCount: files.length });
    insertRewind(db, { ...rewind, files: [`/${"d".repeat(10_000)}`], fileCount: 1 });
    const rows = readSessionAudit(db, "s1").trail.filter((r) => r.kind === "rewind");
    expect(rows.map((r) => [r.files.length, r.fileCount])).toEqual([
      [MaxRewindFiles, MaxRewindFiles + 50],
      [1, 1],
    ]);
    expect(rows[1]!.files[0]!.length).toBe(4096);
    db.close();
  });

  it("upgrades a version-7 trail in place, its rows and forks as before, and then records rewinds", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 7);
    insertPolicyDecision(db, verdict);
    insertInterrupt(db, { sessionId: "s1", time: "2026-12-06T10:00:02.000Z" });
    insertFork(db, { forkSessionId: "s1", originSessionId: "s0", promptUuid: Prompt2, time: "2026-12-06T09:00:00.000Z" });
    // Read before the upgrade: a version-7 file has no rewinds to read.
    const before = readSessionAudit(db, "s1");
    expect(before.trail.map((r) => r.kind)).toEqual(["decision", "interrupt"]);
    expect(migrate(db, AUDIT_MIGRATIONS, 8)).toEqual([8]);
    expect(readSessionAudit(db, "s1")).toEqual(before);
    insertRewind(db, rewind);
    const after = readSessionAudit(db, "s1");
    expect(after.trail).toEqual([...before.trail, { kind: "rewind", ...rewind }]);
    expect(after.forkedFrom).toEqual(before.forkedFrom);
    db.close();
  });

  it("refuses a rewind with a missing part, in the writer and in the schema", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    migrate(db, AUDIT_MIGRATIONS, 8);
    expect(() => insertRewind(db, { ...rewind, promptUuid: "" })).toThrow(/promptUuid must be a non-empty string/);
    expect(() => insertRewind(db, { ...rewind, sessionId: undefined as never })).toThrow(/sessionId/);
    expect(() => insertRewind(db, { ...rewind, files: "a.txt" as never })).toThrow(/files must be a list of paths/);
    expect(() => insertRewind(db, { ...rewind, files: [1] as never })).toThrow(/files must be a list of paths/);
    expect(() => insertRewind(db, { ...rewind, fileCount: -1 })).toThrow(/fileCount/);
    const raw = (files: string, count: number) => () =>
      db.prepare("INSERT INTO audit_rewinds (session_id, prompt_uuid, files, file_count, time) VALUES ('s1', 'p', ?, ?, 't')").run(files, count);
    expect(raw("not json", 0)).toThrow(/CHECK constraint/);
    expect(raw('{"a":1}', 0)).toThrow(/CHECK constraint/);
    expect(raw('["a","b"]', 1)).toThrow(/CHECK constraint/);
    expect(() => db.prepare("INSERT INTO audit_rewinds (session_id, prompt_uuid, files, file_count, time) VALUES ('s1', '', '[]', 0, 't')").run()).toThrow(/CHECK constraint/);
    expect(readSessionAudit(db, "s1").trail).toEqual([]);
    db.close();
  });

  it("a store opening a version-7 audit file upgrades it, keeps its trail and records rewinds", () => {
    const dir = tempDir();
    const v7 = new Database(path.join(dir, "audit.sqlite"));
    migrate(v7, AUDIT_MIGRATIONS, 7);
    insertPolicyDecision(v7, verdict);
    const before = readSessionAudit(v7, "s1");
    v7.close();
    const store = new StoreService({ dbPath: path.join(dir, "history.db") });
    try {
      expect(store.info().audit).toMatchObject({ schemaVersion: AUDIT_LATEST_VERSION, error: null, movedAsideTo: null });
      expect(store.readAudit("s1")).toEqual(before);
      store.recordRewind(rewind);
      expect(store.readAudit("s1").trail).toEqual([...before.trail, { kind: "rewind", ...rewind }]);
    } finally {
      store.close();
    }
  });
});

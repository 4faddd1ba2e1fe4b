// Baton's audit trail in its own SQLite file (audit.sqlite beside the index): its migration, its
// survival when the index is rebuilt, a damaged or newer audit file, a development build's index
// that held the trail, writing and reading back per session, and the writer through the worker.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { AuditPermission } from "../../src/main/audit/audit.js";
import { AUDIT_LATEST_VERSION, AUDIT_MIGRATIONS } from "../../src/main/audit/migrations/index.js";
import { createAuditReader, createAuditTrail } from "../../src/main/store/auditTrail.js";
import { StoreError } from "../../src/main/platform/sqlite/errors.js";
import { migrate, schemaVersion } from "../../src/main/platform/sqlite/migrate.js";
import { LATEST_VERSION, MIGRATIONS } from "../../src/main/search/migrations/index.js";
import { openStore } from "../../src/main/store/storeClient.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-audit-");

const deny: AuditPermission = {
  sessionId: "s1",
  requestId: "req-2",
  toolUseId: "toolu_sub_1",
  agentId: "a0123456789abcdef",
  agentToolUseId: "toolu_agent_1",
  toolName: "Bash",
  decision: "deny",
  decidedBy: "user",
  message: "Not in this folder",
  time: "2026-01-01T00:00:02.000Z",
};
const allow: AuditPermission = { sessionId: "s1", requestId: "req-1", toolUseId: "toolu_main_1", toolName: "Write", decision: "allow", decidedBy: "policy:project-writes", time: "2026-01-01T00:00:01.000Z" };

/** A projects dir with one session "s1" whose prompt holds `word`. */
function projectsWith(dir: string, word: string): string {
  const projects = path.join(dir, "projects");
  const file = path.join(projects, "-home-user-code-x", "s1.jsonl");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const line = { type: "user", message: { role: "user", content: `find ${word} please` }, uuid: "u1", timestamp: "2026-01-01T00:00:00.000Z", sessionId: "s1", cwd: "/home/user/code/x" };
  fs.writeFileSync(file, `${JSON.stringify(line)}\n`);
  return projects;
}

function tables(db: Database.Database): unknown[] {
  return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'audit_%' ORDER BY name").pluck().all();
}

function thrown(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error("expected a StoreError");
}

describe("the audit file's own schema", () => {
  it("audit version 1 creates the trail's tables, and the schema refuses an unknown decision", () => {
    const db = new Database(path.join(tempDir(), "audit.sqlite"));
    expect(migrate(db, AUDIT_MIGRATIONS, 1)).toEqual([1]);
    expect(schemaVersion(db)).toBe(1);
    expect(tables(db)).toEqual(["audit_interrupts", "audit_permissions"]);
    expect(migrate(db, AUDIT_MIGRATIONS, 1)).toEqual([]);
    expect(() =>
      db.prepare("INSERT INTO audit_permissions (session_id, request_id, tool_use_id, tool_name, decision, time) VALUES ('s', 'r', 't', 'Bash', 'maybe', 'now')").run(),
    ).toThrow(/CHECK constraint/);
    db.close();
  });

  it("the store puts the trail in audit.sqlite beside the index (WAL, latest version) and none of it in the index", () => {
    const dir = tempDir();
    const store = new StoreService({ dbPath: path.join(dir, "sub", "h.db") });
    store.recordPermission(allow);
    const info = store.info();
    expect(info.schemaVersion).toBe(LATEST_VERSION);
    expect(info.audit).toEqual({ path: path.join(dir, "sub", "audit.sqlite"), schemaVersion: AUDIT_LATEST_VERSION, movedAsideTo: null, error: null, waitingWrites: 0 });
    store.close();
    const audit = new Database(path.join(dir, "sub", "audit.sqlite"), { readonly: true });
    expect(audit.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(audit.prepare("SELECT request_id FROM audit_permissions").pluck().all()).toEqual(["req-1"]);
    audit.close();
    const index = new Database(path.join(dir, "sub", "h.db"), { readonly: true });
    expect(tables(index)).toEqual([]);
    index.close();
  });

  it("the index's migrations stop at the catalogue and full text, with no audit step", () => {
    const db = new Database(":memory:");
    migrate(db, MIGRATIONS);
    expect(tables(db)).toEqual([]);
    db.close();
  });
});

describe("the audit trail and the index are separate files", () => {
  it("the trail survives a damaged index: the index is moved aside and rebuilt, the decisions still read back", async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, "h.db");
    const first = new StoreService({ dbPath });
    first.recordPermission(allow);
    first.recordInterrupt({ sessionId: "s1", time: "2026-01-01T00:00:03.000Z" });
    await first.index(projectsWith(dir, "okapi"));
    first.close();
    fs.writeFileSync(dbPath, Buffer.from("this is not sqlite at all ".repeat(200)));

    const again = new StoreService({ dbPath });
    expect(again.info().movedAsideTo).toMatch(/h\.db\.corrupt-/);
    expect(again.info().audit.movedAsideTo).toBeNull();
    await again.index(path.join(dir, "projects"));
    expect(again.search("okapi")).toHaveLength(1);
    expect(again.readAudit("s1")).toEqual({ permissions: [allow], interrupts: [{ sessionId: "s1", time: "2026-01-01T00:00:03.000Z" }], trail: expect.any(Array) });
    again.close();
  });

  it("a damaged audit file is moved aside, kept byte for byte, named in the message, and a fresh trail works", () => {
    const dir = tempDir();
    const auditPath = path.join(dir, "audit.sqlite");
    const garbage = Buffer.from("not an audit trail ".repeat(300));
    fs.writeFileSync(auditPath, garbage);
    const store = new StoreService({ dbPath: path.join(dir, "h.db") });
    const { audit } = store.info();
    expect(audit.movedAsideTo).toMatch(/audit\.sqlite\.corrupt-\d{4}-\d{2}-\d{2}T/);
    expect(fs.readFileSync(audit.movedAsideTo!).equals(garbage)).toBe(true);
    expect(audit.error).toBeNull();
    store.recordPermission(deny);
    store.close();
    const again = new StoreService({ dbPath: path.join(dir, "h.db") });
    expect(again.info().audit.movedAsideTo).toBeNull();
    expect(again.readAudit("s1").permissions).toEqual([deny]);
    again.close();
  });

  it("an audit file damaged while open: the call fails naming where the earlier decisions went, and the next one works", () => {
    const dir = tempDir();
    const store = new StoreService({ dbPath: path.join(dir, "h.db") });
    store.recordPermission(allow);
    const auditPath = path.join(dir, "audit.sqlite");
    for (const file of [auditPath, `${auditPath}-wal`, `${auditPath}-shm`]) {
      if (fs.existsSync(file)) fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size + 8192, 7));
    }
    const err = thrown(() => store.readAudit("s1"));
    expect(err.code).toBe("corrupt_recovered");
    const movedTo = store.info().audit.movedAsideTo;
    expect(movedTo).toMatch(/audit\.sqlite\.corrupt-/);
    expect(err.message).toContain(`recorded before are in ${movedTo}`);
    expect(fs.existsSync(movedTo!)).toBe(true);
    store.recordPermission(deny);
    expect(store.readAudit("s1").permissions).toEqual([deny]);
    store.close();
  });

  it("refuses an audit file from a newer Baton, leaves it untouched, and keeps search working", async () => {
    const dir = tempDir();
    const auditPath = path.join(dir, "audit.sqlite");
    const db = new Database(auditPath);
    db.exec("CREATE TABLE future (x)");
    db.pragma(`user_version = ${AUDIT_LATEST_VERSION + 1}`);
    db.close();
    const before = fs.readFileSync(auditPath);
    const store = new StoreService({ dbPath: path.join(dir, "h.db") });
    expect(store.info().audit.error).toEqual({ code: "newer_schema", message: expect.stringContaining(`schema version ${AUDIT_LATEST_VERSION + 1}`) as string });
    expect(thrown(() => store.recordPermission(allow)).code).toBe("newer_schema");
    expect(thrown(() => store.readAudit("s1")).code).toBe("newer_schema");
    await store.index(projectsWith(dir, "okapi"));
    expect(store.search("okapi")).toHaveLength(1);
    store.close();
    expect(fs.readFileSync(auditPath).equals(before)).toBe(true);
  });

  it("retires a development build's version-3 index that held the trail: its rows move to audit.sqlite, the index is rebuilt", async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, "h.db");
    const dev = new Database(dbPath);
    migrate(dev, MIGRATIONS, 2);
    migrate(dev, [{ ...AUDIT_MIGRATIONS[0]!, version: 3 }], 3);
    dev.prepare("INSERT INTO audit_permissions (session_id, request_id, tool_use_id, tool_name, decision, decided_by, message, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .run(deny.sessionId, deny.requestId, deny.toolUseId, deny.toolName, deny.decision, deny.decidedBy, deny.message, deny.time);
    dev.prepare("INSERT INTO audit_interrupts (session_id, time) VALUES ('s1', '2026-01-01T00:00:03.000Z')").run();
    expect(schemaVersion(dev)).toBe(3);
    dev.close();

    const store = new StoreService({ dbPath });
    const info = store.info();
    expect(info.schemaVersion).toBe(LATEST_VERSION);
    expect(info.retired).toMatch(/development build/);
    expect(info.movedAsideTo).toMatch(/h\.db\.retired-/);
    expect(fs.existsSync(info.movedAsideTo!)).toBe(true);
    const { agentId: _a, agentToolUseId: _b, ...denyAsStored } = deny;
    expect(store.readAudit("s1")).toEqual({ permissions: [denyAsStored], interrupts: [{ sessionId: "s1", time: "2026-01-01T00:00:03.000Z" }], trail: expect.any(Array) });
    await store.index(projectsWith(dir, "okapi"));
    expect(store.search("okapi")).toHaveLength(1);
    store.close();
    // Opened again: an ordinary index now, nothing retired or copied twice.
    const again = new StoreService({ dbPath });
    expect(again.info().retired).toBeNull();
    expect(again.readAudit("s1").permissions).toHaveLength(1);
    again.close();
  });

  it("refuses audit.sqlite as the index path", () => {
    expect(thrown(() => new StoreService({ dbPath: path.join(tempDir(), "audit.sqlite") })).code).toBe("forbidden_path");
  });
});

describe("the audit trail in the store", () => {
  it("reads back each session's decisions and interrupts in the order they happened, across reopening", () => {
    const dbPath = path.join(tempDir(), "baton.db");
    const store = new StoreService({ dbPath });
    store.recordPermission(allow);
    store.recordInterrupt({ sessionId: "s2", time: "2026-01-01T00:00:01.500Z" });
    store.recordPermission(deny);
    store.recordPermission({ ...allow, sessionId: "s2", requestId: "req-9", decision: "cancelled", decidedBy: undefined as never });
    store.recordInterrupt({ sessionId: "s1", time: "2026-01-01T00:00:03.000Z" });
    store.close();

    const again = new StoreService({ dbPath });
    expect(again.readAudit("s1")).toEqual({ permissions: [allow, deny], interrupts: [{ sessionId: "s1", time: "2026-01-01T00:00:03.000Z" }], trail: expect.any(Array) });
    const s2 = again.readAudit("s2");
    expect(s2.permissions.map((p) => [p.requestId, p.decision, p.decidedBy])).toEqual([["req-9", "cancelled", undefined]]);
    expect(s2.interrupts).toEqual([{ sessionId: "s2", time: "2026-01-01T00:00:01.500Z" }]);
    expect(again.readAudit("never-seen")).toEqual({ permissions: [], interrupts: [], trail: [] });
    again.close();
  });

  it("refuses an entry with missing fields or an unknown decision, and stores nothing of it", () => {
    const store = new StoreService({ dbPath: path.join(tempDir(), "baton.db") });
    expect(() => store.recordPermission({ ...deny, decision: "perhaps" as never })).toThrow(/unknown decision/);
    expect(() => store.recordPermission({ ...deny, toolUseId: "" })).toThrow(/toolUseId/);
    expect(() => store.recordInterrupt({ sessionId: "s1", time: undefined as never })).toThrow(/time/);
    expect(store.readAudit("s1")).toEqual({ permissions: [], interrupts: [], trail: [] });
    store.close();
  });

  it("keeps the trail when the history is indexed again", async () => {
    const dir = tempDir();
    const projects = path.join(dir, "projects", "-home-user-code-x");
    fs.mkdirSync(projects, { recursive: true });
    fs.writeFileSync(
      path.join(projects, "s1.jsonl"),
      `${JSON.stringify({ type: "user", message: { role: "user", content: "hello" }, uuid: "u1", timestamp: "2026-01-01T00:00:00.000Z", sessionId: "s1", cwd: "/home/user/code/x" })}\n`,
    );
    const store = new StoreService({ dbPath: path.join(dir, "baton.db") });
    store.recordPermission(deny);
    await store.index(path.join(dir, "projects"));
    await store.index(path.join(dir, "projects"));
    expect(store.readAudit("s1").permissions).toEqual([deny]);
    store.close();
  });
});

describe("the main process's writer (store worker)", { timeout: 30_000 }, () => {
  it("writes without waiting, reads back through the worker, and reports a failed write instead of throwing", async () => {
    const store = await openStore({ dbPath: path.join(tempDir(), "baton.db") });
    const errors: string[] = [];
    const trail = createAuditTrail(store, (what, error) => errors.push(`${what}: ${String(error)}`));
    const read = createAuditReader(store, (what) => errors.push(what));
    try {
      expect(store.info.schemaVersion).toBe(LATEST_VERSION);
      expect(store.info.audit.schemaVersion).toBe(AUDIT_LATEST_VERSION);
      // Returns at once: the caller (a permission answer, an interrupt) never waits for SQLite.
      expect(trail.permission(allow)).toBeUndefined();
      trail.permission(deny);
      trail.interrupt({ sessionId: "s1", time: "2026-01-01T00:00:03.000Z" });
      trail.permission({ ...deny, requestId: "req-bad", decision: "perhaps" as never });
      await trail.flush();
      expect(await read("s1")).toEqual({ permissions: [allow, deny], interrupts: [{ sessionId: "s1", time: "2026-01-01T00:00:03.000Z" }], trail: expect.any(Array) });
      expect(errors).toEqual([expect.stringMatching(/^permission decision: .*unknown decision perhaps/)]);
    } finally {
      await store.close();
    }
    // A closed store: the write and the read fail quietly into the log; the restore goes on without.
    trail.interrupt({ sessionId: "s1", time: "2026-01-01T00:00:04.000Z" });
    await trail.flush();
    expect(await read("s1")).toBeUndefined();
    expect(errors.slice(1)).toEqual([expect.stringMatching(/^interrupt: StoreError/), "audit trail of s1"]);
  });
});

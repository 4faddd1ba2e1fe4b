// Baton's audit trail in its SQLite store: migration 3, writing and reading back per session, and
// the main process's fire-and-forget writer through the store worker.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { AuditPermission } from "../../src/main/store/audit.js";
import { createAuditReader, createAuditTrail } from "../../src/main/store/auditTrail.js";
import { migrate, schemaVersion } from "../../src/main/store/migrate.js";
import { MIGRATIONS } from "../../src/main/store/migrations/index.js";
import { openStore } from "../../src/main/store/storeClient.js";
import { StoreService } from "../../src/main/store/storeService.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "baton-audit-"));
  dirs.push(dir);
  return dir;
}

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

describe("migration 3 (audit trail)", () => {
  it("upgrades a version-2 index with data: keeps its sessions and adds empty audit tables", () => {
    const db = new Database(path.join(tempDir(), "h.db"));
    migrate(db, MIGRATIONS, 2);
    db.prepare("INSERT INTO sessions (id, project, title, prompt_count) VALUES ('s', '-p', 'kept title', 3)").run();

    expect(migrate(db)).toEqual([3]);
    expect(schemaVersion(db)).toBe(3);
    expect(db.prepare("SELECT title FROM sessions").pluck().get()).toBe("kept title");
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'audit_%' ORDER BY name").pluck().all();
    expect(tables).toEqual(["audit_interrupts", "audit_permissions"]);
    expect(db.prepare("SELECT count(*) FROM audit_permissions").pluck().get()).toBe(0);
    expect(migrate(db)).toEqual([]);
    // The schema itself refuses a decision it does not know.
    expect(() =>
      db.prepare("INSERT INTO audit_permissions (session_id, request_id, tool_use_id, tool_name, decision, time) VALUES ('s', 'r', 't', 'Bash', 'maybe', 'now')").run(),
    ).toThrow(/CHECK constraint/);
    db.close();
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
    expect(again.readAudit("s1")).toEqual({ permissions: [allow, deny], interrupts: [{ sessionId: "s1", time: "2026-01-01T00:00:03.000Z" }] });
    const s2 = again.readAudit("s2");
    expect(s2.permissions.map((p) => [p.requestId, p.decision, p.decidedBy])).toEqual([["req-9", "cancelled", undefined]]);
    expect(s2.interrupts).toEqual([{ sessionId: "s2", time: "2026-01-01T00:00:01.500Z" }]);
    expect(again.readAudit("never-seen")).toEqual({ permissions: [], interrupts: [] });
    again.close();
  });

  it("refuses an entry with missing fields or an unknown decision, and stores nothing of it", () => {
    const store = new StoreService({ dbPath: path.join(tempDir(), "baton.db") });
    expect(() => store.recordPermission({ ...deny, decision: "perhaps" as never })).toThrow(/unknown decision/);
    expect(() => store.recordPermission({ ...deny, toolUseId: "" })).toThrow(/toolUseId/);
    expect(() => store.recordInterrupt({ sessionId: "s1", time: undefined as never })).toThrow(/time/);
    expect(store.readAudit("s1")).toEqual({ permissions: [], interrupts: [] });
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
      expect(store.info.schemaVersion).toBe(3);
      // Returns at once: the caller (a permission answer, an interrupt) never waits for SQLite.
      expect(trail.permission(allow)).toBeUndefined();
      trail.permission(deny);
      trail.interrupt({ sessionId: "s1", time: "2026-01-01T00:00:03.000Z" });
      trail.permission({ ...deny, requestId: "req-bad", decision: "perhaps" as never });
      await trail.flush();
      expect(await read("s1")).toEqual({ permissions: [allow, deny], interrupts: [{ sessionId: "s1", time: "2026-01-01T00:00:03.000Z" }] });
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

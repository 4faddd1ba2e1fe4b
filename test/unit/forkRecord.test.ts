// The fork ↔ origin link kept across restarts (issue 37): recorded in the audit trail through the
// store's worker once the fork's CLI names its session, read back by the session list (one read of
// every fork) and by a restore (the restored tab's TabInfo.forkedFrom, which the graph draws), a
// fork of a fork too. An audit trail that is absent, damaged or unreadable costs the links only:
// the list and the restore go on, and the failure is reported.
import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import { forkOrigins } from "../../src/main/audit/audit.js";
import { recordForkWhenNamed } from "../../src/main/core/forkRecord.js";
import { createHistorySource } from "../../src/main/core/historySource.js";
import type { LiveSession } from "../../src/main/core/liveSession.js";
import { SessionManager } from "../../src/main/core/sessionManager.js";
import { createAuditReader, createAuditTrail, createForkReader } from "../../src/main/store/auditTrail.js";
import { fork, forkOfFork, ForkPrompt as Prompt2, forkProjects as projects } from "../support/forkHistory.js";
import { tempDirs } from "../support/tempDirs.js";
import { failures, plantAuditFile, withStore } from "../support/auditStoreKit.js";

const tempDir = tempDirs("baton-fork-record-");

/** A live session whose client only takes listeners, and a way to make its CLI speak. */
function fakeLive(): { session: LiveSession; emit: (event: ClientEvent) => void } {
  const listeners = new Set<(event: ClientEvent) => void>();
  const client = { on: (l: (event: ClientEvent) => void) => (listeners.add(l), () => listeners.delete(l)) };
  return { session: { client } as unknown as LiveSession, emit: (event) => [...listeners].forEach((l) => l(event)) };
}

const init = (sessionId: string) => ({ kind: "session_init", sessionId, cwd: "/home/user/code/x", model: "m", permissionMode: "default", tools: [], slashCommands: [] }) as unknown as ClientEvent;

describe("the fork link in the audit trail", () => {
  it("is recorded once the fork's CLI names its session, once, and read back through the worker with a fork of a fork", async () => {
    const dir = tempDir();
    await withStore(dir, async (store) => {
      const { errors, onError } = failures();
      const trail = createAuditTrail(store, onError);
      const live = fakeLive();
      recordForkWhenNamed(live.session, { sessionId: "s1", promptUuid: Prompt2 }, trail);
      // The origin's id is not the fork's (a CLI echoing it names nothing new); the first init is.
      live.emit(init("s1"));
      live.emit(init("f1"));
      live.emit(init("f1-again"));
      await trail.flush();
      trail.fork(forkOfFork);
      await trail.flush();
      expect(errors).toEqual([]);
      const forks = [...(await store.readForks())].sort((a, b) => a.forkSessionId.localeCompare(b.forkSessionId));
      expect(forks.map((f) => [f.forkSessionId, f.originSessionId, f.promptUuid])).toEqual([
        ["f1", "s1", Prompt2],
        ["ff", "f1", forkOfFork.promptUuid],
      ]);
      expect(Date.parse(forks[0]!.time)).not.toBeNaN();
      expect((await store.readAudit("ff")).forkedFrom).toEqual(forkOfFork);
      // Where a fork of a fork's copied agents may have run: its origin, then that one's.
      expect((await store.readAudit("ff")).forkOrigins).toEqual(["f1", "s1"]);
      expect((await store.readAudit("f1")).forkOrigins).toEqual(["s1"]);
      expect((await store.readAudit("s1")).forkOrigins).toBeUndefined();
    });
  });

  it("a chain of origins ends where the records do, and a loop (a trail edited by hand) gives each session once", () => {
    const records = new Map([fork, forkOfFork, { ...fork, forkSessionId: "s1", originSessionId: "ff" }].map((f) => [f.forkSessionId, f]));
    expect(forkOrigins("ff", (id) => records.get(id))).toEqual(["f1", "s1"]);
    expect(forkOrigins("f1", (id) => records.get(id))).toEqual(["s1", "ff"]);
    expect(forkOrigins("other", (id) => records.get(id))).toEqual([]);
  });

  it("the session list names each fork's origin from one read of every fork, and a restored fork's tab carries its link", async () => {
    const dir = tempDir();
    const projectsDir = projects(dir);
    await withStore(dir, async (store) => {
      await store.recordFork(fork);
      await store.recordFork(forkOfFork);
      const { errors, onError } = failures();
      const history = createHistorySource({ projectsDir, audit: createAuditReader(store, onError), forks: createForkReader(store, onError) });
      const list = await history.listSessions();
      expect(Object.fromEntries(list.map((s) => [s.sessionId, s.forkedFrom ?? null]))).toEqual({
        s1: null,
        f1: { sessionId: "s1", promptUuid: Prompt2 },
        ff: { sessionId: "f1", promptUuid: forkOfFork.promptUuid },
      });
      const manager = new SessionManager({ claudePath: "claude-not-needed", history });
      try {
        expect((await manager.openSession("ff")).forkedFrom).toEqual({ sessionId: "f1", promptUuid: forkOfFork.promptUuid });
        expect((await manager.openSession("s1")).forkedFrom).toBeUndefined();
        expect(manager.listTabs().map((t) => t.forkedFrom?.sessionId ?? null)).toEqual(["f1", null]);
      } finally {
        await manager.shutdown();
      }
      expect(errors).toEqual([]);
    });
  });

  it("a damaged audit file is moved aside: the list and the restore go on without links, and new forks are recorded again", async () => {
    const dir = tempDir();
    const projectsDir = projects(dir);
    plantAuditFile(dir, "damaged");
    await withStore(dir, async (store) => {
      expect(store.info.audit.movedAsideTo).not.toBeNull();
      const { errors, onError } = failures();
      const history = createHistorySource({ projectsDir, audit: createAuditReader(store, onError), forks: createForkReader(store, onError) });
      expect((await history.listSessions()).filter((s) => s.forkedFrom !== undefined)).toEqual([]);
      expect((await history.restore("f1")).forkedFrom).toBeUndefined();
      await store.recordFork(fork);
      expect((await history.listSessions()).find((s) => s.sessionId === "f1")?.forkedFrom).toEqual({ sessionId: "s1", promptUuid: Prompt2 });
      expect(errors).toEqual([]);
    });
  });

  it("an audit trail that cannot be read (a newer Baton's) or no store at all: no links, the failure reported, the forks' sessions still listed and opened", async () => {
    const dir = tempDir();
    const projectsDir = projects(dir);
    plantAuditFile(dir, "newer");
    await withStore(dir, async (store) => {
      expect(store.info.audit.error?.code).toBe("newer_schema");
      const { errors, onError } = failures();
      const trail = createAuditTrail(store, onError);
      const live = fakeLive();
      recordForkWhenNamed(live.session, { sessionId: "s1", promptUuid: Prompt2 }, trail);
      live.emit(init("f1"));
      await trail.flush();
      const history = createHistorySource({ projectsDir, audit: createAuditReader(store, onError), forks: createForkReader(store, onError) });
      const list = await history.listSessions();
      expect(list.map((s) => s.sessionId).sort()).toEqual(["f1", "ff", "s1"]);
      expect(list.filter((s) => s.forkedFrom !== undefined)).toEqual([]);
      expect((await history.restore("f1")).forkedFrom).toBeUndefined();
      expect(errors.map((e) => e.slice(0, e.indexOf(":")))).toEqual(["fork f1 of s1", "forks", "audit trail of f1"]);
      expect(errors.every((e) => e.includes("update Baton"))).toBe(true);
    });
    const bare = createHistorySource({ projectsDir });
    expect((await bare.listSessions()).filter((s) => s.forkedFrom !== undefined)).toEqual([]);
    expect((await bare.restore("f1")).forkedFrom).toBeUndefined();
  });
});

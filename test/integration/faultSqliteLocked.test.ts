// Faults survived (issue 36): Baton's SQLite files locked by another process (sqliteLocker.mjs: a
// second Baton indexing, a database tool left open). The index and the audit trail are opened by
// the store worker as the app opens them. A lock that only keeps out writers costs nothing to
// searches (WAL); one that keeps out everyone makes a call wait the busy timeout, never longer.
// Writes wait that long too, then stop with a `busy` notice that names the file: an index run
// keeps what it wrote and goes on once the lock goes, and an audit decision is kept in memory and
// written then, in order. Baton never crashes and never needs a restart for it.
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import type { AuditPermission } from "../../src/main/audit/audit.js";
import { StoreError } from "../../src/main/platform/sqlite/errors.js";
import { BUSY_TIMEOUT_MS } from "../../src/main/platform/sqlite/busyTimeout.js";
import { sideDbPath } from "../../src/main/search/sideIndex.js";
import { keepIndexFresh } from "../../src/main/store/indexRefresh.js";
import { openStore, type StoreClient } from "../../src/main/store/storeClient.js";
import type { IndexRunOptions } from "../../src/main/store/storeService.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { writeFaultSession } from "../support/faults/sqliteHistory.js";
import { holdLock } from "../support/faults/sqliteLock.js";
import { tempDirs } from "../support/tempDirs.js";
import { storeRejection } from "../support/storeRejection.js";

const tempDir = tempDirs("baton-locked-");

/** A history of one session, indexed and closed; then a second session the index has not read. */
async function indexedThenMore(dir: string): Promise<{ projects: string; dbPath: string; before: string; after: string }> {
  const projects = path.join(dir, "projects");
  const dbPath = path.join(dir, "baton", "history.db");
  const first = writeFaultSession(projects, "s1", { tag: "okapi", turns: 40 });
  const service = new StoreService({ dbPath });
  await service.index(projects);
  service.close();
  const second = writeFaultSession(projects, "s2", { tag: "narwhal", turns: 40 });
  return { projects, dbPath, before: first.middle, after: second.last };
}


/** `p`'s value and how long it took. */
async function timed<T>(p: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await p;
  return { value, ms: performance.now() - started };
}

const sessionsOf = async (store: StoreClient, word: string): Promise<string[]> => (await store.search(word)).map((h) => h.sessionId);

const permission = (n: number): AuditPermission => ({
  sessionId: "s1",
  requestId: `req-${n}`,
  toolUseId: `toolu_${n}`,
  toolName: "Bash",
  decision: n % 2 === 0 ? "allow" : "deny",
  decidedBy: "user",
  time: `2026-01-01T00:00:0${n}.000Z`,
});

describe("SQLite locked by another process", { timeout: 120_000 }, () => {
  it("another program writing the index: Baton opens it and searches at once; an index run waits the busy timeout, says the index is locked, and the next run after the lock goes reads what was missed", async () => {
    const { projects, dbPath, before, after } = await indexedThenMore(tempDir());
    const lock = await holdLock(dbPath, "write");
    const opened = await timed(openStore({ dbPath }));
    const store = opened.value;
    try {
      // Opening an up-to-date index takes no write lock, so it does not wait for this one.
      expect(opened.ms).toBeLessThan(BUSY_TIMEOUT_MS / 2);
      expect(store.info.waiting).toBeNull();
      const search = await timed(sessionsOf(store, before));
      expect(search.value).toEqual(["s1"]);
      expect(search.ms).toBeLessThan(BUSY_TIMEOUT_MS / 2);

      const started = performance.now();
      const busy = await storeRejection(store.index(projects));
      const waited = performance.now() - started;
      expect(busy.code).toBe("busy");
      expect(busy.message).toBe(
        `indexing stopped: ${dbPath} is locked by another program (another Baton, or a database tool holding it open); ` +
          "the index answers searches as before, and the next index run goes on from where this one stopped",
      );
      // Waited for the lock, and no longer than the bound.
      expect(waited).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS - 500);
      expect(waited).toBeLessThan(BUSY_TIMEOUT_MS * 2);
      expect(await sessionsOf(store, before)).toEqual(["s1"]);
      expect(await sessionsOf(store, after)).toEqual([]);

      await lock.release();
      const report = await store.index(projects);
      expect(report.filesNew + report.filesAppended).toBe(1);
      expect(await sessionsOf(store, after)).toEqual(["s2"]);
      expect(await sessionsOf(store, before)).toEqual(["s1"]);
    } finally {
      await store.close();
    }
  });

  it("in the app, a run the lock stopped is said once in the Console and tried again until it completes, which says indexing resumed; a search asked while a retry waits for the lock answers at once", async () => {
    const { projects, dbPath, before, after } = await indexedThenMore(tempDir());
    const store = await openStore({ dbPath });
    const lock = await holdLock(dbPath, "write");
    const lines: { level: string; message: string }[] = [];
    let runs = 0;
    let duringRetry: Promise<{ value: string[]; ms: number }> | undefined;
    const counted = {
      info: store.info,
      index: (dir: string, options?: IndexRunOptions) => {
        runs++;
        const run = store.index(dir, options);
        // Asked right behind a retry's run, which the store's thread serves first.
        if (runs === 2) duringRetry = timed(sessionsOf(store, before));
        return run;
      },
    };
    const stop = keepIndexFresh(counted, projects, (level, message) => lines.push({ level, message }), { retryMs: 200 });
    try {
      await vi.waitFor(() => expect(lines).toHaveLength(1), { timeout: BUSY_TIMEOUT_MS * 2, interval: 100 });
      expect(lines[0]).toEqual({ level: "warning", message: expect.stringMatching(/^indexing stopped: .*history\.db is locked by another program .*; tried again every 200 ms$/) });
      // A second try stopped by the lock too (a third has started) adds no line.
      await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3), { timeout: BUSY_TIMEOUT_MS * 2, interval: 100 });
      expect(lines).toHaveLength(1);
      const answered = await duringRetry!;
      expect(answered.value).toEqual(["s1"]);
      expect(answered.ms).toBeLessThan(BUSY_TIMEOUT_MS / 5);
      await lock.release();
      await vi.waitFor(() => expect(lines.at(-1)?.message).toMatch(/^history index refreshed: indexing resumed after ([2-9]|\d{2,}) stops$/), { timeout: BUSY_TIMEOUT_MS * 3, interval: 100 });
      expect(lines.filter((l) => l.level === "warning")).toHaveLength(1);
      expect(await sessionsOf(store, after)).toEqual(["s2"]);
    } finally {
      stop();
      await store.close();
    }
  });

  it("another program holding the side index during a large run: the run goes on at once without it (the store's thread writes every row) and finds everything", async () => {
    const dir = tempDir();
    const projects = path.join(dir, "projects");
    const dbPath = path.join(dir, "baton", "history.db");
    // Every row on the extract worker, into the side index, when it can (storeSideIndex.test.ts).
    const store = new StoreService({ dbPath, parallelBytes: 0, divert: "always", workerRead: { whileStarting: 0, warmUpBytes: 0 } });
    try {
      writeFaultSession(projects, "s1", { tag: "okapi", turns: 40, subagents: 2 });
      await store.index(projects);
      const sideRows = (): number => {
        const side = new Database(sideDbPath(dbPath), { readonly: true });
        const n = side.prepare("SELECT count(*) FROM side_text_docsize").pluck().get() as number;
        side.close();
        return n;
      };
      const before = sideRows();
      expect(before).toBeGreaterThan(0);
      const added = writeFaultSession(projects, "s2", { tag: "narwhal", turns: 40, subagents: 2 });
      const lock = await holdLock(sideDbPath(dbPath), "write");
      const run = await timed(store.index(projects));
      expect(run.ms).toBeLessThan(BUSY_TIMEOUT_MS / 2);
      expect(run.value.filesNew).toBe(3);
      await lock.release();
      expect(sideRows()).toBe(before);
      for (const word of [added.first, added.middle, added.last, ...[...added.agents.values()].map((a) => a.last)]) {
        expect(store.search(word).map((h) => h.sessionId)).toEqual(["s2"]);
      }
    } finally {
      store.close();
    }
  });

  it("quitting while an index run waits for the lock: the store closes once that wait ends, and the process does not abort", async () => {
    const { projects, dbPath } = await indexedThenMore(tempDir());
    const store = await openStore({ dbPath });
    const lock = await holdLock(dbPath, "write");
    const run = store.index(projects).then(
      () => undefined,
      (err: unknown) => err,
    );
    // Terminated inside that wait, the worker would abort this whole process (storeClient.ts).
    const closed = await timed(store.close());
    expect(closed.ms).toBeLessThan(BUSY_TIMEOUT_MS * 2);
    expect(await run).toBeInstanceOf(StoreError);
    await lock.release();
  });

  it("a program holding the index for itself (nobody may even read it): Baton starts with the audit trail working and the index waiting; a search waits the bound and says so; once it lets go, search and indexing work without a restart", async () => {
    const { projects, dbPath, before, after } = await indexedThenMore(tempDir());
    const lock = await holdLock(dbPath, "exclusive");
    const store = await openStore({ dbPath });
    try {
      expect(store.info.waiting).toEqual({
        code: "busy",
        message: `opening the search index stopped: ${dbPath} is locked by another program (another Baton, or a database tool holding it open); it is opened again at the next index run or search`,
      });
      expect(store.info.schemaVersion).toBeNull();
      // The trail is its own file: recording and reading it does not wait for the index.
      const recorded = await timed(store.recordPermission(permission(1)));
      expect(recorded.ms).toBeLessThan(BUSY_TIMEOUT_MS / 2);
      expect((await store.readAudit("s1")).permissions).toEqual([permission(1)]);

      const started = performance.now();
      const busy = await storeRejection(store.search(before));
      expect(busy.code).toBe("busy");
      expect(busy.message).toContain(`${dbPath} is locked by another program`);
      expect(performance.now() - started).toBeLessThan(BUSY_TIMEOUT_MS * 2);

      await lock.release();
      expect(await sessionsOf(store, before)).toEqual(["s1"]);
      await store.index(projects);
      expect(await sessionsOf(store, after)).toEqual(["s2"]);
    } finally {
      await store.close();
    }
  });

  it("the audit trail locked by another program: every decision is kept, the caller is told each time, searches keep answering, and all are written in order once it lets go", async () => {
    const dir = tempDir();
    const { dbPath, before } = await indexedThenMore(dir);
    const store = await openStore({ dbPath });
    const lock = await holdLock(path.join(dir, "baton", "audit.sqlite"), "write");
    try {
      const first = await storeRejection(store.recordPermission(permission(1)));
      expect(first.code).toBe("busy");
      expect(first.message).toBe(
        `the audit trail ${path.join(dir, "baton", "audit.sqlite")} is locked by another program (another Baton, or a database tool holding it open): ` +
          "1 decision is kept in memory and written once it lets go",
      );
      // The next ones do not wait the whole timeout again: the lock is known to be held.
      const second = await timed(storeRejection(store.recordPermission(permission(2))));
      expect(second.value.message).toContain("2 decisions are kept in memory");
      expect(second.ms).toBeLessThan(BUSY_TIMEOUT_MS / 2);
      expect(await sessionsOf(store, before)).toEqual(["s1"]);

      await lock.release();
      // Written in the background once the lock went, before anything recorded after.
      await vi.waitFor(async () => expect((await store.readAudit("s1")).permissions).toEqual([permission(1), permission(2)]), { timeout: 10_000, interval: 100 });
      await store.recordPermission(permission(3));
      expect((await store.readAudit("s1")).permissions).toEqual([permission(1), permission(2), permission(3)]);
    } finally {
      await store.close();
    }
  });

  it("the audit trail held by another program when Baton opens it: Baton starts, search works, a decision is kept and written once it lets go", async () => {
    const dir = tempDir();
    const { dbPath, before } = await indexedThenMore(dir);
    const auditPath = path.join(dir, "baton", "audit.sqlite");
    const lock = await holdLock(auditPath, "exclusive");
    const store = await openStore({ dbPath });
    try {
      expect(store.info.audit.error).toEqual({
        code: "busy",
        message: `the audit trail ${auditPath} is locked by another program (another Baton, or a database tool holding it open): it is opened once it lets go`,
      });
      expect(await sessionsOf(store, before)).toEqual(["s1"]);
      const kept = await timed(storeRejection(store.recordPermission(permission(1))));
      expect(kept.value.message).toContain("1 decision is kept in memory and written once it lets go");
      expect(kept.ms).toBeLessThan(BUSY_TIMEOUT_MS / 2);

      await lock.release();
      await vi.waitFor(async () => expect((await store.readAudit("s1")).permissions).toEqual([permission(1)]), { timeout: 10_000, interval: 100 });
    } finally {
      await store.close();
    }
  });
});

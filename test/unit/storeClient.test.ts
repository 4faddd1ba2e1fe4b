// The store behind its worker thread, as the app and the commands use it, and on the calling
// thread, as `baton search` uses it: one face, the same answers and errors.
import path from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { generateArchive } from "../../bench/history/generateArchive.js";
import { LATEST_VERSION } from "../../src/main/search/migrations/index.js";
import { openStore } from "../../src/main/store/storeClient.js";
import { openStoreHere } from "../../src/main/store/storeHere.js";
import { tempDirs } from "../support/tempDirs.js";
import { storeRejection } from "../support/storeRejection.js";

const tempDir = tempDirs("baton-client-", "all");
let tmp: string;
let projects: string;
let marker: string;

beforeAll(() => {
  tmp = tempDir();
  projects = path.join(tmp, "projects");
  // One big session: enough work that an index on this thread would stall its timers for long.
  generateArchive(projects, { sessions: 3, totalBytes: 14e6, big: { bytes: 12e6, lines: 4000, subagents: 20 }, seed: 7 });
  marker = "sessmark0";
}, 60_000);


// Starting a worker under tsx takes a second or more on a busy machine.
describe("StoreClient (worker thread)", { timeout: 30_000 }, () => {
  it("indexes in the worker while this thread's timers keep ticking and searches are answered", async () => {
    const store = await openStore({ dbPath: path.join(tmp, "busy.db") });
    try {
      const gaps: number[] = [];
      let last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now();
        gaps.push(now - last);
        last = now;
      }, 5);
      const order: string[] = [];
      const started = performance.now();
      const indexing = store.index(projects).then((r) => {
        order.push("index");
        return r;
      });
      const searching = store.search("anything at all").then(() => order.push("search"));
      const report = await indexing;
      await searching;
      const indexMs = performance.now() - started;
      clearInterval(timer);

      expect(report.filesNew).toBeGreaterThan(20);
      expect(order).toEqual(["search", "index"]);
      expect(gaps.length).toBeGreaterThan(5);
      // On this thread, one 8 MB write batch alone would be a single gap of most of the run.
      expect(Math.max(...gaps)).toBeLessThan(indexMs / 4);
      const hits = await store.search(marker);
      expect(hits[0]?.kind).toBe("prompt");
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe.each([
  ["the worker thread", openStore],
  ["this thread", openStoreHere],
] as const)("StoreClient on %s", (where, open) => {
  it("indexes and finds what the other finds", async () => {
    const store = await open({ dbPath: path.join(tmp, `found-${where}.db`) });
    try {
      const report = await store.index(projects);
      expect(report.filesNew).toBeGreaterThan(20);
      const hits = await store.search(marker);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => h.snippet.toLowerCase().includes(marker))).toBe(true);
      expect((await store.index(projects)).filesSkipped).toBe(report.filesSeen);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("sends errors back typed, and keeps working after one", async () => {
    const store = await open({ dbPath: path.join(tmp, `errors-${where}.db`) });
    try {
      const err = await storeRejection(store.search('  "" * '));
      expect(err.code).toBe("bad_query");
      expect((await storeRejection(store.index(path.join(tmp, "no-such-dir")))).code).toBe("projects_dir_missing");
      expect(await store.listSessions()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("refuses a newer database (and stops the worker)", async () => {
    const dbPath = path.join(tmp, `newer-${where}.db`);
    const db = new Database(dbPath);
    db.pragma(`user_version = ${LATEST_VERSION + 5}`);
    db.close();
    const err = await storeRejection(open({ dbPath }));
    expect(err.code).toBe("newer_schema");
  });

  it("with auditWhenIndexRefused, a newer index costs only the index calls: the audit trail works", async () => {
    const dbPath = path.join(tmp, `newer-kept-${where}.db`);
    const db = new Database(dbPath);
    db.pragma(`user_version = ${LATEST_VERSION + 5}`);
    db.close();
    const store = await open({ dbPath, auditPath: path.join(tmp, `newer-kept-${where}-audit.sqlite`), auditWhenIndexRefused: true });
    try {
      expect(store.info.refused).toMatchObject({ code: "newer_schema" });
      expect(store.info.schemaVersion).toBeNull();
      expect((await storeRejection(store.search("x"))).code).toBe("newer_schema");
      expect((await storeRejection(store.index(projects))).code).toBe("newer_schema");
      const entry = { sessionId: "s1", requestId: "r1", toolUseId: "t1", toolName: "Bash", decision: "deny", decidedBy: "user", time: "2026-01-01T00:00:00.000Z" } as const;
      await store.recordPermission(entry);
      expect((await store.readAudit("s1")).permissions).toEqual([entry]);
    } finally {
      await store.close();
    }
  });

  it("after close(), calls fail with `closed`; close() can be called twice", async () => {
    const store = await open({ dbPath: path.join(tmp, `closed-${where}.db`) });
    await store.close();
    await store.close();
    expect((await storeRejection(store.search("x"))).code).toBe("closed");
  });
});

// Faults survived (issue 36): Baton's files written by a newer Baton (a schema version ahead of
// what this one knows), met by the app as a person starts it (createAppCore). Neither file is
// ever rewritten, moved or dropped: a newer Baton may still be installed beside this one and using
// them. The index is a cache of the history files: the app keeps its own beside the newer one
// (history.schema<N>.db) and search works, said in the Console with both files and versions; the
// command line, whose --db names one file, refuses it and says what to do. The audit trail, the
// only record of Baton's decisions, is no cache: it is refused, said as an error with both
// versions, and Baton runs on without it. Either way the other file keeps working.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AuditPermission } from "../../src/main/audit/audit.js";
import { AUDIT_LATEST_VERSION } from "../../src/main/audit/migrations/index.js";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { StoreError } from "../../src/main/platform/sqlite/errors.js";
import { LATEST_VERSION } from "../../src/main/search/migrations/index.js";
import { openStore } from "../../src/main/store/storeClient.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { writeFaultSession } from "../support/faults/sqliteHistory.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-newer-");
let core: AppCore | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

const decision: AuditPermission = { sessionId: "s1", requestId: "req-1", toolUseId: "toolu_1", toolName: "Bash", decision: "deny", decidedBy: "user", time: "2026-01-01T00:00:01.000Z" };

/** A history indexed by this Baton, with one decision in its trail; then `file` as a newer Baton leaves it. */
async function writtenByNewer(file: "history.db" | "audit.sqlite", version: number): Promise<{ home: string; projects: string; dbPath: string; target: string; bytes: Buffer }> {
  const home = tempDir();
  const projects = path.join(home, "projects");
  const dbPath = path.join(home, "baton", "history.db");
  writeFaultSession(projects, "s1", { tag: "okapi", turns: 30 });
  const store = new StoreService({ dbPath });
  await store.index(projects);
  store.recordPermission(decision);
  store.close();
  const target = path.join(home, "baton", file);
  const db = new Database(target);
  db.exec("CREATE TABLE from_the_future (x); INSERT INTO from_the_future VALUES ('kept')");
  db.pragma(`user_version = ${version}`);
  db.pragma("journal_mode = DELETE"); // one file to compare byte for byte
  db.close();
  return { home, projects, dbPath, target, bytes: fs.readFileSync(target) };
}

async function startApp(home: string, projects: string, dbPath: string): Promise<AppCore> {
  const bin = path.join(home, "bin");
  fs.mkdirSync(bin, { recursive: true });
  core = await createAppCore({ projectsDir: projects, dbPath, env: { PATH: bin, HOME: home }, claudeInstallDirs: [] });
  return core;
}

/** The file is as the newer Baton left it: same bytes, no WAL beside it, nothing moved aside. */
function expectUntouched(target: string, bytes: Buffer): void {
  expect(fs.readFileSync(target).equals(bytes)).toBe(true);
  expect(fs.existsSync(`${target}-wal`)).toBe(false);
  expect(fs.readdirSync(path.dirname(target)).filter((f) => f.startsWith(`${path.basename(target)}.`))).toEqual([]);
}

describe("a file from a newer Baton", { timeout: 120_000 }, () => {
  it("the index, a cache: left untouched, and this Baton keeps its own index beside it, built from the history; the Console names both files and both versions; search works and the audit trail records", async () => {
    const newer = LATEST_VERSION + 1;
    const { home, projects, dbPath, target, bytes } = await writtenByNewer("history.db", newer);
    const own = path.join(home, "baton", `history.schema${LATEST_VERSION}.db`);
    const app = await startApp(home, projects, dbPath);
    const said = app.log.entries().find((e) => e.message.startsWith("the search index"));
    expect(said).toMatchObject({
      level: "warning",
      message:
        `the search index ${dbPath} has schema version ${newer}, written by a newer Baton (this one knows up to ${LATEST_VERSION}): ` +
        `it is left as it is, and this Baton keeps its own index beside it in ${own}, built from the history files`,
    });
    await vi.waitFor(() => expect(app.log.entries().some((e) => e.message === "history index refreshed")).toBe(true), { timeout: 60_000, interval: 100 });
    const search = await app.service.call("searchHistory", ["okapimiddle"]);
    expect(search.ok && search.value.map((h) => h.sessionId)).toEqual(["s1"]);
    await app.close();
    core = undefined;
    expectUntouched(target, bytes);
    expect(fs.existsSync(own)).toBe(true);

    // The next start uses its own index again (nothing read twice); the trail beside both records.
    const store = await openStore({ dbPath, besideNewerIndex: true });
    try {
      expect(store.info).toMatchObject({ dbPath: own, newerIndex: { path: dbPath, schemaVersion: newer }, refused: null });
      expect((await store.index(projects)).filesSkipped).toBe(1);
      await store.recordPermission({ ...decision, requestId: "req-2", decision: "allow" });
      expect((await store.readAudit("s1")).permissions.map((p) => p.requestId)).toEqual(["req-1", "req-2"]);
    } finally {
      await store.close();
    }
    expectUntouched(target, bytes);
  });

  it("the index on the command line (--db names one file): refused, untouched, with both versions and what to do; the trail still opens", async () => {
    const newer = LATEST_VERSION + 1;
    const { dbPath, target, bytes } = await writtenByNewer("history.db", newer);
    const refused = await openStore({ dbPath }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(StoreError);
    expect(refused).toMatchObject({
      code: "newer_schema",
      message: `${dbPath} has schema version ${newer}, but this Baton knows only up to ${LATEST_VERSION}; update Baton or pass --db to use another file (the database was left untouched)`,
    });
    const store = await openStore({ dbPath, auditWhenIndexRefused: true });
    try {
      expect((await store.readAudit("s1")).permissions.map((p) => p.requestId)).toEqual(["req-1"]);
    } finally {
      await store.close();
    }
    expectUntouched(target, bytes);
  });

  it("the audit trail: never rewritten or dropped; the Console says, as an error, which schema it has and which this Baton knows; Baton runs on without it and search works", async () => {
    const newer = AUDIT_LATEST_VERSION + 1;
    const { home, projects, dbPath, target, bytes } = await writtenByNewer("audit.sqlite", newer);
    const app = await startApp(home, projects, dbPath);
    const said = app.log.entries().find((e) => e.message.startsWith("the audit trail is unavailable"));
    expect(said).toMatchObject({
      level: "error",
      message: `the audit trail is unavailable: ${target} has schema version ${newer}, but this Baton knows only up to ${AUDIT_LATEST_VERSION}; update Baton or pass --db to use another file (the database was left untouched)`,
    });
    await vi.waitFor(() => expect(app.log.entries().some((e) => e.message === "history index refreshed")).toBe(true), { timeout: 60_000, interval: 100 });
    const search = await app.service.call("searchHistory", ["okapilast"]);
    expect(search.ok && search.value.map((h) => h.sessionId)).toEqual(["s1"]);
    await app.close();
    core = undefined;
    expectUntouched(target, bytes);

    // A decision the app would record is refused with the same reason; the file stays as it was.
    const store = await openStore({ dbPath });
    try {
      const refused = await store.recordPermission(decision).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(StoreError);
      expect((refused as StoreError).code).toBe("newer_schema");
      expect(await store.search("okapifirst")).toHaveLength(1);
    } finally {
      await store.close();
    }
    expectUntouched(target, bytes);
  });
});

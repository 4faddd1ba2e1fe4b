// Faults survived (issue 36): a damaged search index, met by the app as a person starts it
// (createAppCore, as the window and `baton web` do): garbage written over the file's pages, the
// file cut short, a file that is not SQLite at all at its path, and damage only a search reaches.
// Each time the damaged file is moved aside under a name that says so (kept byte for byte, never
// deleted), the Console says where it went, the index is rebuilt from the JSONL history, and
// search finds what it found before. The audit trail, its own file, is never touched.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LogEntry } from "../../src/shared/api.js";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { writeFaultSession, type FaultSession } from "../support/faults/sqliteHistory.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-corrupt-");
let core: AppCore | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

interface Indexed {
  readonly home: string;
  readonly projects: string;
  readonly dbPath: string;
  readonly auditPath: string;
  readonly sessions: readonly FaultSession[];
}

/** Two sessions indexed into baton/history.db, and one decision in the audit trail beside it. */
async function indexedHistory(): Promise<Indexed> {
  const home = tempDir();
  const projects = path.join(home, "projects");
  const dbPath = path.join(home, "baton", "history.db");
  const sessions = [writeFaultSession(projects, "s1", { tag: "okapi", turns: 60, subagents: 2 }), writeFaultSession(projects, "s2", { tag: "narwhal", turns: 60 })];
  const store = new StoreService({ dbPath });
  await store.index(projects);
  store.recordPermission({ sessionId: "s1", requestId: "req-1", toolUseId: "toolu_1", toolName: "Bash", decision: "deny", decidedBy: "user", time: "2026-01-01T00:00:01.000Z" });
  store.close();
  expect(fs.existsSync(`${dbPath}-wal`)).toBe(false); // closed cleanly: the file alone is the index
  return { home, projects, dbPath, auditPath: path.join(home, "baton", "audit.sqlite"), sessions };
}

/** The app as a person starts it, with no claude (history and search need none). */
async function startApp(h: Indexed): Promise<AppCore> {
  const bin = path.join(h.home, "bin");
  fs.mkdirSync(bin, { recursive: true });
  core = await createAppCore({ projectsDir: h.projects, dbPath: h.dbPath, env: { PATH: bin, HOME: h.home }, claudeInstallDirs: [] });
  return core;
}

const refreshed = (entries: readonly LogEntry[]): LogEntry | undefined => entries.find((e) => e.message.startsWith("history index refreshed"));

async function sessionsFound(app: AppCore, word: string): Promise<string[]> {
  const result = await app.service.call("searchHistory", [word]);
  if (!result.ok) throw new Error(`search failed: ${result.error.message}`);
  return result.value.map((h) => h.sessionId);
}

/** The search finds every part of both sessions again. */
async function expectSearchWorks(app: AppCore, h: Indexed): Promise<void> {
  for (const [i, s] of h.sessions.entries()) {
    for (const word of [s.first, s.middle, s.last, ...[...s.agents.values()].map((a) => a.last)]) expect(await sessionsFound(app, word)).toEqual([`s${i + 1}`]);
  }
}

/** The audit trail still holds the decision recorded before the damage. */
function expectTrailKept(h: Indexed): void {
  const db = new Database(h.auditPath, { readonly: true });
  expect(db.prepare("SELECT request_id FROM audit_permissions").pluck().all()).toEqual(["req-1"]);
  db.close();
}

/** Writes garbage over the root pages of `tables` (the schema stays whole, so the file opens); returns the file's bytes. */
function garbleTables(dbPath: string, tables: readonly string[]): Buffer {
  const raw = new Database(dbPath, { readonly: true });
  const roots = raw.prepare(`SELECT rootpage FROM sqlite_master WHERE name IN (${tables.map(() => "?").join(", ")})`).pluck().all(...tables) as number[];
  const pageSize = raw.pragma("page_size", { simple: true }) as number;
  raw.close();
  expect(roots).toHaveLength(tables.length);
  const bytes = fs.readFileSync(dbPath);
  for (const page of roots) for (let i = (page - 1) * pageSize; i < page * pageSize; i++) bytes[i] = (i * 7919) & 0xff;
  fs.writeFileSync(dbPath, bytes);
  return bytes;
}

const damages: readonly { readonly name: string; readonly damage: (dbPath: string) => void }[] = [
  {
    name: "garbage written over its pages",
    damage(dbPath) {
      // The 100-byte header stays, so SQLite still takes it for a database.
      const bytes = fs.readFileSync(dbPath);
      for (let i = 100; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
      fs.writeFileSync(dbPath, bytes);
    },
  },
  {
    name: "the file cut short",
    damage(dbPath) {
      const size = fs.statSync(dbPath).size;
      fs.truncateSync(dbPath, Math.floor(size / 2 / 4096) * 4096);
    },
  },
  {
    name: "a file that is not SQLite at its path",
    damage(dbPath) {
      fs.writeFileSync(dbPath, `${JSON.stringify({ note: "a settings file saved over the index" })}\n`.repeat(50));
    },
  },
];

describe("a damaged search index", { timeout: 120_000 }, () => {
  for (const { name, damage } of damages) {
    it(`${name}: found as Baton starts, moved aside under a name that says so and kept, the Console says where, the index is rebuilt from the history and search works`, async () => {
      const h = await indexedHistory();
      damage(h.dbPath);
      const damaged = fs.readFileSync(h.dbPath);
      const app = await startApp(h);
      const notice = app.log.entries().find((e) => e.message.startsWith("the history index was damaged"));
      expect(notice?.level).toBe("warning");
      const movedTo = /moved to (.+) and is rebuilt$/.exec(notice!.message)?.[1];
      expect(movedTo).toMatch(new RegExp(`^${h.dbPath.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\.corrupt-\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z$`));
      expect(fs.readFileSync(movedTo!).equals(damaged)).toBe(true);

      await vi.waitFor(() => expect(refreshed(app.log.entries())).toBeDefined(), { timeout: 60_000, interval: 100 });
      expect(refreshed(app.log.entries())?.fields).toMatchObject({ report: { filesNew: 4, sessionsTotal: 2 } });
      await expectSearchWorks(app, h);
      expectTrailKept(h);
    });
  }

  it("damage the start's index run reaches (the files table, the schema intact): the run moves it aside, rebuilds from the history, and the Console says where it went", async () => {
    const h = await indexedHistory();
    const bytes = garbleTables(h.dbPath, ["files"]);
    const app = await startApp(h);
    await vi.waitFor(() => expect(refreshed(app.log.entries())).toBeDefined(), { timeout: 60_000, interval: 100 });
    const notice = app.log.entries().find((e) => e.message.startsWith("the history index was damaged"));
    expect(notice?.level).toBe("warning");
    const movedTo = /moved to (.+) and is rebuilt from the history files$/.exec(notice!.message)?.[1];
    expect(movedTo).toMatch(/history\.db\.corrupt-[\dTZ-]+$/);
    expect(fs.readFileSync(movedTo!).equals(bytes)).toBe(true);
    expect(refreshed(app.log.entries())?.fields).toMatchObject({ report: { filesNew: 4, sessionsTotal: 2 } });
    await expectSearchWorks(app, h);
    expectTrailKept(h);
  });

  it("damage only a search reaches (the full-text pages, the schema intact): that search says the index was damaged and is being rebuilt, its answer names the file it was moved to (kept), and a later search finds everything", async () => {
    const h = await indexedHistory();
    const bytes = garbleTables(h.dbPath, ["search_text_data", "search_text_idx"]);

    const app = await startApp(h);
    // Nothing changed in the history: the start's refresh reads no full-text page.
    await vi.waitFor(() => expect(refreshed(app.log.entries())).toBeDefined(), { timeout: 60_000, interval: 100 });
    expect(app.log.entries().some((e) => e.message.startsWith("the history index was damaged"))).toBe(false);

    const first = await app.service.call("searchHistory", [h.sessions[0]!.middle]);
    expect(first.ok).toBe(false);
    const message = first.ok ? "" : first.error.message;
    expect(message).toMatch(/^the index was damaged; it was moved to .+history\.db\.corrupt-[\dTZ-]+ and a fresh one opened: it is being rebuilt from the history files, search again in a moment$/);
    const movedTo = /moved to (.+) and a fresh one/.exec(message)![1]!;
    expect(fs.readFileSync(movedTo).equals(bytes)).toBe(true);

    await vi.waitFor(async () => expect(await sessionsFound(app, h.sessions[1]!.last)).toEqual(["s2"]), { timeout: 60_000, interval: 200 });
    await expectSearchWorks(app, h);
    expectTrailKept(h);
  });
});

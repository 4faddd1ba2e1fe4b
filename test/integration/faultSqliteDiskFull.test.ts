// Faults survived (issue 36): the disk holding Baton's index fills up while it indexes. A real
// small disk: a 3 MB tmpfs in a private mount namespace (sqliteSmallDisk.ts; `unshare -m` as root,
// which the machine's CI is; bubblewrap's `--size N --tmpfs DIR` works here too), nearly filled
// with a ballast file, and Baton run inside it: its command line (the bundle people run), and its
// store as the app runs it (sqliteStoreDriver.ts). SQLite answers SQLITE_FULL; Baton says the
// disk is full and that the index still answers, keeps nothing half-written, and goes on from
// where it stopped once the ballast is removed.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ensureCliBuilt } from "../support/cliBundle.js";
import { smallDisk, type SmallDisk } from "../support/faults/sqliteSmallDisk.js";
import { writeFaultSession, type FaultSession } from "../support/faults/sqliteHistory.js";
import { tempDirs } from "../support/tempDirs.js";
import { repoRoot } from "../support/ui/buildRenderer.js";

const tempDir = tempDirs("baton-diskfull-");
const baton = path.join(repoRoot, "bin", "baton.mjs");
const driver = fileURLToPath(new URL("../support/faults/sqliteStoreDriver.ts", import.meta.url));
const DiskBytes = 3 * 1024 * 1024;
/** Left free once the ballast is in: room to open the files, not to index four more sessions. */
const LeftFree = 400 * 1024;

let disk: SmallDisk | undefined;
afterEach(() => {
  disk?.close();
  disk = undefined;
});

beforeAll(() => {
  ensureCliBuilt();
}, 300_000);

interface Setup {
  readonly projects: string;
  readonly dbPath: string;
  readonly small: SmallDisk;
  readonly indexed: FaultSession;
}

/** A small disk holding an index of one session, then filled; four more sessions in the history. */
async function fullDiskSetup(indexFirst: (s: Omit<Setup, "indexed">) => Promise<void>): Promise<Setup & { readonly more: readonly FaultSession[] }> {
  const dir = tempDir();
  const projects = path.join(dir, "projects");
  const mount = path.join(dir, "disk");
  fs.mkdirSync(mount);
  disk = await smallDisk(mount, DiskBytes);
  const dbPath = path.join(mount, "history.db");
  const indexed = writeFaultSession(projects, "s0", { tag: "ta", turns: 100 });
  await indexFirst({ projects, dbPath, small: disk });
  disk.fill(LeftFree);
  expect(disk.free()).toBeLessThanOrEqual(LeftFree);
  const more = ["tb", "tc", "td", "te"].map((tag, i) => writeFaultSession(projects, `s${i + 1}`, { tag, turns: 400 }));
  return { projects, dbPath, small: disk, indexed, more };
}

/** `baton <args>` inside the small disk's namespace. */
function batonIn(small: SmallDisk, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const [cmd, ...enter] = small.enter;
  const r = spawnSync(cmd!, [...enter, process.execPath, baton, ...args], { encoding: "utf8", cwd: repoRoot });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** SQLite's integrity check of the index, and its rows per session, read inside the namespace. */
function inspect(small: SmallDisk, dbPath: string): { integrity: string; rows: Record<string, number> } {
  const script = `
    const Database = require("better-sqlite3");
    const db = new Database(process.argv[1], { readonly: true });
    const rows = Object.fromEntries(db.prepare("SELECT s.id, coalesce(sum(r.hi - r.lo + 1), 0) AS n FROM sessions s JOIN files f ON f.session_key = s.key LEFT JOIN file_rows r ON r.file_id = f.id GROUP BY s.id").all().map((r) => [r.id, r.n]));
    process.stdout.write(JSON.stringify({ integrity: db.pragma("integrity_check", { simple: true }), rows }));`;
  const [cmd, ...enter] = small.enter;
  const r = spawnSync(cmd!, [...enter, process.execPath, "-e", script, dbPath], { encoding: "utf8", cwd: repoRoot });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as { integrity: string; rows: Record<string, number> };
}

const fullMessage = (dbPath: string): string =>
  `indexing stopped: the disk holding ${dbPath} is full (free some space there); the index answers searches as before, and the next index run goes on from where this one stopped`;

/** The store driver inside the namespace: its JSON lines, and a way to wait for one. */
function startDriver(small: SmallDisk, dbPath: string, projects: string) {
  const [cmd, ...enter] = small.enter;
  const proc = spawn(cmd!, [...enter, process.execPath, "--import", "tsx", driver, dbPath, projects, "300"], { cwd: repoRoot, stdio: ["pipe", "pipe", "pipe"] });
  const seen: Record<string, unknown>[] = [];
  const waiters: { test: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }[] = [];
  let stderr = "";
  proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  readline.createInterface({ input: proc.stdout }).on("line", (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    seen.push(line);
    for (const w of waiters.splice(0)) {
      if (w.test(line)) w.resolve(line);
      else waiters.push(w);
    }
  });
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const next = (test: (line: Record<string, unknown>) => boolean, what: string): Promise<Record<string, unknown>> => {
    const found = seen.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      waiters.push({ test, resolve });
      void exited.then(() => reject(new Error(`the store driver exited before ${what}: ${stderr}`)));
    });
  };
  const logs = (): { level: string; message: string }[] => seen.flatMap((l) => (l["log"] ? [l["log"] as { level: string; message: string }] : []));
  return {
    logs,
    next,
    async search(word: string): Promise<Record<string, unknown>> {
      const before = seen.length;
      proc.stdin.write(`search ${word}\n`);
      return next((l) => l["search"] === word && seen.indexOf(l) >= before, `the search for ${word}`);
    },
    /** Sends `command` and waits for the line whose `key` answers it. */
    async ask(command: string, key: string): Promise<Record<string, unknown>> {
      const before = seen.length;
      proc.stdin.write(`${command}\n`);
      return next((l) => key in l && seen.indexOf(l) >= before, `the answer to ${command}`);
    },
    async quit(): Promise<void> {
      proc.stdin.end("quit\n");
      await exited;
    },
  };
}

const asRoot = process.getuid?.() === 0;

describe.skipIf(!asRoot)("the disk full while indexing (a 3 MB tmpfs in a private mount namespace; needs root)", { timeout: 180_000 }, () => {
  it("the command line: `baton index` stops saying the disk is full and keeps nothing half-written, `baton search` still answers from the index with the same notice, and after space is freed `baton index` goes on where it stopped", async () => {
    let before: Record<string, number> = {};
    const { small, projects, dbPath, indexed, more } = await fullDiskSetup(async ({ small, projects, dbPath }) => {
      expect(batonIn(small, "index", "--db", dbPath, "--projects-dir", projects)).toMatchObject({ code: 0 });
      before = inspect(small, dbPath).rows;
    });
    expect(before["s0"]).toBeGreaterThan(200); // a row per line and one for the title
    const stopped = batonIn(small, "index", "--db", dbPath, "--projects-dir", projects);
    expect(stopped).toEqual({ code: 1, stdout: "", stderr: `baton index: ${fullMessage(dbPath)}\n` });
    // The run's transaction was rolled back whole: the new sessions have no rows, the old one all of its.
    const afterStop = inspect(small, dbPath);
    expect(afterStop.integrity).toBe("ok");
    expect(afterStop.rows).toEqual({ ...before, s1: 0, s2: 0, s3: 0, s4: 0 });

    const found = batonIn(small, "search", "--db", dbPath, "--projects-dir", projects, indexed.middle);
    expect(found.code).toBe(0);
    expect(found.stderr).toBe(`baton search: ${fullMessage(dbPath)}; searching what was indexed before\n`);
    expect(found.stdout).toContain("session s0 in -home-user-code-app");
    expect(batonIn(small, "search", "--db", dbPath, "--projects-dir", projects, more[2]!.last).stdout).toBe(`No matches for "${more[2]!.last}".\n`);

    small.unfill();
    const resumed = batonIn(small, "index", "--db", dbPath, "--projects-dir", projects, "--json");
    expect(resumed.code).toBe(0);
    const report = JSON.parse(resumed.stdout) as { filesSkipped: number; filesNew: number; filesAppended: number; rowsAdded: number };
    expect(report.filesSkipped).toBe(1); // s0 is not read again
    expect(report.filesNew + report.filesAppended).toBe(4);
    expect(report.rowsAdded).toBeGreaterThan(4 * 800);
    for (const [i, s] of more.entries()) {
      for (const word of [s.first, s.last]) expect(batonIn(small, "search", "--db", dbPath, "--projects-dir", projects, word).stdout).toContain(`session s${i + 1} in`);
    }
    expect(inspect(small, dbPath).integrity).toBe("ok");
  });

  it("in the app: the start's index run stops, the Console says the disk is full once, search answers from the index meanwhile, and once space is freed the run is tried again and says indexing resumed", async () => {
    const { small, projects, dbPath, indexed, more } = await fullDiskSetup(async ({ small, projects, dbPath }) => {
      expect(batonIn(small, "index", "--db", dbPath, "--projects-dir", projects)).toMatchObject({ code: 0 });
    });
    const app = startDriver(small, dbPath, projects);
    try {
      const full = await app.next((l) => (l["log"] as { level?: string } | undefined)?.level === "warning", "the disk-full notice");
      expect(full["log"]).toEqual({ level: "warning", message: `${fullMessage(dbPath)}; tried again every 300 ms` });
      expect(await app.search(indexed.last)).toEqual({ search: indexed.last, sessions: ["s0"] });
      expect(await app.search(more[0]!.first)).toEqual({ search: more[0]!.first, sessions: [] });
      // Tries while the disk stays full add no line.
      await app.next((l) => Number(l["indexRun"]) >= 3, "a third index run");
      expect(app.logs()).toHaveLength(1);

      small.unfill();
      const resumed = await app.next((l) => /^history index refreshed: indexing resumed after ([2-9]|\d{2,}) stops$/.test(String((l["log"] as { message?: string } | undefined)?.message)), "indexing resumed");
      expect(resumed["log"]).toMatchObject({ level: "info" });
      expect(app.logs().filter((l) => l.level === "warning")).toHaveLength(1);
      for (const [i, s] of more.entries()) expect(await app.search(s.last)).toEqual({ search: s.last, sessions: [`s${i + 1}`] });
      expect(await app.search(indexed.first)).toEqual({ search: indexed.first, sessions: ["s0"] });
    } finally {
      await app.quit();
    }
    expect(inspect(small, dbPath).integrity).toBe("ok");
  });

  it("the audit trail on a full disk: each decision is kept in memory with a notice naming the full disk, reads still work, and once there is room they are written in order, before the next", async () => {
    const dir = tempDir();
    const projects = path.join(dir, "projects");
    const mount = path.join(dir, "disk");
    fs.mkdirSync(mount);
    const small = (disk = await smallDisk(mount, DiskBytes));
    const dbPath = path.join(mount, "history.db");
    const auditPath = path.join(mount, "audit.sqlite");
    writeFaultSession(projects, "s0", { tag: "ta", turns: 20 });
    expect(batonIn(small, "index", "--db", dbPath, "--projects-dir", projects)).toMatchObject({ code: 0 });
    const app = startDriver(small, dbPath, projects);
    try {
      await app.next((l) => (l["log"] as { message?: string } | undefined)?.message === "history index refreshed", "the first index run");
      small.fill(0);
      const kept = (n: number): string =>
        `the audit trail ${auditPath} cannot be written: the disk holding it is full (free some space there): ${n} decision${n === 1 ? " is" : "s are"} kept in memory and written once there is room`;
      expect(await app.ask("record 1", "recorded")).toEqual({ recorded: 1, error: { code: "disk_full", message: kept(1) } });
      expect(await app.ask("record 2", "recorded")).toEqual({ recorded: 2, error: { code: "disk_full", message: kept(2) } });
      expect(await app.ask("trail", "trail")).toEqual({ trail: [] });

      small.unfill();
      await vi.waitFor(async () => expect(await app.ask("trail", "trail")).toEqual({ trail: ["req-1", "req-2"] }), { timeout: 10_000, interval: 200 });
      expect(await app.ask("record 3", "recorded")).toEqual({ recorded: 3 });
      expect(await app.ask("trail", "trail")).toEqual({ trail: ["req-1", "req-2", "req-3"] });
    } finally {
      await app.quit();
    }
  });
});

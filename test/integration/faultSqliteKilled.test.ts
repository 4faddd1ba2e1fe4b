// Faults survived (issue 36): a process writing Baton's SQLite files killed in the middle of a
// transaction (sqliteWriterChild.ts runs Baton's own indexer and audit writer, stops inside the
// transaction with its pages already spilled into the WAL, and is SIGKILLed: no rollback, no
// close). On reopen nothing of the killed transaction is there and everything committed before
// is; the files pass SQLite's integrity checks; and indexing goes on to the same index a clean
// run builds.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SIDE_ROWID_BASE } from "../../src/main/search/sideIndex.js";
import { openStore } from "../../src/main/store/storeClient.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { writeFaultSession, type FaultSession } from "../support/faults/sqliteHistory.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-killed-");
const child = fileURLToPath(new URL("../support/faults/sqliteWriterChild.ts", import.meta.url));

/** Runs the writer child until it stops mid-transaction, then SIGKILLs it; returns the WAL's size at the stop. */
async function killMidTransaction(args: readonly string[]): Promise<number> {
  const proc = spawn(process.execPath, ["--import", "tsx", child, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.once("exit", (_code, signal) => resolve(signal)));
  const walBytes = await new Promise<number>((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const stop = /stopped (\d+)\n/.exec(out);
      if (stop) resolve(Number(stop[1]));
    });
    void exited.then(() => reject(new Error(`the writer exited without stopping: ${out}${stderr}`)));
  });
  proc.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  return walBytes;
}

/** Every word that names a part of the session: its main file's first, middle and last turn, each subagent's first and last. */
function wordsOf(session: FaultSession): string[] {
  return [session.first, session.middle, session.last, ...[...session.agents.values()].flatMap((a) => [a.first, a.last])];
}

/** What SQLite's own checks say of the index, and whether every full-text row belongs to a written chunk. */
function checkIndex(dbPath: string): { integrity: string; fullText: string; textRows: number; chunkRows: number } {
  const db = new Database(dbPath);
  try {
    const integrity = db.pragma("integrity_check", { simple: true }) as string;
    // FTS5's own check of its index's structure (it fails with SQLITE_CORRUPT_VTAB otherwise; it writes nothing).
    let fullText = "ok";
    try {
      db.prepare("INSERT INTO search_text (search_text) VALUES ('integrity-check')").run();
    } catch (err) {
      fullText = String(err);
    }
    const textRows = db.prepare("SELECT count(*) FROM search_text_docsize").pluck().get() as number;
    const chunkRows = db.prepare(`SELECT coalesce(sum(hi - lo + 1), 0) FROM file_rows WHERE lo < ${SIDE_ROWID_BASE}`).pluck().get() as number;
    return { integrity, fullText, textRows, chunkRows };
  } finally {
    db.close();
  }
}

/** Rows the index holds for the session `sessionId`'s files. */
function rowsOfSession(dbPath: string, sessionId: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db
      .prepare("SELECT coalesce(sum(r.hi - r.lo + 1), 0) FROM file_rows r JOIN files f ON f.id = r.file_id JOIN sessions s ON s.key = f.session_key WHERE s.id = ?")
      .pluck()
      .get(sessionId) as number;
  } finally {
    db.close();
  }
}

describe("killed in the middle of a transaction", { timeout: 120_000 }, () => {
  it("an index run killed halfway through a session's transaction: on reopen the session has none of its rows, the one indexed before has all of its, the index passes its checks, and indexing resumes to the same index a clean run builds", async () => {
    const dir = tempDir();
    const projects = path.join(dir, "projects");
    const dbPath = path.join(dir, "baton", "history.db");
    const before = writeFaultSession(projects, "s1", { tag: "okapi", turns: 40 });
    const first = new StoreService({ dbPath });
    await first.index(projects);
    first.close();
    // A session of a main file and 12 subagents: 13 chunks, one transaction; killed after the 7th.
    const killed = writeFaultSession(projects, "s2", { tag: "narwhal", turns: 60, subagents: 12 });
    const walBytes = await killMidTransaction(["index", dbPath, projects, "7"]);
    expect(walBytes).toBeGreaterThan(100_000); // the transaction's pages were in the WAL, uncommitted

    const store = await openStore({ dbPath });
    try {
      expect(store.info.movedAsideTo).toBeNull(); // nothing to recover from: the file is whole
      for (const word of wordsOf(before)) expect((await store.search(word)).map((h) => h.sessionId)).toEqual(["s1"]);
      for (const word of wordsOf(killed)) expect(await store.search(word)).toEqual([]);
      expect(rowsOfSession(dbPath, "s2")).toBe(0);
      const checked = checkIndex(dbPath);
      expect(checked).toEqual({ integrity: "ok", fullText: "ok", textRows: checked.chunkRows, chunkRows: rowsOfSession(dbPath, "s1") });

      const report = await store.index(projects);
      expect(report.filesNew + report.filesAppended + report.filesReindexed).toBe(13);
      expect(report.filesSkipped).toBe(1); // s1 is not read again
      for (const word of wordsOf(killed)) expect((await store.search(word)).map((h) => h.sessionId)).toEqual(["s2"]);
      for (const word of wordsOf(before)) expect((await store.search(word)).map((h) => h.sessionId)).toEqual(["s1"]);

      // The same rows as an index that was never interrupted: nothing lost, nothing twice.
      const clean = new StoreService({ dbPath: path.join(dir, "clean", "history.db") });
      const cleanReport = await clean.index(projects);
      clean.close();
      expect(report.rowsTotal).toBe(cleanReport.rowsTotal);
      expect(report.sessionsTotal).toBe(2);
      expect(rowsOfSession(dbPath, "s2")).toBe(rowsOfSession(path.join(dir, "clean", "history.db"), "s2"));
    } finally {
      await store.close();
    }
    const after = checkIndex(dbPath);
    expect(after).toEqual({ integrity: "ok", fullText: "ok", textRows: after.chunkRows, chunkRows: after.chunkRows });
  });

  it("an audit writer killed inside a decision's transaction: every decision committed before is there, in order, the killed one is not, the file passes its check, and Baton records after it", async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, "baton", "history.db");
    const auditPath = path.join(dir, "baton", "audit.sqlite");
    fs.mkdirSync(path.dirname(auditPath), { recursive: true });
    await killMidTransaction(["audit", auditPath, "6"]);

    const raw = new Database(auditPath, { readonly: true });
    expect(raw.pragma("integrity_check", { simple: true })).toBe("ok");
    raw.close();
    const store = await openStore({ dbPath });
    try {
      expect(store.info.audit).toMatchObject({ error: null, movedAsideTo: null });
      const kept = (await store.readAudit("s1")).permissions.map((p) => p.requestId);
      expect(kept).toEqual(["req-1", "req-2", "req-3", "req-4", "req-5"]);
      await store.recordPermission({ sessionId: "s1", requestId: "req-6", toolUseId: "toolu_6", toolName: "Bash", decision: "deny", decidedBy: "user", time: "2026-01-01T00:00:06.000Z" });
      expect((await store.readAudit("s1")).permissions.map((p) => `${p.requestId} ${p.decision}`)).toEqual([
        "req-1 allow",
        "req-2 allow",
        "req-3 allow",
        "req-4 allow",
        "req-5 allow",
        "req-6 deny",
      ]);
    } finally {
      await store.close();
    }
  });
});

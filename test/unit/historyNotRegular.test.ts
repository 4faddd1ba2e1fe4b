// A history folder may hold anything under a transcript's name: a FIFO (whose open waits forever
// for a writer), a Unix socket, a directory. The list, the index and a restore skip each with a
// notice naming the path, never open it, never hang, and still show the sessions beside them.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readJsonl } from "../../src/main/history/jsonlReader.js";
import { restoreFirstScreen } from "../../src/main/history/firstScreen.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { listSessionsWithProblems } from "../../src/main/history/sessionList.js";
import { discoverTranscripts, DirCache, type SkippedEntry } from "../../src/main/search/discover.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const SessionId = "5a5a5a5a-1111-4222-8333-444444444444";
// A hang would hold the test until vitest's timeout: fail well before it instead.
const Quick = 10_000;

const tempDir = tempDirs("baton-notreg-");
let root: string;
let projects: string;
let project: string;
let fifos: string[] = [];
let server: net.Server | undefined;

function mkfifo(p: string): void {
  execFileSync("mkfifo", [p]);
  fifos.push(p);
}

/** Lets a reader stuck opening a FIFO (the unfixed code) go, so a failing run still ends. */
function releaseFifo(p: string): void {
  try {
    fs.closeSync(fs.openSync(p, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
  } catch {
    // No reader waiting: nothing to release.
  }
}

function line(value: object): string {
  return `${JSON.stringify(value)}\n`;
}

beforeEach(async () => {
  root = tempDir();
  projects = path.join(root, "projects");
  project = path.join(projects, "-home-user-code-x");
  fs.mkdirSync(path.join(project, SessionId, "subagents"), { recursive: true });
  fs.writeFileSync(
    path.join(project, `${SessionId}.jsonl`),
    line({ type: "user", sessionId: SessionId, cwd: "/home/user/code/x", uuid: "u1", timestamp: "2026-11-30T02:00:00.000Z", message: { role: "user", content: "india: the normal session" } }) +
      line({ type: "assistant", sessionId: SessionId, cwd: "/home/user/code/x", uuid: "a1", parentUuid: "u1", timestamp: "2026-11-30T02:00:01.000Z", message: { id: "m1", role: "assistant", model: "m", content: [{ type: "text", text: "juliet reply" }] } }),
  );
  mkfifo(path.join(project, "x.jsonl"));
  fs.mkdirSync(path.join(project, "y.jsonl"));
  server = net.createServer();
  await new Promise<void>((resolve) => server!.listen(path.join(project, "z.jsonl"), resolve));
  mkfifo(path.join(project, SessionId, "subagents", "agent-a.jsonl"));
});

afterEach(async () => {
  fifos.forEach(releaseFifo);
  fifos = [];
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

const rel = (p: string): string => path.relative(projects, p);

describe("history entries that are not regular files", () => {
  it("the session list skips a FIFO, a directory and a socket named *.jsonl, each with a notice, and lists the session beside them", { timeout: Quick }, async () => {
    const { sessions, problems } = await listSessionsWithProblems(projects);
    expect(sessions.map((s) => s.title)).toEqual(["india: the normal session"]);
    expect(problems.map((p) => [rel(p.path), p.message])).toEqual([
      ["-home-user-code-x/x.jsonl", "skipped: not a regular file (a FIFO)"],
      ["-home-user-code-x/y.jsonl", "skipped: not a regular file (a directory)"],
      ["-home-user-code-x/z.jsonl", "skipped: not a regular file (a socket)"],
    ]);
  });

  it("discovery reports each one, the subagent FIFO included, and finds the real transcripts", () => {
    const skipped: SkippedEntry[] = [];
    const found = discoverTranscripts(projects, new DirCache(), skipped);
    expect(found.map((f) => rel(f.path))).toEqual([`-home-user-code-x/${SessionId}.jsonl`]);
    expect(skipped.map((s) => [rel(s.path), s.kind]).sort()).toEqual([
      [`-home-user-code-x/${SessionId}/subagents/agent-a.jsonl`, "FIFO"],
      ["-home-user-code-x/x.jsonl", "FIFO"],
      ["-home-user-code-x/y.jsonl", "directory"],
      ["-home-user-code-x/z.jsonl", "socket"],
    ]);
  });

  it("indexing reports them as problems and indexes the session beside them (search finds it)", { timeout: Quick }, async () => {
    const store = new StoreService({ dbPath: path.join(root, "h.db") });
    try {
      const report = await store.index(projects);
      expect(report.problems.map((p) => rel(p.path)).sort()).toEqual([
        `-home-user-code-x/${SessionId}/subagents/agent-a.jsonl`,
        "-home-user-code-x/x.jsonl",
        "-home-user-code-x/y.jsonl",
        "-home-user-code-x/z.jsonl",
      ]);
      expect(report.problems.every((p) => p.message.startsWith("skipped: not a regular file"))).toBe(true);
      expect(store.search("juliet").map((h) => h.sessionId)).toEqual([SessionId]);
    } finally {
      store.close();
    }
  });

  it("a restore leaves out a subagent FIFO with a notice, without waiting on it", { timeout: Quick }, async () => {
    const full = await restoreSession(SessionId, { projectsDir: projects, loadSidechains: true });
    expect(full.transcript.blocks.some((b) => b.kind === "user" && b.text === "india: the normal session")).toBe(true);
    expect(full.problems.filter((p) => p.kind === "not_regular_file").map((p) => [rel(p.path), p.message])).toEqual([
      [`-home-user-code-x/${SessionId}/subagents/agent-a.jsonl`, "skipped: not a regular file (a FIFO)"],
    ]);
    // The app opens a tab through the first screen, which lists the sidechains the same way.
    const first = await restoreFirstScreen(SessionId, { projectsDir: projects });
    expect(first.problems.map((p) => p.kind)).toContain("not_regular_file");
  });

  it("a reader handed a FIFO path directly refuses it at once instead of waiting for a writer", { timeout: Quick }, async () => {
    await expect(readJsonl(path.join(project, "x.jsonl"), { onRecord: () => undefined })).rejects.toThrow("not a regular file (a FIFO)");
  });
});

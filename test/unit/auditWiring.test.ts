// The audit trail where the teammate's slice left it out: `baton export` and following a live file
// show Baton's recorded decisions as the app does, and the app's Console names a damaged trail.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { applyDelta, denormalize, emptyTranscriptState } from "../../src/shared/delta/index.js";
import { createAppCore } from "../../src/main/app/createAppCore.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run as exportRun } from "../../src/main/commands/export.js";
import { run as indexRun } from "../../src/main/commands/indexCommand.js";
import { run as searchRun } from "../../src/main/commands/search.js";
import { followTranscript, type Follower } from "../../src/main/history/tail.js";
import { modelOf } from "../../src/main/hub/index.js";
import type { AuditPermission } from "../../src/main/audit/audit.js";
import { LATEST_VERSION } from "../../src/main/search/migrations/index.js";
import { besideNewer, StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-audit-wiring-");
const followers: Follower[] = [];
afterEach(() => {
  for (const f of followers.splice(0)) f.stop();
});

const sessionId = "0d0d0d0d-1111-4222-8333-444444444444";
const base = { sessionId, cwd: "/home/user/code/x", version: "2.1.197", isSidechain: false };
const lines = [
  { ...base, type: "user", uuid: "u1", timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: "list it" } },
  {
    ...base,
    type: "assistant",
    uuid: "a1",
    parentUuid: "u1",
    timestamp: "2026-01-01T00:00:01.000Z",
    message: { id: "m1", role: "assistant", model: "m", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls /" } }] },
  },
  {
    ...base,
    type: "user",
    uuid: "u2",
    parentUuid: "a1",
    timestamp: "2026-01-01T00:00:02.000Z",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", is_error: true, content: "Not in this folder" }] },
  },
];
const text = (n: number): string => lines.slice(0, n).map((l) => `${JSON.stringify(l)}\n`).join("");

const deny: AuditPermission = {
  sessionId,
  requestId: "req-1",
  toolUseId: "toolu_1",
  toolName: "Bash",
  decision: "deny",
  decidedBy: "user",
  message: "Not in this folder",
  time: "2026-01-01T00:00:01.500Z",
};

/** A projects dir holding the session, and an index path whose audit.sqlite holds the denial. */
function setUp(withAudit: boolean): { projects: string; file: string; dbPath: string } {
  const dir = tempDir();
  const projects = path.join(dir, "projects");
  const file = path.join(projects, "-home-user-code-x", `${sessionId}.jsonl`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text(lines.length));
  const dbPath = path.join(dir, "baton", "history.db");
  if (withAudit) {
    const store = new StoreService({ dbPath });
    store.recordPermission(deny);
    store.close();
  }
  return { projects, file, dbPath };
}

function capture(): { io: { stdout(s: string): void; stderr(s: string): void }; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return { io: { stdout: (s) => void (out += s), stderr: (s) => void (err += s) }, out: () => out, err: () => err };
}

function bashPermission(t: Transcript): unknown {
  return t.blocks.find((b) => b.call?.name === "Bash")?.call?.permission;
}

describe("baton export with the audit trail", { timeout: 30_000 }, () => {
  it("shows the call as Baton's denial, with who decided and why, like the app", async () => {
    const { projects, dbPath } = setUp(true);
    const c = capture();
    expect(await exportRun([sessionId, "--projects-dir", projects, "--db", dbPath, "--json"], c.io)).toBe(0);
    const { transcript } = JSON.parse(c.out()) as { transcript: Transcript };
    expect(bashPermission(transcript)).toEqual({ requestId: "req-1", state: "denied", decidedBy: "user", message: "Not in this folder" });
    expect(c.err()).toBe("");
  });

  it("with no audit file beside the index: the disk's view, and no database is created", async () => {
    const { file, dbPath } = setUp(false);
    const c = capture();
    expect(await exportRun([file, "--db", dbPath, "--json"], c.io)).toBe(0);
    const { transcript } = JSON.parse(c.out()) as { transcript: Transcript };
    expect(transcript.blocks.some((b) => b.call?.name === "Bash")).toBe(true);
    expect(bashPermission(transcript)).toBeUndefined();
    expect(fs.existsSync(path.dirname(dbPath))).toBe(false);
  });
});

describe("following a live file with the audit trail", () => {
  it("new lines get the recorded decision, as a restore gives them", async () => {
    const { file } = setUp(false);
    fs.writeFileSync(file, text(1));
    const events: ClientEvent[] = [];
    const follower = followTranscript(file, { audit: { permissions: [deny], interrupts: [] }, pollMs: 20, onEvents: (e) => events.push(...e) });
    followers.push(follower);
    fs.appendFileSync(file, text(lines.length).slice(text(1).length));
    const deadline = Date.now() + 10_000;
    while (!events.some((e) => e.kind === "tool_result") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const t = modelOf(events).transcript();
    expect(bashPermission(t)).toEqual({ requestId: "req-1", state: "denied", decidedBy: "user", message: "Not in this folder" });
  });
});

describe("the app's Console", { timeout: 30_000 }, () => {
  it("says a damaged audit file was moved aside and where the earlier decisions are", async () => {
    const { projects, dbPath } = setUp(false);
    const auditPath = path.join(path.dirname(dbPath), "audit.sqlite");
    fs.mkdirSync(path.dirname(auditPath), { recursive: true });
    fs.writeFileSync(auditPath, "not an audit trail ".repeat(300));
    const core = await createAppCore({ projectsDir: projects, dbPath, claudePath: path.join(projects, "no-claude") });
    try {
      const errors = core.log.entries().filter((e) => e.level === "error" && e.message.includes("audit"));
      expect(errors).toHaveLength(1);
      const moved = fs.readdirSync(path.dirname(auditPath)).find((n) => n.startsWith("audit.sqlite.corrupt-"));
      expect(moved).toBeDefined();
      expect(errors[0]!.message).toContain(`recorded before are in ${path.join(path.dirname(auditPath), moved!)}`);
    } finally {
      await core.close();
    }
  });
});

describe("an index written by a newer Baton", { timeout: 30_000 }, () => {
  it("(and the index the app keeps beside it newer too) turns search off in the app, leaves the file alone, and keeps the audit trail: a restore still shows Baton's decision", async () => {
    const { projects, dbPath } = setUp(true);
    const newer = new Database(dbPath);
    newer.pragma(`user_version = ${LATEST_VERSION + 1}`);
    newer.close();
    // The app keeps its own index beside a newer one (faultSqliteNewer.test.ts): that one is newer too.
    const beside = new Database(besideNewer(dbPath));
    beside.pragma(`user_version = ${LATEST_VERSION + 1}`);
    beside.close();
    const before = fs.readFileSync(dbPath);
    const core = await createAppCore({ projectsDir: projects, dbPath, claudePath: path.join(projects, "no-claude") });
    try {
      const warnings = core.log.entries().filter((e) => e.level === "warning" && e.message.includes("search is off"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.message).toContain("the audit trail still records");
      await expect(core.manager.searchHistory("list")).rejects.toMatchObject({ code: "search_unavailable" });
      const tab = await core.manager.openSession(sessionId);
      let shown: Transcript | undefined;
      core.manager.subscribeTranscript(tab.tabId, (delta) => (shown = denormalize(applyDelta(emptyTranscriptState(), delta))))();
      expect(bashPermission(shown!)).toEqual({ requestId: "req-1", state: "denied", decidedBy: "user", message: "Not in this folder" });
    } finally {
      await core.close();
    }
    expect(fs.readFileSync(dbPath).equals(before)).toBe(true);
  });
});

describe("the index and search commands", { timeout: 30_000 }, () => {
  it.each([
    ["index", indexRun, [] as string[]],
    ["search", searchRun, ["anything"]],
  ] as const)("baton %s says a damaged audit file was moved aside and where it is", async (name, run, args) => {
    const { projects, dbPath } = setUp(false);
    const auditPath = path.join(path.dirname(dbPath), "audit.sqlite");
    fs.mkdirSync(path.dirname(auditPath), { recursive: true });
    fs.writeFileSync(auditPath, "not an audit trail ".repeat(300));
    const io = bufferIO();
    expect(await run([...args, "--projects-dir", projects, "--db", dbPath], io)).toBe(0);
    const moved = fs.readdirSync(path.dirname(auditPath)).find((n) => n.startsWith("audit.sqlite.corrupt-"));
    expect(moved).toBeDefined();
    expect(io.err()).toContain(`baton ${name}: the audit trail ${auditPath} was damaged`);
    expect(io.err()).toContain(path.join(path.dirname(auditPath), moved!));
  });
});


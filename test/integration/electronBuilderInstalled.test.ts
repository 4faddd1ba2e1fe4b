// The installed app runs from what electron-builder packs, and from nothing else. electron-builder
// is run on electron-builder.yml up to writing app.asar (test/support/electronBuilderProbe.ts) and
// the files it would pack are written out as folders in a temporary directory, with no
// node_modules above them: a file the packing left out cannot be found from there. The built
// shell is then started from that copy, installed (app.isPackaged), with the `electron` module
// replaced by the shell boot test's double (test/support/electron/): it boots, serves its page
// and assets from the copy, lists the recorded history and finds it by search (the store's worker
// threads and SQLite from the copy), starts its shell parser (the grammar's .wasm from the copy:
// the Console says so when it is missing) and finds the person's claude. Leaving a package out
// (zod) stops the boot; leaving the grammar out fails the last test. Electron, the archive format
// and the better-sqlite3 build for Electron are not part of this (the copy holds Node's build).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogEntry, Result, SearchHit, SessionSummary } from "../../src/shared/api.js";
import { IpcChannels } from "../../src/shared/apiNames.js";
import { APP_ENTRY_URL } from "../../src/main/window/appProtocol.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { writePackedApp } from "../support/electronBuilderProbe.js";
import { ShellProcess } from "../support/electron/shellProcess.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { ensureMainBuilt, ensureRendererBuilt, repoRoot, whileOutputHeld } from "../support/ui/buildRenderer.js";

/** The recorded session the history folder holds (fixtures/recordings/subagent), and a phrase of it. */
const RecordedSession = "51f60392-a228-4722-bc09-abce11fbdf2d";
const RecordedWords = "subagent reported back";

function value<T>(result: unknown): T {
  const r = result as Result<T>;
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

let scratch: string;
let installed: string;
let model: ModelServer;
let env: CliEnv;
let shell: ShellProcess;

beforeAll(async () => {
  ensureMainBuilt();
  ensureRendererBuilt();
  scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "baton-installed-app-")));
  installed = await whileOutputHeld(() => writePackedApp(repoRoot, "linux", path.join(scratch, "builder"), path.join(scratch, "resources", "app")));
  model = await startModelServer({});
  env = await createCliEnv({ baseUrl: model.url, cwdName: "installed-app" });
  fs.cpSync(path.join(repoRoot, "fixtures", "recordings", "subagent", "projects"), env.projectsDir, { recursive: true });
  const userData = path.join(env.home, ".config", "Baton");
  const runDir = path.join(env.home, ".run");
  fs.mkdirSync(userData, { recursive: true });
  fs.mkdirSync(runDir, { recursive: true, mode: 0o700 });
  shell = new ShellProcess({
    mainEntry: path.join(installed, "out", "main", "index.js"),
    env: { ...env.env, BATON_CLAUDE_PATH: env.claudePath, XDG_CONFIG_HOME: path.join(env.home, ".config"), XDG_RUNTIME_DIR: runDir },
    args: ["--projects-dir", env.projectsDir],
    userData,
    packaged: true,
  });
  await shell.ready();
  await shell.waitFor("BrowserWindow.show");
}, 300_000);

afterAll(async () => {
  await shell?.stop();
  await model?.close();
  await env?.cleanup();
  if (scratch !== undefined) fs.rmSync(scratch, { recursive: true, force: true });
});

/** Asks until `found` holds for the answer (the index fills in the background), or the deadline passes. */
async function askUntil<T>(ask: () => Promise<T>, found: (answer: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await ask();
    if (found(answer) || Date.now() > deadline) return answer;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("the installed app, run from exactly what electron-builder packs", () => {
  it("is a copy with no node_modules of the repository above it, and none of its sources", () => {
    for (let dir = path.dirname(installed); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
      expect(fs.existsSync(path.join(dir, "node_modules")), dir).toBe(false);
    }
    expect(fs.existsSync(path.join(installed, "src"))).toBe(false);
    expect(fs.existsSync(path.join(installed, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node"))).toBe(true);
  });

  it("serves its page and the page's script and styles from the copy", async () => {
    const page = await shell.fetchApp(APP_ENTRY_URL);
    expect(page.status).toBe(200);
    const html = page.body.toString("utf8");
    expect(html).toContain('<div id="root">');
    const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1] ?? "");
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const response = await shell.fetchApp(new URL(asset, APP_ENTRY_URL).toString());
      expect(response.status, asset).toBe(200);
      expect(response.body.equals(fs.readFileSync(path.join(installed, "out", "renderer", asset))), asset).toBe(true);
    }
  });

  it("lists the recorded session and finds it by search: the store's workers and SQLite load from the copy", async () => {
    const sessions = value<SessionSummary[]>(await shell.invoke(IpcChannels.method("listSessions"), [], "app"));
    expect(sessions.map((s) => s.sessionId)).toContain(RecordedSession);
    const hits = await askUntil(
      async () => value<SearchHit[]>(await shell.invoke(IpcChannels.method("searchHistory"), [RecordedWords], "app")),
      (found) => found.some((h) => h.sessionId === RecordedSession),
    );
    expect(hits.map((h) => h.sessionId)).toContain(RecordedSession);
  });

  it("finds the person's claude, started its shell parser (the tree-sitter grammar from the copy), and logged no error", async () => {
    expect(await shell.invoke(IpcChannels.method("getClaudeStatus"), [], "app")).toEqual({ ok: true, value: { found: true, path: env.claudePath } });
    // The Console's log, replayed to a new subscriber.
    const since = shell.sends.length;
    expect(await shell.invoke(IpcChannels.subscribe("onLog"), ["page-1", "log"], "app")).toEqual({ ok: true, value: undefined });
    const logged = (): LogEntry[] => shell.sends.slice(since).filter((s) => s.channel === IpcChannels.event && s.args[0] === "log").map((s) => s.args[1] as LogEntry);
    await shell.waitUntil("the Console's log replayed", () => (logged().length > 0 ? true : undefined));
    const entries = logged();
    expect(entries.filter((e) => e.level === "error").map((e) => e.message)).toEqual([]);
    expect(shell.output).not.toMatch(/Cannot find (?:module|package)|ERR_MODULE_NOT_FOUND|ENOENT|startup failed/);
  });
});

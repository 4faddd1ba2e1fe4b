// The command line's bundle (`npm run build:cli` → out/cli, scripts/buildCli.ts) runs under plain
// Node with the package's production dependencies alone: no tsx, no TypeScript, no devDependency.
// It is copied into a folder holding only package.json, out/cli and a node_modules of the
// packages `npm install --omit=dev` would install (the lock file's non-dev entries), and each
// real command runs there, its worker threads (store, extract) and child process (the OS
// sandbox's host) started from the bundle's own files. Every run must leave no process behind.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { builtinModules, createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/main/commands/baton.js";
import { chunksInWorker } from "../../src/main/search/chunkSource.js";
import type { PackedChunk } from "../../src/main/search/chunkWire.js";
import { emptyFacts } from "../../src/main/search/extract.js";
import { ensureCliBuilt } from "../support/cliBundle.js";
import { tempDirs } from "../support/tempDirs.js";
import { ensureRendererBuilt, repoRoot } from "../support/ui/buildRenderer.js";

interface PackageJson {
  readonly version: string;
  readonly dependencies: Record<string, string>;
}
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as PackageJson;
const recording = path.join(repoRoot, "fixtures", "recordings", "nested-subagents", "projects");
const Marker = "BATON_CLI_BUNDLE_TEST_RUN";

const tempDir = tempDirs("baton-cli-bundle-", "all");
let cliOut: string;
/** A Baton folder holding package.json, out/cli and the production node_modules only. */
let installed: string;
let bundle: string;
let projects: string;
let home: string;

/** The top-level packages of a production install: the lock file's entries not marked dev. */
function productionPackages(): string[] {
  const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([key, entry]) => /^node_modules\/(?:@[^/]+\/)?[^/]+$/.test(key) && entry.dev !== true && entry.devOptional !== true)
    .map(([key]) => key);
}

beforeAll(() => {
  cliOut = ensureCliBuilt();
  installed = tempDir();
  fs.copyFileSync(path.join(repoRoot, "package.json"), path.join(installed, "package.json"));
  fs.cpSync(cliOut, path.join(installed, "out", "cli"), { recursive: true });
  // Copies, not links: a package's own imports then resolve inside this folder, as installed.
  for (const key of productionPackages()) fs.cpSync(path.join(repoRoot, key), path.join(installed, key), { recursive: true });
  bundle = path.join(installed, "out", "cli", "baton.js");
  projects = path.join(tempDir(), "projects");
  fs.cpSync(recording, projects, { recursive: true });
  home = tempDir();
}, 120_000);

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Processes still carrying this run's marker once it has exited (none may). */
  readonly left: readonly string[];
}

let runs = 0;

/** Processes other than this one whose environment holds `marker` (Linux: /proc). */
function processesWith(marker: string): string[] {
  if (process.platform !== "linux") return [];
  const found: string[] = [];
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(marker)) {
        found.push(`${pid}: ${fs.readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ").trim()}`);
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/**
 * `node <installed>/out/cli/baton.js …` with no NODE_OPTIONS (nothing preloaded) and a home of
 * its own; `whileRunning` may act on the child (a signal). Resolves once it has exited.
 */
function baton(args: readonly string[], whileRunning?: (child: ChildProcess, output: () => string) => void): Promise<Run> {
  const marker = `${process.pid}-${++runs}`;
  const env: NodeJS.ProcessEnv = { PATH: process.env["PATH"], HOME: home, XDG_CONFIG_HOME: path.join(home, "config"), [Marker]: marker };
  const child = spawn(process.execPath, [bundle, ...args], { cwd: installed, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  whileRunning?.(child, () => stdout + stderr);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      const left = processesWith(`${Marker}=${marker}`);
      const done = (): void => resolve({ code, signal, stdout, stderr, left });
      // A process left behind may hold the output pipes open: then report it without waiting for them.
      if (left.length > 0 || (child.stdout.closed && child.stderr.closed)) done();
      else child.on("close", done);
    });
  });
}

/** The specifiers a built file imports: static, side-effect and literal dynamic imports. */
function importsOf(code: string): string[] {
  const found = [...code.matchAll(/(?:^|[\s;])(?:import|export)\s*(?:[\w*${}\s,]+\s*from\s*)?["']([^"']+)["']/gm), ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)];
  return found.map((m) => m[1]!);
}

describe("the command line's bundle (out/cli)", () => {
  it("has an entry for each command of the table and for each worker and host the commands start", () => {
    const files = new Set(fs.readdirSync(cliOut));
    for (const command of COMMANDS) expect(files.has(command.module.replace(/^\.\//, "")), command.name).toBe(true);
    for (const name of ["baton.js", "storeWorker.js", "extractWorker.js", "sandboxHost.js"]) expect(files.has(name), name).toBe(true);
    // Every file a built file names beside itself (a lazy command, `new URL("./storeWorker.js", import.meta.url)`) is there.
    for (const name of [...files].filter((f) => f.endsWith(".js"))) {
      for (const [, named] of fs.readFileSync(path.join(cliOut, name), "utf8").matchAll(/["']\.\/([\w.-]+\.js)["']/g)) {
        expect(files.has(named!), `${name} names ./${named}`).toBe(true);
      }
    }
  });

  it("imports only Node's own modules, its own files and the package's dependencies: no tsx, no .ts file", () => {
    const builtins = new Set(builtinModules);
    const bare = new Set<string>();
    for (const name of fs.readdirSync(cliOut).filter((f) => f.endsWith(".js"))) {
      for (const spec of importsOf(fs.readFileSync(path.join(cliOut, name), "utf8"))) {
        expect(spec, name).not.toMatch(/\.tsx?$/);
        if (spec.startsWith("./")) expect(fs.existsSync(path.join(cliOut, spec)), `${name} imports ${spec}`).toBe(true);
        else if (!spec.startsWith("node:") && !builtins.has(spec)) bare.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
      }
    }
    expect([...bare].filter((name) => !(name in pkg.dependencies))).toEqual([]);
    // What it does import from node_modules it imports, not inlines.
    expect([...bare]).toEqual(expect.arrayContaining(["better-sqlite3", "web-tree-sitter", "zod"]));
  });

  it("starts with the production dependencies alone, tsx nowhere on its module path", async () => {
    expect(fs.existsSync(path.join(installed, "node_modules", "tsx"))).toBe(false);
    expect(() => createRequire(bundle).resolve("tsx")).toThrow(/Cannot find module/);
    expect(() => createRequire(bundle).resolve("better-sqlite3")).not.toThrow();

    const version = await baton(["--version"]);
    expect(version).toMatchObject({ code: 0, stdout: `baton ${pkg.version}\n`, stderr: "", left: [] });
    const help = await baton(["--help"]);
    expect(help.stdout).toMatch(/^Usage: baton <command>/);
  });

  it("lists past sessions and the presets in force, and judges a shell command with the bundled parser", async () => {
    const sessions = await baton(["sessions", "--projects-dir", projects, "--json"]);
    expect(sessions, sessions.stderr).toMatchObject({ code: 0, stderr: "", left: [] });
    const project = path.join(projects, fs.readdirSync(projects)[0]!);
    const sessionId = fs.readdirSync(project).find((f) => f.endsWith(".jsonl"))!.replace(/\.jsonl$/, "");
    expect((JSON.parse(sessions.stdout) as { sessions: { sessionId: string }[] }).sessions.map((s) => s.sessionId)).toContain(sessionId);

    const list = await baton(["policy", "--list"]);
    expect(list).toMatchObject({ code: 0, stderr: "", left: [] });
    expect(list.stdout).toContain("scout (exploratory)");
    // Only tree-sitter's reading of the line finds the command inside the substitution.
    const judged = await baton(["policy", "scout", "Bash", JSON.stringify({ command: "ls $(rm -rf /)" }), "--orchestration", "--json"]);
    expect(judged, judged.stderr).toMatchObject({ code: 0, left: [] });
    expect(JSON.parse(judged.stdout)).toMatchObject({ decision: "deny", rule: "preset:scout/exec" });
  });

  it("exports a session as one HTML file, its answers' Markdown rendered by the bundled renderer", async () => {
    const project = path.join(projects, fs.readdirSync(projects)[0]!);
    const file = path.join(project, fs.readdirSync(project).find((f) => f.endsWith(".jsonl"))!);
    const exported = await baton(["export", file, "--format", "html"]);
    expect(exported, exported.stderr).toMatchObject({ code: 0, left: [] });
    expect(exported.stdout).toMatch(/^<!doctype html>/);
    expect(exported.stdout).toContain('<section class="answer" aria-label="Answer"><div class="md"><p>');
  });

  it("indexes through its own store worker, searches on its own thread, and reads transcripts on its own extract worker", async () => {
    const db = path.join(tempDir(), "history.db");
    const indexed = await baton(["index", "--projects-dir", projects, "--db", db, "--json"]);
    expect(indexed, indexed.stderr).toMatchObject({ code: 0, left: [] });
    expect((JSON.parse(indexed.stdout) as { filesNew: number }).filesNew).toBeGreaterThan(0);
    const found = await baton(["search", "nest two agents", "--projects-dir", projects, "--db", db, "--json"]);
    expect(found, found.stderr).toMatchObject({ code: 0, stderr: "", left: [] });
    expect((JSON.parse(found.stdout) as unknown[]).length).toBeGreaterThan(0);

    // The extract worker serves large index runs only; started here from the installed bundle.
    const project = path.join(projects, fs.readdirSync(projects)[0]!);
    const file = path.join(project, fs.readdirSync(project).find((f) => f.endsWith(".jsonl"))!);
    const job = { path: file, isMain: true, fromOffset: 0, fromLines: 0, facts: emptyFacts() };
    const chunks: PackedChunk[] = [];
    const entry = pathToFileURL(path.join(installed, "out", "cli", "extractWorker.js"));
    // 0 would mean the worker could not start and the chunks were read on this thread instead.
    expect(await chunksInWorker([job], 64 * 1024, (c) => chunks.push(c), entry, { whileStarting: 0, warmUpBytes: 0 })).toBe(1);
    expect(chunks.at(-1)?.offset).toBe(fs.statSync(job.path).size);
  });

  it.skipIf(process.platform !== "linux")("runs a command in the OS sandbox through its own host process, and stops the host", async () => {
    const workspace = tempDir();
    const settings = path.join(home, "sandbox-settings", "settings.json");
    fs.mkdirSync(path.dirname(settings), { recursive: true, mode: 0o700 });
    const ran = await baton(["sandbox", "coder", "--settings", settings, "--cwd", workspace, "--", "echo", "made", ">", "made.txt;", "echo", "done"]);
    expect(ran, ran.stderr).toMatchObject({ code: 0, stdout: "done\n", left: [] });
    expect(fs.readFileSync(path.join(workspace, "made.txt"), "utf8")).toBe("made\n");
  });

  it.skipIf(process.platform !== "linux")("serves the UI, and on Ctrl-C stops with its index and nothing left behind", async () => {
    const renderer = ensureRendererBuilt();
    fs.mkdirSync(path.join(installed, "out"), { recursive: true });
    if (!fs.existsSync(path.join(installed, "out", "renderer"))) fs.symlinkSync(renderer, path.join(installed, "out", "renderer"));
    const db = path.join(tempDir(), "history.db");
    let url = "";
    const served = await baton(["web", "--projects-dir", projects, "--db", db, "--claude", "/nonexistent/claude"], (child, output) => {
      // Registered after baton()'s own listener, so output() already holds this chunk.
      child.stdout!.on("data", () => {
        if (url !== "") return;
        url = /Baton is at (\S+)/.exec(output())?.[1] ?? "";
        if (url !== "") child.kill("SIGINT");
      });
    });
    expect(url, served.stdout + served.stderr).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=/);
    expect(served.stdout + served.stderr).toContain("Stopping Baton…");
    expect(served).toMatchObject({ code: 0, left: [] });
  });
});

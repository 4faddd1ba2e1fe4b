// Baton beside the tools people use on the same history: `npm run bench:peers [-- --scale 1
// --runs 3 --cli both --projects-dir <dir>]`.
// Reads bench:history's archive (bench/.data/history-<scale>: at scale 1, 2,000 sessions, 2 GB,
// one 100 MB session of 35,000 lines with 400 subagents) and its twin in CLI 2.1.332's line shapes
// (history-<scale>-cli2.1.332), made with bench:history's spec when missing; `--cli 2.1.197` or
// `--cli 2.1.332` reads one of them, `--projects-dir` a folder already on disk instead. Installs
// the peers at pinned versions into bench/.data/peers/ (install.ts) and measures, over the same
// files in the same run, each in a fresh process, medians of `runs`:
//   * the session list cold (Baton reads each file's ends, no index) and warm (its index up to
//     date) against each peer's full scan: ccusage's native build and its JavaScript build
//     (`session --json --offline`, whole process) and claude-code-ui's getProjects() (the call);
//   * search: bench:history's 50 queries through Baton's index (p50/p95) against each searched as
//     CloudCLI (claude-code-ui's successor) searches, with rg (cloudCliSearch.ts);
//   * the big session's first screen (Baton's restore) against claude-code-ui's first page of it;
//   * peak RSS of each process (GNU time's %M). Baton's side runs as plain JavaScript bundled like
//     out/cli (batonBundle.ts), not under tsx, whose compiler would add ~65 MB to its peaks.
// Targets: cold list ≤ 0.5× the fastest peer; warm list ≥ 20× faster than it; search ≥ 20× faster
// than rg; less peak memory than every peer.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { tableRow } from "../tableRow.js";
import { folderBytes, generatedArchive, givenArchive, type PeerArchive } from "./archive.js";
import { buildBatonBundle } from "./batonBundle.js";
import { ccusageJs, ccusageNative } from "./ccusage.js";
import { prepareClaudeCodeUi } from "./claudeCodeUi.js";
import { installPeer, Peers } from "./install.js";
import { measureArchive, type PeerSetup } from "./measureArchive.js";
import { reportedRows, sideBySide, targetRows, verdictLines } from "./report.js";
import { passFail } from "./verdict.js";

const { values } = parseArgs({
  options: {
    scale: { type: "string", default: "1" },
    runs: { type: "string", default: "3" },
    cli: { type: "string", default: "both" },
    "projects-dir": { type: "string" },
  },
});
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const scale = Number(values.scale);
const runs = Math.max(1, Math.floor(Number(values.runs)));
if (!(scale > 0)) throw new Error(`--scale must be a positive number, not ${values.scale}`);
if (!["both", "2.1.197", "2.1.332"].includes(values.cli)) throw new Error(`--cli must be both, 2.1.197 or 2.1.332, not ${values.cli}`);
const peersRoot = path.join(repoRoot, "bench", ".data", "peers");
const load = (): string => `${os.loadavg()[0]!.toFixed(2)} / ${os.availableParallelism()}`;

function archives(): PeerArchive[] {
  const given = values["projects-dir"];
  if (given !== undefined) return [givenArchive(given)];
  const shapes = values.cli === "both" ? (["2.1.197", "2.1.332"] as const) : [values.cli as "2.1.197" | "2.1.332"];
  return shapes.map((cli) => generatedArchive(repoRoot, scale, cli));
}

/** The warm list and search need SQLite in this Node; say so before minutes of measuring, not after. */
function checkSqlite(): void {
  const probe = spawnSync(process.execPath, ["-e", "new (require('better-sqlite3'))(':memory:').close()"], { cwd: repoRoot, encoding: "utf8" });
  if (probe.status === 0) return;
  const why = probe.stderr.trim().split("\n").find((l) => /Error/.test(l)) ?? probe.stderr.trim().split("\n")[0];
  throw new Error(`better-sqlite3 does not load in this Node (${process.version}): ${why}. \`npm rebuild better-sqlite3\` builds it for this Node.`);
}

async function peers(scratch: string): Promise<Omit<PeerSetup, "claudeCodeUi" | "dbPath">> {
  checkSqlite();
  const baton = await buildBatonBundle(repoRoot, path.join(peersRoot, "baton-bundle"));
  const native = installPeer(peersRoot, Peers.ccusageNative);
  const js = installPeer(peersRoot, Peers.ccusageJs);
  const rg = spawnSync("rg", ["--version"], { encoding: "utf8" });
  if (rg.error !== undefined || rg.status !== 0) throw new Error("rg (ripgrep) is not on PATH: CloudCLI's search runs it (Debian: apt-get install ripgrep)");
  const rgVersion = rg.stdout.split("\n")[0]!.trim();
  return {
    ccusageNative: { ...(await ccusageNative(native)), label: `ccusage ${native.peer.version} native` },
    ccusageJs: { ...ccusageJs(js), label: `ccusage ${js.peer.version} JS` },
    rg: { bin: "rg", label: `${rgVersion.replace(/^ripgrep/, "rg")} as CloudCLI runs it` },
    baton,
    scratch,
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "baton-bench-peers-"));
  try {
    const base = await peers(scratch);
    const ui = installPeer(peersRoot, Peers.claudeCodeUi);
    console.log(`peers: ${base.ccusageNative.label} (${base.ccusageNative.command}), ${base.ccusageJs.label} (node ${process.version}), ` +
      `@siteboon/claude-code-ui ${ui.peer.version} (server/projects.js, installed with --ignore-scripts), ${base.rg.label}; load ${load()}`);
    const results: string[] = [];
    for (const archive of archives()) {
      const bytes = folderBytes(archive.projectsDir);
      console.log(`\n== ${archive.label}: ${archive.projectsDir} (${(bytes / 1024 / 1024).toFixed(1)} MB); big session ${path.basename(archive.bigSession)} ` +
        `(${(fs.statSync(archive.bigSession).size / 1024 / 1024).toFixed(1)} MB); load ${load()}`);
      // One pass over every byte first, not counted: whoever ran first would otherwise wait on the disk.
      for (const e of fs.readdirSync(archive.projectsDir, { withFileTypes: true, recursive: true })) if (e.isFile()) fs.readFileSync(path.join(e.parentPath, e.name));
      const setup: PeerSetup = {
        ...base,
        claudeCodeUi: { ...prepareClaudeCodeUi(ui, archive.projectsDir, scratch), label: `claude-code-ui ${ui.peer.version}` },
        dbPath: path.join(peersRoot, "index", archive.key, "history.db"),
      };
      const t0 = performance.now();
      const figures = await measureArchive(archive, setup, runs);
      console.log(`(measured in ${((performance.now() - t0) / 1000).toFixed(0)} s; load ${load()})\n`);
      for (const line of sideBySide(figures)) console.log(line);
      console.log("");
      const rows = targetRows(figures);
      for (const line of verdictLines(rows)) console.log(line);
      for (const r of rows) results.push(tableRow(`${r.figure} (${figures.archive})`, `${r.baton} vs ${r.peer}: ${r.verdict.shown} ${passFail(r.verdict)}`, r.verdict.target));
      for (const r of reportedRows(figures)) results.push(tableRow(`${r.figure} (${figures.archive})`, r.value, "reported"));
    }
    console.log(`\nthe whole run took ${((performance.now() - started) / 60_000).toFixed(1)} min (${runs} run(s) of each list and first screen); load ${load()}\n`);
    for (const line of results) console.log(line);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

await main();

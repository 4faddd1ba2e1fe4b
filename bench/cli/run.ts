// Command-line start-up benchmark: `npm run bench:cli [-- --scale 0.1 --runs 9 --baton <bin>]`.
// Times `baton --version` and `baton search <word>` over an indexed generated archive (bench/history's
// generator; scale 0.1 by default: 200 sessions, ~200 MB, where the 2 GB scale 1 of bench:history
// is for the index itself), and `rg <word>` over the same archive beside them: wall time of a
// fresh process each run, as a person's shell starts it, median of `runs`. Every baton run carries a
// marker in its environment; a process still holding the marker a second after the run exited was
// left behind (a worker's child, tsx's esbuild service) and is counted.
// Targets: --version <= 100 ms; search <= 150 ms; no process left behind.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { cliBundleState } from "../../scripts/cliBundle.mjs";
import { generateArchive, type ArchiveStats } from "../history/generateArchive.js";
import { tableRow } from "../tableRow.js";

const { values } = parseArgs({
  options: {
    scale: { type: "string", default: "0.1" },
    runs: { type: "string", default: "9" },
    /** Another checkout's bin/baton.mjs (to measure a build before a change); default this one's. */
    baton: { type: "string" },
    word: { type: "string" },
  },
});
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const scale = Number(values.scale);
const runs = Math.max(1, Math.floor(Number(values.runs)));
if (!(scale > 0)) throw new Error(`--scale must be a positive number, not ${values.scale}`);
const bin = path.resolve(values.baton ?? path.join(repoRoot, "bin", "baton.mjs"));
const dataDir = path.join(repoRoot, "bench", ".data", `cli-${scale}`);
const projectsDir = path.join(dataDir, "projects");
// Another checkout's index may have another schema: each bin keeps its own.
const dbPath = path.join(dataDir, values.baton === undefined ? "index" : `index-${createHash("sha256").update(bin).digest("hex").slice(0, 8)}`, "history.db");
const statsFile = path.join(dataDir, "archive.json");
const Marker = "BATON_BENCH_CLI_RUN";

const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(1)} MB`;
const load = (): string => os.loadavg()[0]!.toFixed(2);

function archive(): ArchiveStats {
  if (fs.existsSync(statsFile)) return JSON.parse(fs.readFileSync(statsFile, "utf8")) as ArchiveStats;
  fs.rmSync(dataDir, { recursive: true, force: true });
  const t = performance.now();
  // bench/history's shape (bench/history/run.ts) at this scale.
  const stats = generateArchive(projectsDir, {
    sessions: Math.max(2, Math.round(2000 * scale)),
    totalBytes: 2.05e9 * scale,
    big: { bytes: 100e6 * scale, lines: Math.max(50, Math.round(35_000 * scale)), subagents: Math.max(1, Math.round(400 * scale)) },
  });
  fs.writeFileSync(statsFile, JSON.stringify(stats));
  console.log(`generated ${mb(stats.bytes)} in ${stats.files} files in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return stats;
}

/** Processes (other than this one) whose environment holds `marker`: left behind by a run that exited. */
function processesWith(marker: string): string[] {
  if (process.platform !== "linux") return [];
  const found: string[] = [];
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      if (!fs.readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(marker)) continue;
      found.push(`${pid} ${fs.readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ").trim()}`);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Processes with `marker` that are still there a second after the run exited (a helper may take a moment to see its parent gone). */
function stillThere(marker: string): string[] {
  const until = performance.now() + 1000;
  let found = processesWith(marker);
  while (found.length > 0 && performance.now() < until) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    found = processesWith(marker);
  }
  return found;
}

interface Timed {
  readonly ms: number[];
  readonly left: string[];
  readonly last: SpawnSyncReturns<string>;
}

let runNumber = 0;
/** Runs `command` `runs` times (plus one not counted, to warm the page cache); wall time of each. */
function time(command: string, args: readonly string[], marked: boolean): Timed {
  const ms: number[] = [];
  const left: string[] = [];
  let last: SpawnSyncReturns<string> | undefined;
  for (let i = 0; i <= runs; i++) {
    const marker = `${Marker}=${process.pid}-${++runNumber}`;
    const env = marked ? { ...process.env, [Marker]: marker.slice(Marker.length + 1) } : process.env;
    const t = performance.now();
    const child = spawnSync(command, args, { env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
    const wall = performance.now() - t;
    if (child.error !== undefined) throw child.error;
    if (child.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
    if (i > 0) ms.push(wall);
    if (marked) left.push(...stillThere(marker));
    last = child;
  }
  return { ms, left, last: last! };
}

const median = (ms: readonly number[]): number => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;
const describe = (t: Timed): string => {
  const sorted = [...t.ms].sort((a, b) => a - b);
  return `median ${median(t.ms).toFixed(0)} ms (min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)}, ${t.ms.length} runs)`;
};

if (values.baton === undefined) {
  const state = cliBundleState(repoRoot);
  if (!state.fresh) {
    console.log(`${state.why}: building it (npm run build:cli)`);
    const built = spawnSync(process.execPath, ["--import", "tsx", path.join(repoRoot, "scripts", "buildCli.ts")], { encoding: "utf8", cwd: repoRoot });
    if (built.status !== 0) throw new Error(`build:cli failed: ${built.stderr}`);
  }
}
const rg = spawnSync("rg", ["--version"], { encoding: "utf8" });
if (rg.status !== 0) throw new Error("rg (ripgrep) is not on PATH: it is measured beside baton (.ci/run installs it)");

const stats = archive();
console.log(`archive (scale ${scale}): ${stats.sessions} sessions, ${stats.subagents} subagents, ${stats.files} files, ${mb(stats.bytes)}`);
const word = values.word ?? stats.sampleTerms.rare[0]!;
const baton = (...args: string[]): string[] => [bin, ...args];
const storeArgs = ["--projects-dir", projectsDir, "--db", dbPath];

if (!fs.existsSync(dbPath)) {
  fs.mkdirSync(path.dirname(dbPath), { recursive: true });
  const t = performance.now();
  const indexed = spawnSync(process.execPath, baton("index", ...storeArgs), { encoding: "utf8" });
  if (indexed.status !== 0) throw new Error(`baton index failed: ${indexed.stderr}`);
  console.log(`indexed once in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
console.log(`baton: ${path.relative(repoRoot, bin) || bin}; word ${JSON.stringify(word)}; load ${load()} (${os.availableParallelism()} cores)`);

const version = time(process.execPath, baton("--version"), true);
console.log(`baton --version: ${describe(version)} (target <= 100 ms); load ${load()}`);
const search = time(process.execPath, baton("search", word, ...storeArgs, "--json"), true);
const hits = (JSON.parse(search.last.stdout) as unknown[]).length;
console.log(`baton search ${word}: ${describe(search)} (target <= 150 ms), ${hits} hits (limit 20); load ${load()}`);
const grep = time("rg", [word, projectsDir], false);
console.log(`rg ${word}: ${describe(grep)}, ${grep.last.stdout.split("\n").filter((l) => l !== "").length} matching lines; load ${load()}`);
const left = [...version.left, ...search.left];
console.log(left.length === 0 ? `left behind: none (${2 * (runs + 1)} baton runs checked)` : `LEFT BEHIND: ${left.length} process(es):\n  ${left.join("\n  ")}`);

console.log(tableRow(`\`baton --version\`, median of ${runs}`, `${median(version.ms).toFixed(0)} ms`, "≤ 100 ms"));
console.log(tableRow(`\`baton search\` (scale ${scale}, ${mb(stats.bytes)}), median of ${runs}`, `${median(search.ms).toFixed(0)} ms (rg ${median(grep.ms).toFixed(0)} ms)`, "≤ 150 ms"));
if (left.length > 0) process.exitCode = 1;

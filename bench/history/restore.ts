// Restore benchmark: `node --import tsx bench/history/restore.ts [--scale 1] [--dir D] [--fresh] [--runs 3]`.
// Generates (once per scale; not committed) the big session of the history benchmark — at scale 1
// 100 MB, 35,000 lines, 400 subagents — then measures, each in a fresh process so peak RSS belongs
// to that measurement alone: time to first screen (newest 50 blocks), the full restore, and the
// first screen followed by the background full restore (what the app does when a tab opens).
// Targets: first screen <= 200 ms; peak RSS of the full restore <= 2x the file.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { restoreFirstScreen } from "../../src/main/history/firstScreen.js";
import { restoreSession } from "../../src/main/history/restore.js";
import { countSubagentUsage } from "../../src/main/history/subagentUsage.js";
import { generateArchive } from "./generateArchive.js";
import { tableRow } from "../tableRow.js";

const { values } = parseArgs({
  options: {
    scale: { type: "string", default: "1" },
    dir: { type: "string" },
    fresh: { type: "boolean" },
    runs: { type: "string", default: "3" },
    measure: { type: "string" },
    blocks: { type: "string", default: "50" },
    file: { type: "string" },
  },
});

const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(1)} MB`;
const ms = (t: number): string => `${t.toFixed(0)} ms`;

interface Measurement {
  readonly firstMs?: number;
  readonly firstBlocks?: number;
  readonly firstAgents?: number;
  readonly fullMs?: number;
  readonly fullBlocks?: number;
  /** Longest time the event loop was held during the background restore (and the usage pass). */
  readonly maxStallMs?: number;
  /** The usage pass after the full restore: every subagent file read for its calls' usage (token shares). */
  readonly usageMs?: number;
  readonly cpuMs: number;
  readonly baseRss: number;
  readonly maxRss: number;
}

/** One measurement in this process; prints JSON for the parent. */
async function measure(kind: string, file: string): Promise<void> {
  const baseRss = process.memoryUsage().rss;
  const out: { -readonly [K in keyof Measurement]: Measurement[K] } = { baseRss, maxRss: 0, cpuMs: 0 };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  if (kind === "first" || kind === "both") {
    const first = await restoreFirstScreen(file, { minBlocks: Number(values.blocks) });
    out.firstMs = performance.now() - t0;
    out.firstBlocks = first.blockCount;
    out.firstAgents = first.transcript.blocks.filter((b) => b.call?.subagent !== undefined).length;
    if (kind === "both") {
      // What the app does when a tab opens: the first screen, then the full restore behind it,
      // while a 1 ms timer shows how long the event loop is held at a time.
      let last = performance.now();
      let stall = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        stall = Math.max(stall, now - last);
        last = now;
      }, 1);
      const full = await restoreSession(file);
      out.fullMs = performance.now() - t0;
      out.fullBlocks = full.transcript.blocks.length;
      // Then the cards' token shares: each subagent's file read for its calls' usage.
      const t1 = performance.now();
      await countSubagentUsage(full.session, new AbortController().signal);
      out.usageMs = performance.now() - t1;
      clearInterval(timer);
      out.maxStallMs = stall;
    }
  } else {
    const full = await restoreSession(file);
    out.fullMs = performance.now() - t0;
    out.fullBlocks = full.transcript.blocks.length;
  }
  const cpu = process.cpuUsage(cpu0);
  out.cpuMs = (cpu.user + cpu.system) / 1000;
  out.maxRss = peakRss();
  console.log(JSON.stringify(out));
}

/**
 * This process's peak RSS, in bytes. Linux keeps `ru_maxrss` across exec, so a measurement spawned
 * by a big process (the history bench after indexing) would report the parent's size at fork;
 * VmHWM belongs to the address space the exec created.
 */
function peakRss(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync("/proc/self/status", "utf8"));
    if (m !== null) return Number(m[1]) * 1024;
  } catch {
    // Not Linux: fall back to getrusage.
  }
  return process.resourceUsage().maxRSS * 1024;
}

function run(kind: string, file: string, blocks = 50): Measurement {
  const script = fileURLToPath(import.meta.url);
  const args = [...process.execArgv, script, "--measure", kind, "--file", file, "--blocks", String(blocks)];
  const child = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`measurement ${kind} failed: ${child.stderr}`);
  const last = child.stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(last) as Measurement;
}

function bigSession(): string {
  const scale = Number(values.scale);
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const dataDir = values.dir ?? path.join(repoRoot, "bench", ".data", `restore-${scale}`);
  const marker = path.join(dataDir, "session.json");
  if (values.fresh !== true && fs.existsSync(marker)) return (JSON.parse(fs.readFileSync(marker, "utf8")) as { path: string }).path;
  fs.rmSync(dataDir, { recursive: true, force: true });
  const t = performance.now();
  // One session: the archive generator's big session (the same one `bench/history/run.ts` makes).
  const stats = generateArchive(path.join(dataDir, "projects"), {
    sessions: 1,
    totalBytes: 100e6 * scale,
    big: { bytes: 100e6 * scale, lines: Math.max(50, Math.round(35_000 * scale)), subagents: Math.max(1, Math.round(400 * scale)) },
  });
  fs.writeFileSync(marker, JSON.stringify({ path: stats.bigSessionPath }));
  console.log(`generated ${mb(stats.bytes)} in ${stats.files} files in ${ms(performance.now() - t)}`);
  return stats.bigSessionPath;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

async function main(): Promise<void> {
  if (values.measure !== undefined && values.file !== undefined) return measure(values.measure, values.file);
  const file = bigSession();
  const size = fs.statSync(file).size;
  const lines = fs.readFileSync(file, "utf8").split("\n").length - 1;
  const subagents = fs.readdirSync(path.join(path.dirname(file), path.basename(file, ".jsonl"), "subagents")).filter((n) => n.endsWith(".jsonl")).length;
  console.log(`session: ${mb(size)}, ${lines} lines, ${subagents} subagents`);
  const runs = Math.max(1, Number(values.runs));
  const firsts = Array.from({ length: runs }, () => run("first", file));
  const wide = Array.from({ length: runs }, () => run("first", file, 500));
  const fulls = Array.from({ length: runs }, () => run("full", file));
  const both = Array.from({ length: runs }, () => run("both", file));
  const rssNote = (m: readonly Measurement[]): string => {
    const peak = Math.max(...m.map((x) => x.maxRss));
    return `peak RSS ${mb(peak)} = ${(peak / size).toFixed(2)}x file (process at start ${mb(median(m.map((x) => x.baseRss)))})`;
  };
  console.log(
    `first screen: median ${ms(median(firsts.map((m) => m.firstMs!)))} (target <= 200 ms), ` +
      `${firsts[0]!.firstBlocks} blocks (${firsts[0]!.firstAgents} subagent cards); runs ${firsts.map((m) => ms(m.firstMs!)).join(", ")}; ${rssNote(firsts)}`,
  );
  console.log(
    `first screen of >= 500 blocks: median ${ms(median(wide.map((m) => m.firstMs!)))}, ${wide[0]!.firstBlocks} blocks ` +
      `(${wide[0]!.firstAgents} subagent cards); ${rssNote(wide)}`,
  );
  console.log(
    `full restore (restoreSession): median ${ms(median(fulls.map((m) => m.fullMs!)))}, ${fulls[0]!.fullBlocks} blocks; ` +
      `runs ${fulls.map((m) => ms(m.fullMs!)).join(", ")}; CPU ${ms(median(fulls.map((m) => m.cpuMs)))}; ${rssNote(fulls)} (target <= 2x)`,
  );
  console.log(
    `first screen then background full restore: first ${ms(median(both.map((m) => m.firstMs!)))}, ` +
      `complete ${ms(median(both.map((m) => m.fullMs!)))}, subagents' usage counted in ${ms(median(both.map((m) => m.usageMs!)))} more, ` +
      `event loop held at most ${ms(Math.max(...both.map((m) => m.maxStallMs!)))} at a time; ${rssNote(both)}`,
  );
  console.log(tableRow(`first screen of a ${mb(size)} session, median of ${runs}`, ms(median(firsts.map((m) => m.firstMs!))), "≤ 200 ms"));
}

await main();

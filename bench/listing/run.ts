// Listing benchmark: `npm run bench:listing [-- --runs 5 --parallel 10 --huge-mb 60 --sessions 20]`.
// Builds a history folder (bench/listing/folder.ts: ordinary sessions plus two holding a 60 MB
// line, their lines shaped and ordered as the CLI writes them) and measures, each in a fresh
// process:
//   * the cold list (no index), once per run, beside ccusage's native build over the same folder
//     (`ccusage claude session --json --offline`, a process of its own), runs interleaved: wall
//     time and peak RSS, medians. Target: Baton's list at most half ccusage's wall time, in less
//     memory. Baton's time is the listing's (the app and `baton sessions` have their code loaded);
//     ccusage's is its whole process, a native binary that starts in a few milliseconds.
//   * the warm list (the index open in its worker and up to date, as in the app). Target ≤ 100 ms.
//   * `parallel` cold listings at once: the peak RSS above the process's start stays far below
//     one huge line.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { findCcusage, runCcusage, type CcusageRun } from "./ccusage.js";
import { makeListingFolder } from "./folder.js";
import { tableRow } from "../tableRow.js";

export interface ListingMeasurement {
  readonly baseKb: number;
  readonly peakKb: number;
  readonly ms: number;
  readonly sessions: number;
}

/** Lists `projectsDir` `parallel` times at once in a fresh process. */
export function measureListing(projectsDir: string, parallel: number): ListingMeasurement {
  return measure([projectsDir, String(parallel)]);
}

/** Lists `projectsDir` through the app's history source with its index at `dbPath`, in a fresh process. */
export function measureWarmListing(projectsDir: string, dbPath: string): ListingMeasurement {
  return measure([projectsDir, "warm", dbPath]);
}

function measure(args: readonly string[]): ListingMeasurement {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "measure.ts");
  const child = spawnSync(process.execPath, ["--import", "tsx", script, ...args], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`measure.ts failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "") as ListingMeasurement;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mb = (kb: number): string => `${(kb / 1024).toFixed(1)} MB`;
const ms = (x: number): string => `${x.toFixed(1)} ms`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "5" },
      parallel: { type: "string", default: "10" },
      "huge-mb": { type: "string", default: "60" },
      sessions: { type: "string", default: "20" },
      // An archive already on disk (e.g. bench:history's bench/.data/history-1/projects) instead of the generated one.
      "projects-dir": { type: "string" },
    },
  });
  const runs = Math.max(1, Math.floor(Number(values.runs)));
  const parallel = Number(values.parallel);
  const hugeMb = Number(values["huge-mb"]);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "baton-bench-listing-"));
  try {
    const given = values["projects-dir"];
    const folder = given !== undefined ? { projectsDir: path.resolve(given) } : makeListingFolder(root, { sessions: Number(values.sessions), hugeMb });
    const home = path.join(root, "home");
    fs.mkdirSync(home);
    const what = given !== undefined ? folder.projectsDir : `${values.sessions} sessions + 2 with a ${hugeMb} MB line`;
    console.log(`${what} (${mb(du(folder.projectsDir) / 1024)}); load ${os.loadavg()[0]!.toFixed(2)} at the start`);

    const ccusage = await findCcusage();
    const version = "version" in ccusage ? ccusage.version : "(not measured)";
    if ("missing" in ccusage) console.log(`ccusage: not measured: ${ccusage.missing}`);
    const cold: ListingMeasurement[] = [];
    const theirs: CcusageRun[] = [];
    for (let run = 1; run <= runs; run++) {
      const m = measureListing(folder.projectsDir, 1);
      cold.push(m);
      const c = "bin" in ccusage ? runCcusage(ccusage.bin, path.dirname(folder.projectsDir), home) : undefined;
      if (c !== undefined) theirs.push(c);
      console.log(`run ${run}: Baton cold list ${ms(m.ms)}, ${m.sessions} sessions, peak RSS ${mb(m.peakKb)}` + (c !== undefined ? `; ccusage ${ms(c.ms)}, ${c.sessions} sessions, peak RSS ${c.peakKb === undefined ? "n/a" : mb(c.peakKb)}` : ""));
    }
    const warm = measureWarmListing(folder.projectsDir, path.join(root, "index", "history.db"));
    console.log(`warm list (index up to date): ${ms(warm.ms)}, ${warm.sessions} sessions`);
    let highestKb = 0;
    for (let run = 1; run <= runs; run++) {
      const m = measureListing(folder.projectsDir, parallel);
      highestKb = Math.max(highestKb, m.peakKb - m.baseKb);
      console.log(`${parallel} at once, run ${run}: ${ms(m.ms)}, peak RSS ${mb(m.peakKb)} (${mb(m.peakKb - m.baseKb)} above the start)`);
    }

    const baton = median(cold.map((m) => m.ms));
    const batonKb = median(cold.map((m) => m.peakKb));
    console.log("");
    console.log(`| figure | Baton | ccusage ${version} native | ratio |`);
    console.log("|---|---|---|---|");
    if (theirs.length > 0) {
      const their = median(theirs.map((c) => c.ms));
      const theirKb = theirs.some((c) => c.peakKb === undefined) ? undefined : median(theirs.map((c) => c.peakKb!));
      console.log(`| cold list, wall, median of ${runs} | ${ms(baton)} | ${ms(their)} | ${(baton / their).toFixed(2)}× |`);
      console.log(`| peak RSS, median of ${runs} | ${mb(batonKb)} | ${theirKb === undefined ? "n/a" : mb(theirKb)} | ${theirKb === undefined ? "" : `${(batonKb / theirKb).toFixed(2)}×`} |`);
      console.log("");
      console.log(tableRow(`cold list / ccusage ${version} native, wall (median of ${runs}: ${ms(baton)} / ${ms(their)})`, `${(baton / their).toFixed(2)}×`, "≤ 0.5×"));
      if (theirKb !== undefined) console.log(tableRow(`cold list / ccusage, peak RSS (${mb(batonKb)} / ${mb(theirKb)})`, `${(batonKb / theirKb).toFixed(2)}×`, "< 1×"));
    } else {
      console.log(`| cold list, wall, median of ${runs} | ${ms(baton)} | not measured | |`);
      console.log("");
      console.log(tableRow(`cold list, wall (median of ${runs}); ccusage not measured here`, ms(baton), "≤ 0.5× ccusage's native build"));
    }
    console.log(tableRow("warm list (index present), wall", ms(warm.ms), "≤ 100 ms"));
    console.log(tableRow(`peak RSS above the start, ${parallel} listings at once (highest of ${runs} runs)`, mb(highestKb), `far below one ${hugeMb} MB line`));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Bytes of the files under `dir`. */
function du(dir: string): number {
  let bytes = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) bytes += fs.statSync(path.join(e.parentPath, e.name)).size;
  return bytes;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();

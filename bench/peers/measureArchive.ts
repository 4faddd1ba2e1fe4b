// Baton and every peer over one archive, in one run: each measurement in a fresh process, the
// list runs interleaved (Baton, ccusage native, ccusage JS, claude-code-ui) so a burst of other
// load on this shared machine lands on all of them, medians of `runs`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildQueries } from "../history/queries.js";
import type { PeerArchive } from "./archive.js";
import type { BatonBundle } from "./batonBundle.js";
import { ccusageEnv, ccusageSessions, type PeerCommand } from "./ccusage.js";
import { readFirstPage, readProjects, type ClaudeCodeUi } from "./claudeCodeUi.js";
import { cloudCliSearch, rgArgumentLists, sessionFiles, cloudCliWords } from "./cloudCliSearch.js";
import { mb, ms, type ArchiveFigures, type Sample } from "./report.js";
import { lastJson, parseTimeOutput, runTimed } from "./timed.js";
import { median, percentile } from "./verdict.js";

export interface PeerSetup {
  readonly baton: BatonBundle;
  readonly ccusageNative: PeerCommand & { readonly label: string };
  readonly ccusageJs: PeerCommand & { readonly label: string };
  readonly claudeCodeUi: ClaudeCodeUi & { readonly label: string };
  readonly rg: { readonly bin: string; readonly label: string };
  /** An empty folder: ccusage's HOME, the query file. */
  readonly scratch: string;
  /** Where Baton's index of this archive is kept between runs (indexing 2 GB takes a while). */
  readonly dbPath: string;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** bench/listing/measure.ts's report; its peak is taken from GNU time here like every other process's. */
interface ListingReport {
  readonly ms: number;
  readonly sessions: number;
}

interface Listed {
  readonly ms: number;
  readonly peakKb: number | undefined;
  readonly sessions: number;
}

/** Baton's list in a fresh process: cold (`1`: one listing, no index) or warm (`warm <db>`). */
function batonList(peers: PeerSetup, projectsDir: string, args: readonly string[]): Listed {
  const run = runTimed(process.execPath, [peers.baton.listing, projectsDir, ...args], { env: process.env, cwd: repoRoot });
  const report = lastJson<ListingReport>(run.stdout, "bench/listing/measure.ts");
  return { ms: report.ms, peakKb: run.peakKb, sessions: report.sessions };
}

/** One peer's samples over the runs; once it fails it is left out of later runs, its reason kept. */
interface PeerRuns<T extends Sample> {
  readonly label: string;
  readonly samples: T[];
  failed?: string;
}

const peerRuns = <T extends Sample>(label: string): PeerRuns<T> => ({ label, samples: [] });

/**
 * A peer's measurement, or undefined when it failed (a crash, running out of memory over the 8 GB
 * twin): said once and kept for the report, not thrown, so one peer cannot lose the minutes of
 * figures the others took. Baton's own measurements are not wrapped: its failure ends the run.
 */
function attempt<T extends Sample>(peer: PeerRuns<T>, measure: () => T): T | undefined {
  if (peer.failed !== undefined) return undefined;
  try {
    const sample = measure();
    peer.samples.push(sample);
    return sample;
  } catch (error) {
    peer.failed = String(error instanceof Error ? error.message : error).split("\n")[0]!.slice(0, 300);
    console.log(`${peer.label}: FAILED, left out of this archive's figures: ${peer.failed}`);
    return undefined;
  }
}

interface Scan extends Sample {
  /** What it listed: `200 sessions`, `5 projects, 25 sessions on their first pages`. */
  readonly what: string;
}

export async function measureArchive(archive: PeerArchive, peers: PeerSetup, runs: number): Promise<ArchiveFigures> {
  const configDir = path.dirname(archive.projectsDir);
  const ccusage = (c: PeerCommand): Scan => {
    const r = runTimed(c.command, c.args, { env: ccusageEnv(configDir, peers.scratch), cwd: peers.scratch });
    return { ms: r.ms, peakKb: r.peakKb, what: `${ccusageSessions(r.stdout)} sessions` };
  };
  const cold: Listed[] = [];
  const scans = [peerRuns<Scan>(peers.ccusageNative.label), peerRuns<Scan>(peers.ccusageJs.label), peerRuns<Scan>(`${peers.claudeCodeUi.label} getProjects()`)] as const;
  const [native, js, ui] = scans;
  for (let run = 1; run <= runs; run++) {
    const b = batonList(peers, archive.projectsDir, ["1"]);
    cold.push(b);
    const n = attempt(native, () => ccusage(peers.ccusageNative));
    const j = attempt(js, () => ccusage(peers.ccusageJs));
    const u = attempt(ui, () => {
      const r = readProjects(peers.claudeCodeUi);
      return { ms: r.ms, peakKb: r.process.peakKb, what: `process ${ms(r.process.ms)}; ${r.report.projects} projects, ${r.report.sessionsShown} sessions on their first pages` };
    });
    const said = (label: string, s: Scan | undefined): string => (s === undefined ? `${label} left out` : `${label} ${ms(s.ms)} (${s.what}, ${mb(s.peakKb)})`);
    console.log(`run ${run}: Baton cold list ${ms(b.ms)} (${b.sessions} sessions, ${mb(b.peakKb)}); ${said(native.label, n)}; ${said(js.label, j)}; ${said(ui.label, u)}`);
  }
  const warm = warmList(archive, peers, runs);
  const firstScreen = firstScreens(archive, peers, runs);
  const search = archive.stats === undefined ? undefined : await searches(archive, peers);
  if (search === undefined) console.log("search: not measured (no archive.json beside the folder, so no sample words to ask for)");
  const files = archive.stats;
  return {
    archive: files === undefined ? archive.label : `${archive.label}: ${files.sessions} sessions, ${files.subagents} subagents, ${(files.bytes / 1024 / 1024).toFixed(1)} MB`,
    runs,
    coldList: medians(cold),
    warmList: warm,
    // A peer that failed in a later run still has its earlier samples; its failure is reported beside them.
    peerScans: scans.filter((p) => p.samples.length > 0).map((p) => ({ label: p.label, ...medians(p.samples) })),
    failed: [...scans, firstScreen.peer].flatMap((p) => (p.failed !== undefined ? [`${p.label}: ${p.failed}`] : [])),
    ...(search !== undefined ? { search } : {}),
    firstScreen: firstScreen.figures,
  };
}

function medians(xs: readonly { readonly ms: number; readonly peakKb: number | undefined }[]): Sample {
  const peaks = xs.map((x) => x.peakKb);
  return { ms: median(xs.map((x) => x.ms)), peakKb: peaks.some((k) => k === undefined) ? undefined : median(peaks as number[]) };
}

/** The first run brings the index up to date (a cold index of the whole archive the first time; not timed). */
function warmList(archive: PeerArchive, peers: PeerSetup, runs: number): Sample {
  const t0 = performance.now();
  fs.mkdirSync(path.dirname(peers.dbPath), { recursive: true });
  const first = batonList(peers, archive.projectsDir, ["warm", peers.dbPath]);
  console.log(`index at ${peers.dbPath} brought up to date in ${ms(performance.now() - t0)} (not timed); warm list ${ms(first.ms)}`);
  const warm = Array.from({ length: runs }, () => batonList(peers, archive.projectsDir, ["warm", peers.dbPath]));
  console.log(`warm list: ${warm.map((m) => ms(m.ms)).join(", ")} (${warm[0]!.sessions} sessions)`);
  return medians(warm);
}

interface RestoreReport {
  readonly firstMs: number;
  readonly firstBlocks: number;
}

/** Baton's first screen (bench:restore's own measurement) and claude-code-ui's first page, interleaved. */
function firstScreens(archive: PeerArchive, peers: PeerSetup, runs: number): { figures: ArchiveFigures["firstScreen"]; peer: PeerRuns<Scan> } {
  const baton: (Sample & { blocks: number })[] = [];
  const theirs = peerRuns<Scan>(`${peers.claudeCodeUi.label} getSessionMessages()`);
  let messages = 0;
  for (let run = 1; run <= runs; run++) {
    const b = runTimed(process.execPath, [peers.baton.restore, "--measure", "first", "--file", archive.bigSession], { env: process.env, cwd: repoRoot });
    const r = lastJson<RestoreReport>(b.stdout, "bench/history/restore.ts --measure first");
    baton.push({ ms: r.firstMs, peakKb: b.peakKb, blocks: r.firstBlocks });
    const t = attempt(theirs, () => {
      const page = readFirstPage(peers.claudeCodeUi, archive.bigSession);
      messages = page.report.messages;
      return { ms: page.ms, peakKb: page.process.peakKb, what: `${page.report.messages} of ${page.report.total} messages` };
    });
    console.log(`first screen, run ${run}: Baton ${ms(r.firstMs)} (${r.firstBlocks} blocks, ${mb(b.peakKb)}); ` + (t === undefined ? `${theirs.label} left out` : `${theirs.label} ${ms(t.ms)} (${t.what}, ${mb(t.peakKb)})`));
  }
  const measured = theirs.samples.length > 0 ? { peer: { label: theirs.label, ...medians(theirs.samples) }, peerMessages: messages } : {};
  return { figures: { baton: medians(baton), batonBlocks: baton[0]!.blocks, ...measured }, peer: theirs };
}

/** bench:history's 50 queries through Baton's index, then each as CloudCLI searches with rg. */
async function searches(archive: PeerArchive, peers: PeerSetup): Promise<NonNullable<ArchiveFigures["search"]>> {
  const queries = buildQueries(archive.stats!).map((q) => q.q);
  const queryFile = path.join(peers.scratch, "queries.json");
  fs.writeFileSync(queryFile, JSON.stringify(queries));
  const b = runTimed(process.execPath, [peers.baton.search, peers.dbPath, queryFile], { env: process.env, cwd: repoRoot });
  const baton = lastJson<{ ms: number[]; hits: number }>(b.stdout, "batonSearch.ts");
  console.log(`Baton search: ${queries.length} queries, ${baton.hits} hits (limit 20 each), p50 ${ms(percentile(baton.ms, 50))}, p95 ${ms(percentile(baton.ms, 95))}, peak RSS ${mb(b.peakKb)}`);
  const files = sessionFiles(archive.projectsDir);
  const rgMs: number[] = [];
  let matched = 0;
  let processes = 0;
  for (const q of queries) {
    const r = await cloudCliSearch(peers.rg.bin, q, files);
    rgMs.push(r.ms);
    matched += r.files;
    processes += r.processes;
  }
  console.log(`${peers.rg.label}: ${queries.length} searches over ${files.length} session files, ${processes} rg processes, ${matched} files matched; p50 ${ms(percentile(rgMs, 50))}, p95 ${ms(percentile(rgMs, 95))}`);
  return {
    queries: queries.length,
    batonP50: percentile(baton.ms, 50),
    batonP95: percentile(baton.ms, 95),
    batonPeakKb: b.peakKb,
    rgLabel: peers.rg.label,
    rgP50: percentile(rgMs, 50),
    rgP95: percentile(rgMs, 95),
    rgPeakKb: rgPeak(peers.rg.bin, queries[0]!, files),
  };
}

/** One rg process of the first query's pass (its first 40 files), under GNU time, not timed. */
function rgPeak(rg: string, query: string, files: readonly string[]): number | undefined {
  const args = rgArgumentLists(cloudCliWords(query)[0]!, files)[0]!;
  const child = spawnSync("/usr/bin/time", ["-f", "%M", rg, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (child.error !== undefined || (child.status !== 0 && child.status !== 1)) return undefined;
  return parseTimeOutput(child.stderr);
}

// What bench:peers prints for one archive, from its measured figures: the side-by-side table, the
// targets with PASS/FAIL, and the rows for docs/benchmarks.md. Pure (the figures in, lines out),
// so a unit test holds which figure each target compares.
import { fastest, passFail, verdict, type Target, type Verdict } from "./verdict.js";

/** One figure's medians over the runs: wall time and peak RSS. */
export interface Sample {
  readonly ms: number;
  readonly peakKb: number | undefined;
}

export interface NamedSample extends Sample {
  /** `ccusage 20.0.24 native`, … */
  readonly label: string;
}

export interface ArchiveFigures {
  /** `2.1.197 lines, 2,000 sessions, 2,023.5 MB`: what the rows say they were measured over. */
  readonly archive: string;
  readonly runs: number;
  /** Baton's list without an index (each file's ends), in a fresh process. */
  readonly coldList: Sample;
  /** Baton's list with its index up to date. */
  readonly warmList: Sample;
  /** Each peer's full scan: ccusage's two builds (whole process) and claude-code-ui's getProjects(). */
  readonly peerScans: readonly NamedSample[];
  readonly search?: {
    readonly queries: number;
    readonly batonP50: number;
    readonly batonP95: number;
    readonly batonPeakKb: number | undefined;
    /** `rg 13.0.0 as CloudCLI runs it` */
    readonly rgLabel: string;
    readonly rgP50: number;
    readonly rgP95: number;
    /** One rg process's peak (CloudCLI runs six at a time). */
    readonly rgPeakKb: number | undefined;
  };
  /** claude-code-ui's first page beside Baton's first screen; absent when its reader failed. */
  readonly firstScreen: { readonly baton: Sample; readonly batonBlocks: number; readonly peer?: NamedSample; readonly peerMessages?: number };
  /** `<peer>: <why>` for each peer that failed: left out of the figures above, said beside them. */
  readonly failed: readonly string[];
}

export interface TargetRow {
  readonly figure: string;
  readonly baton: string;
  readonly peer: string;
  readonly verdict: Verdict;
}

const ColdTarget: Target = { kind: "atMost", ratio: 0.5 };
const WarmTarget: Target = { kind: "fasterBy", factor: 20 };
const SearchTarget: Target = { kind: "fasterBy", factor: 20 };
const MemoryTarget: Target = { kind: "less" };

export const ms = (x: number): string => (x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : x >= 100 ? `${x.toFixed(0)} ms` : `${x.toFixed(1)} ms`);
export const mb = (kb: number | undefined): string => (kb === undefined ? "n/a" : `${(kb / 1024).toFixed(1)} MB`);

/** Each target the issue sets, compared and judged. Memory rows only where both peaks were measured. */
export function targetRows(f: ArchiveFigures): TargetRow[] {
  const rows: TargetRow[] = [];
  const best = fastest(f.peerScans.map((p) => ({ ...p, value: p.ms })));
  if (best !== undefined) {
    rows.push({ figure: "session list, cold (file ends, no index) / the fastest peer's full scan", baton: ms(f.coldList.ms), peer: `${best.label} ${ms(best.ms)}`, verdict: verdict(ColdTarget, f.coldList.ms, best.ms) });
    rows.push({ figure: "session list, warm (index present) / the fastest peer's full scan", baton: ms(f.warmList.ms), peer: `${best.label} ${ms(best.ms)}`, verdict: verdict(WarmTarget, f.warmList.ms, best.ms) });
  }
  if (f.search !== undefined) {
    const s = f.search;
    rows.push({ figure: `search p50 (${s.queries} queries) / ${s.rgLabel}`, baton: ms(s.batonP50), peer: ms(s.rgP50), verdict: verdict(SearchTarget, s.batonP50, s.rgP50) });
    rows.push({ figure: `search p95 (${s.queries} queries) / ${s.rgLabel}`, baton: ms(s.batonP95), peer: ms(s.rgP95), verdict: verdict(SearchTarget, s.batonP95, s.rgP95) });
  }
  for (const p of f.peerScans) memoryRow(rows, `peak RSS, session list cold / ${p.label}'s full scan`, f.coldList.peakKb, p);
  if (f.firstScreen.peer !== undefined) memoryRow(rows, `peak RSS, first screen of the big session / ${f.firstScreen.peer.label}`, f.firstScreen.baton.peakKb, f.firstScreen.peer);
  if (f.search !== undefined) memoryRow(rows, `peak RSS, search / one ${f.search.rgLabel} process`, f.search.batonPeakKb, { label: f.search.rgLabel, ms: 0, peakKb: f.search.rgPeakKb });
  return rows;
}

function memoryRow(rows: TargetRow[], figure: string, batonKb: number | undefined, peer: NamedSample): void {
  if (batonKb === undefined || peer.peakKb === undefined) return;
  rows.push({ figure, baton: mb(batonKb), peer: mb(peer.peakKb), verdict: verdict(MemoryTarget, batonKb, peer.peakKb) });
}

/** The side-by-side table: one row per figure, Baton first, each peer's figure with Baton's ratio to it. */
export function sideBySide(f: ArchiveFigures): string[] {
  const peers = f.peerScans.map((p) => p.label);
  const lines = [`| ${f.archive} | Baton | ${peers.join(" | ")} |`, `|---|---|${peers.map(() => "---|").join("")}`];
  const ratio = (baton: number, peer: number): string => `${ms(peer)} (Baton ${(baton / peer).toFixed(2)}×)`;
  lines.push(`| session list, cold, median of ${f.runs} | ${ms(f.coldList.ms)} | ${f.peerScans.map((p) => ratio(f.coldList.ms, p.ms)).join(" | ")} |`);
  lines.push(`| session list, warm, median of ${f.runs} | ${ms(f.warmList.ms)} | ${f.peerScans.map((p) => ratio(f.warmList.ms, p.ms)).join(" | ")} |`);
  lines.push(`| peak RSS, session list cold | ${mb(f.coldList.peakKb)} | ${f.peerScans.map((p) => mb(p.peakKb)).join(" | ")} |`);
  const fs = f.firstScreen;
  lines.push("");
  lines.push(`| first screen of the big session, median of ${f.runs} | Baton (${fs.batonBlocks} blocks) | ${fs.peer === undefined ? "claude-code-ui: failed" : `${fs.peer.label} (${fs.peerMessages} messages)`} |`);
  lines.push("|---|---|---|");
  lines.push(`| wall | ${ms(fs.baton.ms)} | ${fs.peer === undefined ? "—" : ratio(fs.baton.ms, fs.peer.ms)} |`);
  lines.push(`| peak RSS | ${mb(fs.baton.peakKb)} | ${mb(fs.peer?.peakKb)} |`);
  if (f.search !== undefined) {
    const s = f.search;
    lines.push("");
    lines.push(`| search, ${s.queries} queries, each once | Baton (index, limit 20) | ${s.rgLabel} |`);
    lines.push("|---|---|---|");
    lines.push(`| p50 | ${ms(s.batonP50)} | ${ratio(s.batonP50, s.rgP50)} |`);
    lines.push(`| p95 | ${ms(s.batonP95)} | ${ratio(s.batonP95, s.rgP95)} |`);
    lines.push(`| peak RSS | ${mb(s.batonPeakKb)} | ${mb(s.rgPeakKb)} per process, six at a time |`);
  }
  for (const failure of f.failed) lines.push(`FAILED, left out: ${failure}`);
  return lines;
}

/** Figures printed beside the targets for docs/benchmarks.md with no target of their own: the first screen's time. */
export function reportedRows(f: ArchiveFigures): { readonly figure: string; readonly value: string }[] {
  const fs = f.firstScreen;
  if (fs.peer === undefined) return [];
  return [{ figure: `first screen of the big session (${fs.batonBlocks} blocks) / ${fs.peer.label}'s first page (${fs.peerMessages} messages)`, value: `${ms(fs.baton.ms)} vs ${ms(fs.peer.ms)}: ${(fs.baton.ms / fs.peer.ms).toFixed(2)}×` }];
}

/** `figure: Baton vs peer → ratio (target) PASS`, one line per target. */
export function verdictLines(rows: readonly TargetRow[]): string[] {
  return rows.map((r) => `${passFail(r.verdict)}  ${r.figure}: ${r.baton} vs ${r.peer} → ${r.verdict.shown} (target ${r.verdict.target})`);
}

// Speed of reading the CLI's stdout: line framing + protocol parsing over 64 KiB chunks (what a
// pipe delivers), against bare JSON.parse of the same lines. Target: at most 1.3× the time of
// "split + JSON.parse". Prints figures; it is not a test.
//
//   node --import tsx bench/parse/run.ts [megabytes]

import { createLineFramer } from "../../src/main/cli/lineFramer.js";
import { parseLine } from "../../src/shared/protocol/parseMessage.js";
import { generateLines } from "./generate.js";
import { tableRow } from "../tableRow.js";

const CHUNK_BYTES = 64 * 1024;
// The stream is timed in segments, each run ROUNDS times with the three methods interleaved, and
// the fastest run of each kept: on a shared machine that filters out bursts of other load.
const SEGMENT_BYTES = 16 * 1024 * 1024;
const ROUNDS = 5;
const TARGET = 1.3;

const megabytes = Number(process.argv[2] ?? 220);

interface Segment {
  readonly chunks: Buffer[];
  readonly lines: string[];
  readonly bytes: number;
}

function toSegment(lines: string[], pieces: Buffer[], bytes: number): Segment {
  const all = Buffer.concat(pieces, bytes);
  const chunks: Buffer[] = [];
  for (let i = 0; i < all.length; i += CHUNK_BYTES) chunks.push(all.subarray(i, i + CHUNK_BYTES));
  return { chunks, lines, bytes };
}

function generate(): Segment[] {
  const segments: Segment[] = [];
  let lines: string[] = [];
  let pieces: Buffer[] = [];
  let bytes = 0;
  for (const line of generateLines(megabytes * 1024 * 1024)) {
    const piece = Buffer.from(line);
    lines.push(line.slice(0, -1));
    pieces.push(piece);
    bytes += piece.length;
    if (bytes >= SEGMENT_BYTES) {
      segments.push(toSegment(lines, pieces, bytes));
      lines = [];
      pieces = [];
      bytes = 0;
    }
  }
  if (bytes > 0) segments.push(toSegment(lines, pieces, bytes));
  return segments;
}

/** Ours: framer over chunks, every line validated and typed. */
function frameAndParse(chunks: readonly Buffer[]): number {
  let count = 0;
  let problems = 0;
  const framer = createLineFramer({
    onLine(text, lineNumber) {
      if (parseLine(text, lineNumber).ok) count++;
      else problems++;
    },
    onProblem: () => problems++,
  });
  for (const chunk of chunks) framer.push(chunk);
  framer.end();
  if (problems > 0) throw new Error(`${problems} lines failed to parse`);
  return count;
}

/** Baseline: the cheapest honest split (indexOf newline, decode) + JSON.parse, no checks. */
function splitAndJsonParse(chunks: readonly Buffer[]): number {
  let count = 0;
  let carry: Buffer | undefined;
  for (const chunk of chunks) {
    const buf: Buffer = carry === undefined ? chunk : Buffer.concat([carry, chunk]);
    let start = 0;
    let nl: number;
    while ((nl = buf.indexOf(10, start)) !== -1) {
      JSON.parse(buf.toString("utf8", start, nl));
      count++;
      start = nl + 1;
    }
    carry = start < buf.length ? buf.subarray(start) : undefined;
  }
  return count;
}

/** Baseline: JSON.parse alone over strings already split and decoded. */
function jsonParseOnly(lines: readonly string[]): number {
  let count = 0;
  for (const line of lines) {
    JSON.parse(line);
    count++;
  }
  return count;
}

function time(fn: () => number): { ms: number; count: number } {
  const start = process.hrtime.bigint();
  const count = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, count };
}

function report(label: string, ms: number, lines: number, bytes: number): void {
  const seconds = ms / 1000;
  const linesPerSecond = Math.round(lines / seconds).toLocaleString("en-US");
  const mbPerSecond = (bytes / 1024 / 1024 / seconds).toFixed(1);
  console.log(`${label.padEnd(34)} ${ms.toFixed(0).padStart(7)} ms  ${linesPerSecond.padStart(11)} lines/s  ${mbPerSecond.padStart(7)} MB/s`);
}

function main(): void {
  const genStart = Date.now();
  const segments = generate();
  const totalBytes = segments.reduce((n, s) => n + s.bytes, 0);
  const totalLines = segments.reduce((n, s) => n + s.lines.length, 0);
  console.log(
    `stream: ${(totalBytes / 1024 / 1024).toFixed(1)} MB, ${totalLines.toLocaleString("en-US")} lines, ` +
      `${segments.length} segments, fed in ${CHUNK_BYTES / 1024} KiB chunks (generated in ${Date.now() - genStart} ms)`,
  );
  const best = { ours: 0, split: 0, bare: 0 };
  const medians = { ours: 0, split: 0, bare: 0 };
  for (const segment of segments) {
    const runs = { ours: [] as number[], split: [] as number[], bare: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      const ours = time(() => frameAndParse(segment.chunks));
      const split = time(() => splitAndJsonParse(segment.chunks));
      const bare = time(() => jsonParseOnly(segment.lines));
      for (const r of [ours, split, bare]) {
        if (r.count !== segment.lines.length) throw new Error(`counted ${r.count} lines, expected ${segment.lines.length}`);
      }
      runs.ours.push(ours.ms);
      runs.split.push(split.ms);
      runs.bare.push(bare.ms);
    }
    for (const key of ["ours", "split", "bare"] as const) {
      const sorted = runs[key].sort((a, b) => a - b);
      best[key] += sorted[0]!;
      medians[key] += sorted[Math.floor(sorted.length / 2)]!;
    }
  }
  console.log(`\nfastest of ${ROUNDS} runs per segment, summed:`);
  report("framer + parseLine (64 KiB chunks)", best.ours, totalLines, totalBytes);
  report("split + JSON.parse (baseline)", best.split, totalLines, totalBytes);
  report("JSON.parse of pre-split strings", best.bare, totalLines, totalBytes);
  const ratio = best.ours / best.split;
  console.log(`\nratio vs split + JSON.parse: ${ratio.toFixed(3)}× (target ≤ ${TARGET}×) ${ratio <= TARGET ? "OK" : "OVER TARGET"}`);
  console.log(`ratio vs JSON.parse alone:   ${(best.ours / best.bare).toFixed(3)}×`);
  console.log(`(medians: ${(medians.ours / medians.split).toFixed(3)}× vs split + JSON.parse, ${(medians.ours / medians.bare).toFixed(3)}× vs JSON.parse alone)`);
  console.log(tableRow(`framer + parseLine / split + JSON.parse (${(totalBytes / 1024 / 1024).toFixed(0)} MB)`, `${ratio.toFixed(3)}×`, `≤ ${TARGET}×`));
}

main();

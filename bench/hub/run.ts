// Cost of the hub reducer on top of parsing: parse (parseLine + toClientEvents) alone vs parse +
// reduce, over an in-memory stream of ≥ 1 M lines with many parallel subagents. Target: reduce
// adds at most 30 % to parsing. Prints figures; it is not a test.
//
// Reduced as a live tab does (LiveSession): the events of one stdout read (about 64 KiB of lines) in one
// reduceAll. With --per-event, one reduce call per event instead.
//
//   node --import tsx bench/hub/run.ts [lines] [parallel agents] [steps per agent] [--per-event]

import { availableParallelism, loadavg } from "node:os";
import { PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ClientEvent } from "../../src/shared/events.js";
import { parseLine } from "../../src/shared/protocol/parseMessage.js";
import { toClientEvents } from "../../src/shared/protocol/toClientEvents.js";
import { createSessionState, reduce, reduceAll, toTranscript, type SessionState } from "../../src/main/hub/index.js";
import { generateStream } from "./generate.js";

const perEvent = process.argv.includes("--per-event");
const args = process.argv.slice(2).filter((a) => a !== "--per-event");
const lineCount = Number(args[0] ?? 1_000_000);
const parallel = Number(args[1] ?? 48);
const steps = Number(args[2] ?? 150);
const Segment = 20_000;
/** What one read of the CLI's stdout pipe delivers at most. */
const ReadBytes = 64 * 1024;
const Target = 0.3;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heapMiB = (): number => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

function parseOnly(lines: readonly string[], from: number, to: number): number {
  let events = 0;
  for (let i = from; i < to; i++) {
    const parsed = parseLine(lines[i] as string, i + 1);
    if (parsed.ok) events += toClientEvents(parsed.message, i + 1).length;
  }
  return events;
}

/**
 * Lines taken in stdout reads of about ReadBytes, each read's events reduced in one step; with
 * --per-event, every line is a read and its events are reduced one by one.
 */
function parseAndReduce(lines: readonly string[], from: number, to: number, start: SessionState): { events: number; state: SessionState } {
  let events = 0;
  let state = start;
  let read: ClientEvent[] = [];
  let readBytes = 0;
  for (let i = from; i < to; i++) {
    const line = lines[i] as string;
    readBytes += line.length + 1;
    const parsed = parseLine(line, i + 1);
    if (parsed.ok) for (const event of toClientEvents(parsed.message, i + 1)) read.push(event);
    if (perEvent || readBytes >= ReadBytes || i === to - 1) {
      state = perEvent ? reduceEach(state, read) : reduceAll(state, read);
      events += read.length;
      read = [];
      readBytes = 0;
    }
  }
  return { events, state };
}

function reduceEach(state: SessionState, events: readonly ClientEvent[]): SessionState {
  for (const event of events) state = reduce(state, event);
  return state;
}

// Garbage collections, to tell the reducer's own work from the cost of keeping what it builds:
// objects that outlive a young-generation collection are copied out of it, and a transcript is
// made of such objects (parsing alone keeps nothing). Attributed afterwards by time window.
const collections: PerformanceEntry[] = [];
const gcObserver = new PerformanceObserver((list) => collections.push(...list.getEntries()));
gcObserver.observe({ entryTypes: ["gc"] });
type Window = { readonly start: number; readonly end: number };
const parseWindows: Window[] = [];
const reduceWindows: Window[] = [];
const gcIn = (windows: readonly Window[]): number => {
  let ms = 0;
  for (const entry of collections) if (windows.some((w) => entry.startTime >= w.start && entry.startTime < w.end)) ms += entry.duration;
  return ms;
};
const timed = <T>(windows: Window[], fn: () => T): T => {
  const start = performance.now();
  const value = fn();
  windows.push({ start, end: performance.now() });
  return value;
};

/** Wall time, and CPU time of the whole process (GC threads included), which waiting for a shared core does not inflate. */
function time<T>(fn: () => T): { ms: number; cpuMs: number; value: T } {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const value = fn();
  const used = process.cpuUsage(cpu);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, cpuMs: (used.user + used.system) / 1000, value };
}

const load = (): string => loadavg().map((l) => l.toFixed(2)).join(" ");

const baseHeap = heapMiB();
const loadAtStart = load();
console.log(`stream: ≥ ${lineCount.toLocaleString()} lines generated in memory, ${parallel} parallel subagents × ${steps} tool calls per turn`);
console.log(perEvent ? "reduced one event at a time (--per-event)" : `reduced as a live tab does: each stdout read's events (about ${ReadBytes / 1024} KiB of lines) in one step`);

// The machine is shared, so load comes in bursts. The stream is produced in segments (only one is
// held at a time, as a live client would); each is parsed alone twice (before and after) and
// parsed + reduced once in between, continuing one session state. Per-segment ratios are
// compared, and their median reported, so a burst hits both sides.
let parseMs = 0;
let reduceMs = 0;
let events = 0;
let lineTotal = 0;
let bytes = 0;
let finalState = createSessionState();
const ratios: number[] = [];
const cpuRatios: number[] = [];
const measure = (segment: readonly string[]): void => {
  const before = timed(parseWindows, () => time(() => parseOnly(segment, 0, segment.length)));
  const both = timed(reduceWindows, () => time(() => parseAndReduce(segment, 0, segment.length, finalState)));
  const after = timed(parseWindows, () => time(() => parseOnly(segment, 0, segment.length)));
  const parse = Math.min(before.ms, after.ms);
  finalState = both.value.state;
  events += both.value.events;
  parseMs += parse;
  reduceMs += both.ms;
  ratios.push(both.ms / parse - 1);
  cpuRatios.push(both.cpuMs / Math.min(before.cpuMs, after.cpuMs) - 1);
};
let segment: string[] = [];
for (const line of generateStream(lineCount, { parallel, stepsPerAgent: steps })) {
  segment.push(line);
  lineTotal++;
  bytes += line.length + 1;
  if (segment.length === Segment) {
    measure(segment);
    segment = [];
  }
}
if (segment.length > 0) measure(segment);
segment = [];
ratios.sort((a, b) => a - b);
cpuRatios.sort((a, b) => a - b);
const median = ratios[Math.floor(ratios.length / 2)] ?? 0;
const quartile = ratios[Math.floor(ratios.length / 4)] ?? 0;
const cpuMedian = cpuRatios[Math.floor(cpuRatios.length / 2)] ?? 0;

await new Promise((resolve) => setTimeout(resolve, 100)); // let the observer deliver the queued entries
gcObserver.disconnect();
const gcParse = gcIn(parseWindows) / 2; // two parse-only passes per segment
const gcReduce = gcIn(reduceWindows);
const stateHeap = heapMiB();
console.log(`lines: ${lineTotal.toLocaleString()} (${(bytes / 2 ** 20).toFixed(0)} MiB)`);
const t = time(() => toTranscript(finalState));
const transcript = t.value;
const cards = transcript.blocks.filter((b) => b.call?.subagent !== undefined).length;
const overhead = median;
const rate = (ms: number): string => `${((events / ms) * 1000).toLocaleString(undefined, { maximumFractionDigits: 0 })} events/s`;

console.log(`events: ${events.toLocaleString()}`);
console.log(`parse only:      ${parseMs.toFixed(0)} ms  ${rate(parseMs)}`);
console.log(`parse + reduce:  ${reduceMs.toFixed(0)} ms  ${rate(reduceMs)}`);
console.log(`reduce alone:    ${rate(reduceMs - parseMs)} (${(((reduceMs - parseMs) / events) * 1000).toFixed(2)} µs/event)`);
console.log(`reduce overhead: ${(overhead * 100).toFixed(1)} % median over ${ratios.length} segments, ${(quartile * 100).toFixed(1)} % lower quartile, ${((reduceMs / parseMs - 1) * 100).toFixed(1)} % in total (target ≤ ${Target * 100} %) ${overhead <= Target ? "OK" : "OVER TARGET"}`);
console.log(`  in CPU time:   ${(cpuMedian * 100).toFixed(1)} % median (process CPU, GC threads included)`);
console.log(`  GC pauses:     ${gcReduce.toFixed(0)} ms during parse + reduce vs ${gcParse.toFixed(0)} ms during parse alone: keeping the transcript costs ${(((gcReduce - gcParse) / parseMs) * 100).toFixed(1)} % of parse time, the reducer's own work ${(((reduceMs - parseMs - (gcReduce - gcParse)) / parseMs) * 100).toFixed(1)} %`);
console.log(`load average:    ${loadAtStart} at start, ${load()} at end (${availableParallelism()} cores)`);
console.log(`toTranscript:    ${t.ms.toFixed(1)} ms for ${transcript.blocks.length.toLocaleString()} top-level blocks, ${cards.toLocaleString()} subagent cards`);
console.log(`memory: final state ${(stateHeap - baseHeap).toFixed(0)} MiB (heap after GC), ${((stateHeap - baseHeap) * 2 ** 20 / lineTotal).toFixed(0)} bytes per line`);

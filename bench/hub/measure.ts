// One measured pass of bench/hub (run.ts starts this in a fresh process for every pass): reads the
// generated stream into memory, then times the app's path over it, the bytes cut into 64 KiB reads
// as a pipe delivers them: createStdoutReader (lines → messages) → toClientEvents, and with
// "reduce" the hub as a live tab runs it. Prints one JSON line (Pass) on stdout.
//
//   node --import tsx --expose-gc bench/hub/measure.ts <stream file> parse|reduce|per-event

import { readFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";
import { createStdoutReader } from "../../src/main/cli/stdoutReader.js";
import type { ClientEvent } from "../../src/shared/events.js";
import { toClientEvents } from "../../src/shared/protocol/toClientEvents.js";
import { createSessionState, reduce, reduceAllConsuming, toTranscript, type SessionState } from "../../src/main/hub/index.js";

export type Mode = "parse" | "reduce" | "per-event";

export interface Pass {
  readonly mode: Mode;
  readonly lines: number;
  readonly events: number;
  readonly ms: number;
  /** CPU time of the whole process (GC threads included) during the pass. */
  readonly cpuMs: number;
  /** Main-thread garbage collection pauses during the pass. */
  readonly gcMs: number;
  /** Heap in use after a full collection, at the end minus before the pass: what the pass keeps. */
  readonly keptMiB: number;
  readonly transcript?: { readonly ms: number; readonly blocks: number; readonly cards: number };
}

/** What one read of the CLI's stdout pipe delivers at most. */
export const ReadBytes = 64 * 1024;

const [file, modeArg] = process.argv.slice(2);
if (file === undefined || (modeArg !== "parse" && modeArg !== "reduce" && modeArg !== "per-event")) {
  throw new Error("usage: measure.ts <stream file> parse|reduce|per-event");
}
const mode: Mode = modeArg;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("measure.ts needs --expose-gc");

/**
 * The stream, outside the JS heap (as the pipe's buffers are), cut into reads. The client reduces
 * what one read parsed in one step (LiveSession); with per-event, each event as it is parsed.
 */
function pass(chunks: readonly Buffer[]): { lines: number; events: number; state: SessionState | undefined } {
  let lines = 0;
  let events = 0;
  let state = mode === "parse" ? undefined : createSessionState();
  let read: ClientEvent[] = [];
  let problems = 0;
  const reader = createStdoutReader({
    onMessage(message, lineNumber) {
      lines = lineNumber;
      for (const event of toClientEvents(message, lineNumber)) {
        events++;
        if (mode === "reduce") read.push(event);
        else if (mode === "per-event") state = reduce(state as SessionState, event);
      }
    },
    onProblem: () => problems++,
  });
  for (const chunk of chunks) {
    reader.push(chunk);
    if (read.length > 0) {
      state = reduceAllConsuming(state as SessionState, read);
      read = [];
    }
  }
  reader.end();
  if (problems > 0) throw new Error(`${problems} lines of the stream failed to parse`);
  return { lines, events, state };
}

const stream = readFileSync(file);
const chunks: Buffer[] = [];
for (let at = 0; at < stream.length; at += ReadBytes) chunks.push(stream.subarray(at, at + ReadBytes));

let gcMs = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
});
observer.observe({ entryTypes: ["gc"] });
gc();
const heapBefore = process.memoryUsage().heapUsed;
const cpu = process.cpuUsage();
const start = performance.now();
const { lines, events, state } = pass(chunks);
const ms = performance.now() - start;
const used = process.cpuUsage(cpu);
await new Promise((resolve) => setTimeout(resolve, 50)); // the observer delivers its entries asynchronously
observer.disconnect();
gc();
const keptMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;

let transcript: Pass["transcript"];
if (state !== undefined) {
  const t = performance.now();
  const built = toTranscript(state);
  const blocks = built.blocks;
  transcript = { ms: performance.now() - t, blocks: blocks.length, cards: blocks.filter((b) => b.call?.subagent !== undefined).length };
}
const result: Pass = { mode, lines, events, ms, cpuMs: (used.user + used.system) / 1000, gcMs, keptMiB, ...(transcript === undefined ? {} : { transcript }) };
console.log(JSON.stringify(result));

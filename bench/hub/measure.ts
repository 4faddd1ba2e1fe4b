// One measured pass of bench/hub (run.ts starts this in a fresh process for every pass): reads the
// generated stream into memory, then times the app's path over it, the bytes cut into 64 KiB reads
// as a pipe delivers them: createStdoutReader (lines → messages) → toClientEvents, and with
// "reduce" the hub as a live tab runs it. "keep" measures a floor instead of the hub: it only keeps
// what the transcript shows (see Keeper). Prints one JSON line (Pass) on stdout.
//
//   node --import tsx --expose-gc bench/hub/measure.ts <stream file> parse|keep|reduce|per-event

import { readFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";
import { createStdoutReader } from "../../src/main/cli/stdoutReader.js";
import type { ClientEvent } from "../../src/shared/events.js";
import { toClientEvents } from "../../src/shared/protocol/toClientEvents.js";
import { createSessionState, reduce, reduceAllConsuming, toTranscript, type SessionState } from "../../src/main/hub/index.js";
import type { Json } from "../../src/shared/protocol/messages.js";
import { MaxNestedBlocks } from "../../src/shared/transcript.js";

const Modes = ["parse", "keep", "reduce", "per-event"] as const;
export type Mode = (typeof Modes)[number];

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
if (file === undefined || !(Modes as readonly (string | undefined)[]).includes(modeArg)) {
  throw new Error("usage: measure.ts <stream file> parse|keep|reduce|per-event");
}
const mode = modeArg as Mode;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("measure.ts needs --expose-gc");

/** A kept block: text, or a tool call's id, name, input and (once it came) result. */
type ToolKept = { id: string; name: string; input: Json; result?: { text: string; isError: boolean } };
type Kept = { text: string } | ToolKept;

/**
 * What any transcript of the stream must hold, and nothing else: the top-level blocks, and the
 * newest MaxNestedBlocks blocks of each subagent, each a text or a tool call with its input and
 * result, found by looking back from the newest block. No statuses, records, progress, permissions
 * or de-duplication: the cost of keeping the data, as a floor under any reducer's.
 */
class Keeper {
  readonly top: Kept[] = [];
  readonly lists = new Map<string, { items: Kept[]; count: number }>();

  add(event: ClientEvent): void {
    if (event.kind === "assistant_block") {
      const b = event.block;
      if (b.type === "tool_use") this.push(event.parentToolUseId, { id: b.id, name: b.name, input: b.input });
      else if (b.type === "text") this.push(event.parentToolUseId, { text: b.text });
    } else if (event.kind === "tool_result") {
      const call = this.find(event.parentToolUseId, event.toolUseId);
      if (call !== undefined) call.result = { text: event.text, isError: event.isError };
    } else if (event.kind === "user_prompt" && event.parentToolUseId === null) {
      this.top.push({ text: event.text });
    }
  }

  private push(parent: string | null, block: Kept): void {
    if (parent === null) {
      this.top.push(block);
      return;
    }
    let list = this.lists.get(parent);
    if (list === undefined) this.lists.set(parent, (list = { items: new Array<Kept>(MaxNestedBlocks), count: 0 }));
    list.items[list.count++ % MaxNestedBlocks] = block;
  }

  private find(parent: string | null, id: string): ToolKept | undefined {
    if (parent === null) {
      for (let i = this.top.length - 1; i >= 0; i--) if (isCall(this.top[i], id)) return this.top[i] as ToolKept;
      return undefined;
    }
    const list = this.lists.get(parent);
    if (list === undefined) return undefined;
    for (let i = list.count - 1; i >= Math.max(0, list.count - MaxNestedBlocks); i--) {
      const block = list.items[i % MaxNestedBlocks];
      if (isCall(block, id)) return block as ToolKept;
    }
    return undefined;
  }
}

function isCall(block: Kept | undefined, id: string): boolean {
  return block !== undefined && "id" in block && block.id === id;
}

/**
 * The stream, outside the JS heap (as the pipe's buffers are), cut into reads. The client reduces
 * what one read parsed in one step (LiveSession); with per-event, each event as it is parsed.
 */
function pass(chunks: readonly Buffer[]): { lines: number; events: number; state: SessionState | undefined; keeper: Keeper | undefined } {
  let lines = 0;
  let events = 0;
  let state = mode === "parse" || mode === "keep" ? undefined : createSessionState();
  const keeper = mode === "keep" ? new Keeper() : undefined;
  let read: ClientEvent[] = [];
  let problems = 0;
  const reader = createStdoutReader({
    onMessage(message, lineNumber) {
      lines = lineNumber;
      for (const event of toClientEvents(message, lineNumber)) {
        events++;
        if (mode === "reduce") read.push(event);
        else if (mode === "per-event") state = reduce(state as SessionState, event);
        else keeper?.add(event);
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
  return { lines, events, state, keeper };
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
const { lines, events, state, keeper } = pass(chunks);
const ms = performance.now() - start;
const used = process.cpuUsage(cpu);
await new Promise((resolve) => setTimeout(resolve, 50)); // the observer delivers its entries asynchronously
observer.disconnect();
gc();
const keptMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
// Also holds what "keep" kept until here, where the pass's memory is measured.
if (keeper !== undefined && keeper.lists.size === 0 && keeper.top.length === 0) throw new Error("keep: nothing was kept");

let transcript: Pass["transcript"];
if (state !== undefined) {
  const t = performance.now();
  const built = toTranscript(state);
  const blocks = built.blocks;
  transcript = { ms: performance.now() - t, blocks: blocks.length, cards: blocks.filter((b) => b.call?.subagent !== undefined).length };
}
const result: Pass = { mode, lines, events, ms, cpuMs: (used.user + used.system) / 1000, gcMs, keptMiB, ...(transcript === undefined ? {} : { transcript }) };
console.log(JSON.stringify(result));

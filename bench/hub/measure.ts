// One measured pass of bench/hub (run.ts starts this in a fresh process for every pass): reads the
// generated stream into memory, then times the app's path over it, the bytes cut into 64 KiB reads
// as a pipe delivers them: createStdoutReader (lines → messages) → toClientEvents, and with
// "reduce" the hub's session model applying the events as a live tab does. "keep" measures a floor instead of the hub: it only keeps
// what the transcript shows (see Keeper); "keep-off-heap" keeps the same outside the JavaScript
// heap (see OffHeapKeeper). Prints one JSON line (Pass) on stdout.
//
//   node --import tsx --expose-gc bench/hub/measure.ts <stream file> parse|keep|keep-off-heap|reduce

import { readFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";
import { createStdoutReader } from "../../src/main/cli/stdoutReader.js";
import type { ClientEvent } from "../../src/shared/events.js";
import { toClientEvents } from "../../src/shared/protocol/toClientEvents.js";
import { SessionModel } from "../../src/main/hub/index.js";
import type { Json } from "../../src/shared/protocol/messages.js";
import { MaxNestedBlocks } from "../../src/shared/transcript.js";

const Modes = ["parse", "keep", "keep-off-heap", "reduce"] as const;
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
  /** The same for memory outside the heap (Buffers): what keep-off-heap keeps there. */
  readonly offHeapMiB: number;
  readonly transcript?: { readonly ms: number; readonly blocks: number; readonly cards: number };
}

/** What one read of the CLI's stdout pipe delivers at most. */
export const ReadBytes = 64 * 1024;

const [file, modeArg] = process.argv.slice(2);
if (file === undefined || !(Modes as readonly (string | undefined)[]).includes(modeArg)) {
  throw new Error(`usage: measure.ts <stream file> ${Modes.join("|")}`);
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
  private readonly top: Kept[] = [];
  private readonly lists = new Map<string, { items: Kept[]; count: number }>();

  get empty(): boolean {
    return this.lists.size === 0 && this.top.length === 0;
  }

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

/** A subagent's blocks in OffHeapKeeper: the newest MaxNestedBlocks as (slab, offset, length) triples, and its calls waiting for results. */
type OffHeapList = { where: Int32Array; count: number; waiting: Map<string, ToolKept> };

/** OffHeapKeeper's slabs are this large (or as large as one block needs). */
const SlabBytes = 16 * 2 ** 20;

/**
 * The same floor with the subagents' blocks outside the JavaScript heap, where the collector does
 * not copy them: each one, once complete, is written as JSON into large Buffers, and its list
 * keeps only where (a call waits for its result as an object, in a small map). Top-level blocks,
 * a few thousand, stay objects (a Keeper). A transcript kept this way would also pay for reading
 * blocks back and for reclaiming the bytes of dropped ones; this floor does neither.
 */
class OffHeapKeeper {
  private readonly top = new Keeper();
  private readonly slabs = [Buffer.allocUnsafeSlow(SlabBytes)];
  private used = 0;
  private readonly lists = new Map<string, OffHeapList>();

  get empty(): boolean {
    return this.top.empty && this.lists.size === 0;
  }

  add(event: ClientEvent): void {
    if (event.kind === "assistant_block" && event.parentToolUseId !== null) {
      const b = event.block;
      if (b.type === "tool_use") this.list(event.parentToolUseId).waiting.set(b.id, { id: b.id, name: b.name, input: b.input });
      else if (b.type === "text") this.put(this.list(event.parentToolUseId), JSON.stringify(b.text));
    } else if (event.kind === "tool_result" && event.parentToolUseId !== null) {
      const list = this.lists.get(event.parentToolUseId);
      const call = list?.waiting.get(event.toolUseId);
      if (list === undefined || call === undefined) return;
      list.waiting.delete(event.toolUseId);
      this.put(list, JSON.stringify([call.id, call.name, call.input, event.text, event.isError]));
    } else {
      this.top.add(event);
    }
  }

  private list(parent: string): OffHeapList {
    let list = this.lists.get(parent);
    if (list === undefined) this.lists.set(parent, (list = { where: new Int32Array(3 * MaxNestedBlocks), count: 0, waiting: new Map() }));
    return list;
  }

  private put(list: OffHeapList, json: string): void {
    let slab = this.slabs[this.slabs.length - 1] as Buffer;
    if (this.used + 3 * json.length > slab.length) {
      this.slabs.push((slab = Buffer.allocUnsafeSlow(Math.max(SlabBytes, 3 * json.length))));
      this.used = 0;
    }
    const bytes = slab.write(json, this.used);
    const at = 3 * (list.count++ % MaxNestedBlocks);
    list.where[at] = this.slabs.length - 1;
    list.where[at + 1] = this.used;
    list.where[at + 2] = bytes;
    this.used += bytes;
  }
}

function isCall(block: Kept | undefined, id: string): boolean {
  return block !== undefined && "id" in block && block.id === id;
}

/**
 * The stream, outside the JS heap (as the pipe's buffers are), cut into reads. A live tab applies
 * what one read parsed once the read is handled, each event on its own if one fails (LiveSession.flush).
 */
function pass(chunks: readonly Buffer[]): { lines: number; events: number; model: SessionModel | undefined; keeper: Keeper | OffHeapKeeper | undefined } {
  let lines = 0;
  let events = 0;
  const model = mode === "reduce" ? new SessionModel() : undefined;
  const keeper = mode === "keep" ? new Keeper() : mode === "keep-off-heap" ? new OffHeapKeeper() : undefined;
  let read: ClientEvent[] = [];
  let problems = 0;
  const reader = createStdoutReader({
    onMessage(message, lineNumber) {
      lines = lineNumber;
      for (const event of toClientEvents(message, lineNumber)) {
        events++;
        if (model !== undefined) read.push(event);
        else keeper?.add(event);
      }
    },
    onProblem: () => problems++,
  });
  for (const chunk of chunks) {
    reader.push(chunk);
    if (model !== undefined && read.length > 0) {
      model.apply(read, () => undefined);
      read = [];
    }
  }
  reader.end();
  if (problems > 0) throw new Error(`${problems} lines of the stream failed to parse`);
  return { lines, events, model, keeper };
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
const before = process.memoryUsage();
const cpu = process.cpuUsage();
const start = performance.now();
const { lines, events, model, keeper } = pass(chunks);
const ms = performance.now() - start;
const used = process.cpuUsage(cpu);
await new Promise((resolve) => setTimeout(resolve, 50)); // the observer delivers its entries asynchronously
observer.disconnect();
gc();
const after = process.memoryUsage();
const keptMiB = (after.heapUsed - before.heapUsed) / 2 ** 20;
const offHeapMiB = (after.arrayBuffers - before.arrayBuffers) / 2 ** 20;
// Also holds what "keep" kept until here, where the pass's memory is measured.
if (keeper?.empty === true) throw new Error(`${mode}: nothing was kept`);

let transcript: Pass["transcript"];
if (model !== undefined) {
  const t = performance.now();
  const built = model.transcript();
  const blocks = built.blocks;
  transcript = { ms: performance.now() - t, blocks: blocks.length, cards: blocks.filter((b) => b.call?.subagent !== undefined).length };
}
const result: Pass = { mode, lines, events, ms, cpuMs: (used.user + used.system) / 1000, gcMs, keptMiB, offHeapMiB, ...(transcript === undefined ? {} : { transcript }) };
console.log(JSON.stringify(result));

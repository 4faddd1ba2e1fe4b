// The extract thread of a large index run: reads and parses transcripts (the JSON.parse half of
// the work) while the store's thread writes earlier chunks to SQLite, so the two halves overlap
// on two cores. The bound on what waits unacknowledged is in transcript bytes (`maxInFlight` full
// chunks' worth), not in chunks: the writer commits many files' chunks at once and is busy for
// that whole commit, and a bound of a few small files' chunks left this thread idle meanwhile.
//
// Writing the full-text index takes the writer longer than parsing takes this thread, so while
// the writer lags (half the bound or more waiting) this thread writes a chunk's rows into the side
// index itself (sideIndex.ts) and sends the chunk without them. Such a chunk counts in flight by
// what it carries, so the bound measures the texts the writer still has to index.
//
// Files are read with blocking reads: this thread has nothing else to do meanwhile, and each
// awaited read waited for a thread-pool thread on a machine whose cores are both busy.
import { parentPort, workerData } from "node:worker_threads";
import { divertedChunk, packChunk, type PackedChunk } from "./chunkWire.js";
import { readJsonlSync } from "../history/index.js";
import { extractFile } from "./extractFile.js";
import type { ExtractWorkerData, ExtractWorkerMessage, ExtractWorkerReply } from "./extractProtocol.js";
import { SideWriter } from "./sideWriter.js";

const port = parentPort;
if (!port) throw new Error("extractWorker must run in a worker thread");
const data = workerData as ExtractWorkerData;
const maxBytesInFlight = data.chunkBytes * data.maxInFlight;

/** The weight of each chunk sent and not yet acknowledged, oldest first (acks come in order). */
const unacked: number[] = [];
let bytesInFlight = 0;
let wake: (() => void) | undefined;

let start: ((from: number) => void) | undefined;
const from = new Promise<number>((resolve) => (start = resolve));

port.on("message", (msg: ExtractWorkerMessage) => {
  if (msg.type === "start") start?.(msg.from);
  else if (msg.type === "ack") {
    for (let i = 0; i < msg.count; i++) bytesInFlight -= unacked.shift() ?? 0;
    wake?.();
  }
});

function send(reply: ExtractWorkerReply, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(reply, transfer);
}

const sideTarget = data.side;
let side: SideWriter | undefined;
let sideNext = sideTarget?.from ?? 0;

/**
 * Transcript bytes of kept chunks per side transaction. Kept chunks wait here (unsent) until it
 * commits, which is harmless: a chunk is kept only while the writer has half the bound to write.
 */
const SIDE_BATCH_BYTES = 32 * 1024 * 1024;

/** A chunk whose rows are being written into the side index, waiting for that commit. */
interface Kept {
  readonly packed: PackedChunk;
  readonly transfer: ArrayBuffer[];
  readonly bytes: number;
  readonly lo: number;
}
let kept: Kept[] = [];
let keptBytes = 0;

/** Sends a chunk that weighs `bytes` (of transcript, for a chunk with texts); counted in flight until acknowledged. */
function sendChunk(chunk: PackedChunk, transfer: ArrayBuffer[], bytes: number): void {
  unacked.push(bytes);
  bytesInFlight += bytes;
  send({ type: "chunk", chunk }, transfer);
}

/** Keeps the chunk, its rows written into the side index, if the writer lags; false if not. */
function keep(packed: PackedChunk, transfer: ArrayBuffer[], bytes: number): boolean {
  const count = packed.batch.rows.count;
  if (side === undefined || sideTarget === undefined || count === 0 || sideNext + count > sideTarget.to) return false;
  if (sideTarget.divert === "lagging" && bytesInFlight < maxBytesInFlight / 2) return false;
  try {
    side.write(packed.batch.rows, sideNext);
  } catch {
    dropSide();
    return false;
  }
  kept.push({ packed, transfer, bytes, lo: sideNext });
  keptBytes += bytes;
  sideNext += count;
  return true;
}

/** Commits the kept chunks' side rows, then sends them without their texts (with, if the commit failed). */
function release(): void {
  if (kept.length === 0) return;
  const chunks = kept;
  kept = [];
  keptBytes = 0;
  let committed = true;
  try {
    side!.commit();
  } catch {
    committed = false;
    dropSide();
  }
  for (const k of chunks) {
    // Without its texts the writer has little to do for it: it weighs what it carries, not the
    // transcript it covers, or the bound would hold this thread back while the writer is busy with
    // other chunks' texts (a third of a profiled run was spent waiting so).
    if (committed) sendChunk(divertedChunk(k.packed, k.lo), [k.packed.batch.rows.places.buffer as ArrayBuffer], Math.max(1, k.packed.batch.rows.places.byteLength));
    else sendChunk(k.packed, k.transfer, k.bytes);
  }
}

/** The side file is busy or broken: the writer takes every row from here on, as without it. */
function dropSide(): void {
  try {
    side?.close();
  } catch {
    // closing a broken connection: nothing more to do
  }
  side = undefined;
}

function openSide(): void {
  if (sideTarget === undefined) return;
  try {
    side = SideWriter.open(sideTarget.path, sideTarget.nativeBinding);
  } catch {
    side = undefined; // no side index this run: the writer indexes every row
  }
}

/** Lets the event loop turn (files are read with blocking reads, so acks arrive only here), then waits for room. */
async function room(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  while (unacked.length > 0 && bytesInFlight >= maxBytesInFlight) await new Promise<void>((resolve) => (wake = resolve));
  wake = undefined;
}

// Loaded: the store's thread, which read jobs while this one started, says where to begin.
openSide();
send({ type: "ready" });
try {
  for (let i = await from; i < data.jobs.length; i++) {
    await room();
    let readTo = data.jobs[i]!.fromOffset;
    await extractFile(data.jobs[i]!, i, data.chunkBytes, (chunk) => {
      // At least 1, so a run of chunks that read nothing new still counts against the bound.
      const bytes = Math.max(1, chunk.offset - readTo);
      readTo = chunk.offset;
      const { packed, transfer } = packChunk(chunk);
      if (keep(packed, transfer, bytes)) {
        if (keptBytes >= SIDE_BATCH_BYTES) release();
        return;
      }
      // Chunks go in order: the kept ones first.
      release();
      sendChunk(packed, transfer, bytes);
    }, readJsonlSync);
  }
  release();
  send({ type: "done" });
} catch (err) {
  const e = err as { message?: unknown; code?: unknown };
  send({ type: "error", message: String(e.message ?? err), ...(typeof e.code === "string" ? { code: e.code } : {}) });
} finally {
  dropSide();
}
port.unref();

// The extract thread of a large index run: reads and parses transcripts (the JSON.parse half of
// the work) while the store's thread writes earlier chunks to SQLite, so the two halves overlap
// on two cores. The bound on what waits unacknowledged is in transcript bytes (`maxInFlight` full
// chunks' worth), not in chunks: the writer commits many files' chunks at once and is busy for
// that whole commit, and a bound of a few small files' chunks left this thread idle meanwhile.
//
// Writing the full-text index takes the writer longer than parsing takes this thread, so while
// the writer lags (half the bound or more waiting) this thread writes a chunk's rows into the side
// index itself (sideIndex.ts) and sends the chunk without them.
import { parentPort, workerData } from "node:worker_threads";
import { divertedChunk, packChunk, type PackedChunk } from "./chunkWire.js";
import { extractFile } from "./extractFile.js";
import type { ExtractWorkerData, ExtractWorkerMessage, ExtractWorkerReply } from "./extractProtocol.js";
import { SideWriter } from "./sideWriter.js";

const port = parentPort;
if (!port) throw new Error("extractWorker must run in a worker thread");
const data = workerData as ExtractWorkerData;
const maxBytesInFlight = data.chunkBytes * data.maxInFlight;

/** Transcript bytes of each chunk sent and not yet acknowledged, oldest first (acks come in order). */
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

/** Writes the chunk's rows into the side index if the writer lags; returns what to send. */
function divert(chunk: PackedChunk): PackedChunk {
  const count = chunk.batch.rows.count;
  if (side === undefined || sideTarget === undefined || count === 0 || sideNext + count > sideTarget.to) return chunk;
  if (sideTarget.divert === "lagging" && bytesInFlight < maxBytesInFlight / 2) return chunk;
  try {
    side.write(chunk.batch.rows, sideNext);
  } catch {
    // The side file is busy or broken: the writer takes every row from here on, as without it.
    side.close();
    side = undefined;
    return chunk;
  }
  const sent = divertedChunk(chunk, sideNext);
  sideNext += count;
  return sent;
}

function openSide(): void {
  if (sideTarget === undefined) return;
  try {
    side = SideWriter.open(sideTarget.path, sideTarget.nativeBinding);
  } catch {
    side = undefined; // no side index this run: the writer indexes every row
  }
}

async function room(): Promise<void> {
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
      const sent = divert(packed);
      unacked.push(bytes);
      bytesInFlight += bytes;
      send({ type: "chunk", chunk: sent }, sent === packed ? transfer : [sent.batch.rows.places.buffer as ArrayBuffer]);
    });
  }
  send({ type: "done" });
} catch (err) {
  const e = err as { message?: unknown; code?: unknown };
  send({ type: "error", message: String(e.message ?? err), ...(typeof e.code === "string" ? { code: e.code } : {}) });
} finally {
  side?.close();
}
port.unref();

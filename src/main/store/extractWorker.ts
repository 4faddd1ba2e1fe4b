// The extract thread of a large index run: reads and parses transcripts (the JSON.parse half of
// the work) while the store's thread writes earlier chunks to SQLite, so the two halves overlap
// on two cores. The bound on what waits unacknowledged is in transcript bytes (`maxInFlight` full
// chunks' worth), not in chunks: the writer commits many files' chunks at once and is busy for
// that whole commit, and a bound of a few small files' chunks left this thread idle meanwhile.
import { parentPort, workerData } from "node:worker_threads";
import { packChunk } from "./chunkWire.js";
import { extractFile } from "./extractFile.js";
import type { ExtractWorkerData, ExtractWorkerMessage, ExtractWorkerReply } from "./extractProtocol.js";

const port = parentPort;
if (!port) throw new Error("extractWorker must run in a worker thread");
const data = workerData as ExtractWorkerData;
const maxBytesInFlight = data.chunkBytes * data.maxInFlight;

/** Transcript bytes of each chunk sent and not yet acknowledged, oldest first (acks come in order). */
const unacked: number[] = [];
let bytesInFlight = 0;
let wake: (() => void) | undefined;

port.on("message", (msg: ExtractWorkerMessage) => {
  if (msg.type === "ack") {
    for (let i = 0; i < msg.count; i++) bytesInFlight -= unacked.shift() ?? 0;
    wake?.();
  }
});

function send(reply: ExtractWorkerReply, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(reply, transfer);
}

async function room(): Promise<void> {
  while (unacked.length > 0 && bytesInFlight >= maxBytesInFlight) await new Promise<void>((resolve) => (wake = resolve));
  wake = undefined;
}

try {
  for (let i = 0; i < data.jobs.length; i++) {
    await room();
    let from = data.jobs[i]!.fromOffset;
    await extractFile(data.jobs[i]!, i, data.chunkBytes, (chunk) => {
      // At least 1, so a run of chunks that read nothing new still counts against the bound.
      const bytes = Math.max(1, chunk.offset - from);
      from = chunk.offset;
      unacked.push(bytes);
      bytesInFlight += bytes;
      const { wire, transfer } = packChunk(chunk);
      send({ type: "chunk", chunk: wire }, transfer);
    });
  }
  send({ type: "done" });
} catch (err) {
  const e = err as { message?: unknown; code?: unknown };
  send({ type: "error", message: String(e.message ?? err), ...(typeof e.code === "string" ? { code: e.code } : {}) });
}
port.unref();

// The extract thread of a large index run: reads and parses transcripts (the JSON.parse half of
// the work) while the store's thread writes earlier chunks to SQLite, so the two halves overlap
// on two cores. At most `maxInFlight` chunks wait unacknowledged before the next file is read.
import { parentPort, workerData } from "node:worker_threads";
import { extractFile } from "./extractFile.js";
import type { ExtractWorkerData, ExtractWorkerMessage, ExtractWorkerReply } from "./extractProtocol.js";

const port = parentPort;
if (!port) throw new Error("extractWorker must run in a worker thread");
const data = workerData as ExtractWorkerData;

let inFlight = 0;
let wake: (() => void) | undefined;

port.on("message", (msg: ExtractWorkerMessage) => {
  if (msg.type === "ack") {
    inFlight -= msg.count;
    wake?.();
  }
});

function send(reply: ExtractWorkerReply): void {
  port!.postMessage(reply);
}

async function room(): Promise<void> {
  while (inFlight >= data.maxInFlight) await new Promise<void>((resolve) => (wake = resolve));
  wake = undefined;
}

try {
  for (let i = 0; i < data.jobs.length; i++) {
    await room();
    await extractFile(data.jobs[i]!, i, data.chunkBytes, (chunk) => {
      inFlight++;
      send({ type: "chunk", chunk });
    });
  }
  send({ type: "done" });
} catch (err) {
  const e = err as { message?: unknown; code?: unknown };
  send({ type: "error", message: String(e.message ?? err), ...(typeof e.code === "string" ? { code: e.code } : {}) });
}
port.unref();

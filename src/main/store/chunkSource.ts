// Where an index run's chunks come from: this thread for small runs (a worker costs more to start
// than a few appended lines cost to read), an extract worker for large ones, so parsing and
// SQLite writes overlap. Either way `sink` sees every chunk, in job order, one at a time.
import { Worker } from "node:worker_threads";
import { unpackChunk } from "./chunkWire.js";
import type { RowText } from "./extract.js";
import { extractFile, type FileChunk, type FileJob } from "./extractFile.js";
import type { ExtractWorkerData, ExtractWorkerReply } from "./extractProtocol.js";

/**
 * Chunks parsed ahead of the writer; bounds the memory a fast reader can pile up. A commit of the
 * full-text index takes as long as parsing several chunks, so fewer than that stalls the reader
 * at every commit (4 measured ~10 % slower cold index than 16; ~65 MB more peak RSS at 16).
 */
const MAX_IN_FLIGHT = 16;

export async function chunksInline(jobs: readonly FileJob[], chunkBytes: number, sink: (c: FileChunk) => void): Promise<void> {
  for (let i = 0; i < jobs.length; i++) await extractFile(jobs[i]!, i, chunkBytes, sink);
}

/**
 * Runs the jobs on an extract worker. Resolves once every chunk went through `sink`; rejects with
 * the worker's error or `sink`'s. Returns false, having called `sink` for nothing, when the worker
 * cannot start (e.g. a bundle without the worker module): the caller reads on its own thread.
 */
export function chunksInWorker(
  jobs: readonly FileJob[],
  chunkBytes: number,
  sink: (c: FileChunk<RowText>) => void,
  entry: URL = defaultEntry(),
): Promise<boolean> {
  const here = import.meta.url;
  const script = entry.pathname.endsWith(".ts") ? new URL("./workerBoot.mjs", here) : entry;
  const data: ExtractWorkerData = { jobs, chunkBytes, maxInFlight: MAX_IN_FLIGHT, entry: entry.href };
  return new Promise<boolean>((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(script, { workerData: data });
    } catch {
      resolve(false);
      return;
    }
    let received = 0;
    let settled = false;
    const finish = (err: Error | undefined, ok = true): void => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (err) reject(err);
      else resolve(ok);
    };
    worker.on("message", (msg: ExtractWorkerReply) => {
      if (settled) return;
      if (msg.type === "chunk") {
        received++;
        try {
          sink(unpackChunk(msg.chunk));
        } catch (err) {
          finish(err as Error);
          return;
        }
        worker.postMessage({ type: "ack", count: 1 });
      } else if (msg.type === "done") {
        finish(undefined);
      } else {
        finish(Object.assign(new Error(msg.message), msg.code !== undefined ? { code: msg.code } : {}));
      }
    });
    // Failing before its first chunk means the worker could not load: read here instead.
    worker.on("error", (err) => (received === 0 ? finish(undefined, false) : finish(err)));
    worker.on("exit", (code) => finish(new Error(`extract worker exited (code ${code})`)));
  });
}

function defaultEntry(): URL {
  const here = import.meta.url;
  return new URL(here.endsWith(".ts") ? "./extractWorker.ts" : "./extractWorker.js", here);
}

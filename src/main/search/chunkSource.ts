// Where an index run's chunks come from: this thread for small runs (a worker costs more to start
// than a few appended lines cost to read), an extract worker for large ones, so parsing and
// SQLite writes overlap. A large run does not wait for the worker to start: this thread reads
// until it is ready (and a little past). Either way `sink` sees every chunk, in job order, one at
// a time.
import { Worker } from "node:worker_threads";
import { packChunk, type PackedChunk } from "./chunkWire.js";
import { extractFile, type FileJob } from "./extractFile.js";
import type { ExtractWorkerData, ExtractWorkerReply, SideTarget } from "./extractProtocol.js";

/**
 * Chunks parsed ahead of the writer; bounds the memory a fast reader can pile up. A commit of the
 * full-text index takes as long as parsing several chunks, so fewer than that stalls the reader
 * at every commit (4 measured ~10 % slower cold index than 16; ~65 MB more peak RSS at 16).
 */
const MAX_IN_FLIGHT = 16;

/**
 * Transcript bytes this thread still reads after the worker is ready, while the worker begins
 * further on. A fresh worker's code is not optimised yet: its first ~30 MB came at half speed and
 * left this thread waiting about 0.4 s (measured on the 0.25 history benchmark).
 */
const WARM_UP_BYTES = 24 * 1024 * 1024;

export async function chunksInline(
  jobs: readonly FileJob[],
  chunkBytes: number,
  sink: (c: PackedChunk) => void,
  from = 0,
  to = jobs.length,
): Promise<void> {
  for (let i = from; i < to; i++) await extractFile(jobs[i]!, i, chunkBytes, (chunk) => sink(packChunk(chunk).packed));
}

export interface WorkerReadOptions {
  /** Jobs this thread may read while the worker starts (under tsx that takes a few hundred ms). Default: no limit. */
  readonly whileStarting?: number;
  /** Transcript bytes this thread reads once the worker is ready, while it begins further on. Default WARM_UP_BYTES. */
  readonly warmUpBytes?: number;
  /** The side index the worker may write rows into (sideIndex.ts). */
  readonly side?: SideTarget;
}

/**
 * Reads the jobs, on this thread until an extract worker is ready and on the worker after that,
 * and all of them here if the worker cannot start (e.g. a bundle without the worker module).
 * Resolves to the number of jobs the worker read; rejects with the worker's error or `sink`'s.
 */
export async function chunksInWorker(
  jobs: readonly FileJob[],
  chunkBytes: number,
  sink: (c: PackedChunk) => void,
  entry: URL = defaultEntry(),
  options: WorkerReadOptions = {},
): Promise<number> {
  const data: ExtractWorkerData = { jobs, chunkBytes, maxInFlight: MAX_IN_FLIGHT, entry: entry.href, ...(options.side !== undefined ? { side: options.side } : {}) };
  const worker = ExtractThread.start(entry, data);
  let next = 0;
  try {
    const limit = Math.min(jobs.length, options.whileStarting ?? jobs.length);
    while (next < limit && worker?.state === "starting") {
      await chunksInline(jobs, chunkBytes, sink, next, next + 1);
      next++;
    }
    if (next === jobs.length) return 0;
    if (worker === undefined || !(await worker.ready)) {
      await chunksInline(jobs, chunkBytes, sink, next);
      return 0;
    }
    const from = warmUpEnd(jobs, next, options.warmUpBytes ?? WARM_UP_BYTES);
    const reading = worker.read(from, sink);
    try {
      await chunksInline(jobs, chunkBytes, sink, next, from);
    } finally {
      reading.deliver();
    }
    await reading.done;
    return jobs.length - from;
  } finally {
    worker?.stop();
  }
}

/** The job the worker starts at: this thread reads about `warmUpBytes` more first (never the last job). */
function warmUpEnd(jobs: readonly FileJob[], from: number, warmUpBytes: number): number {
  let bytes = 0;
  let i = from;
  while (i < jobs.length - 1 && bytes < warmUpBytes) {
    const job = jobs[i++]!;
    bytes += Math.max(0, (job.size ?? 0) - job.fromOffset);
  }
  return i;
}

/** The extract worker of one run: it loads, says it is ready, then reads the jobs it is told to. */
class ExtractThread {
  state: "starting" | "ready" | "failed" = "starting";
  /** True once the worker is ready; false if it failed to load. */
  readonly ready: Promise<boolean>;
  private onReply: (msg: ExtractWorkerReply) => void = () => undefined;
  private onError: (err: Error) => void = () => undefined;

  static start(script: URL, data: ExtractWorkerData): ExtractThread | undefined {
    const here = import.meta.url;
    const boot = script.pathname.endsWith(".ts") ? new URL("../platform/workerBoot.mjs", here) : script;
    try {
      return new ExtractThread(new Worker(boot, { workerData: data }));
    } catch {
      return undefined;
    }
  }

  private constructor(private readonly worker: Worker) {
    this.ready = new Promise<boolean>((resolve) => {
      worker.on("message", (msg: ExtractWorkerReply) => {
        if (msg.type === "ready") {
          this.state = "ready";
          resolve(true);
        } else this.onReply(msg);
      });
      const fail = (err: Error): void => {
        if (this.state === "starting") {
          // Failing before it is ready means the worker could not load: the caller reads instead.
          this.state = "failed";
          resolve(false);
        } else this.onError(err);
      };
      worker.on("error", fail);
      worker.on("exit", (code) => fail(new Error(`extract worker exited (code ${code})`)));
    });
  }

  /**
   * Starts reading jobs `from`.. on the worker. Its chunks wait, unacknowledged (so the worker
   * stops at its in-flight bound), until `deliver()`; then each goes through `sink` in order.
   * `done` settles once every chunk did, or with the first error.
   */
  read(from: number, sink: (c: PackedChunk) => void): { readonly done: Promise<void>; deliver(): void } {
    const waiting: PackedChunk[] = [];
    let delivering = false;
    let finished = false;
    let settled = false;
    let settle: (err?: Error) => void = () => undefined;
    const done = new Promise<void>((resolve, reject) => {
      settle = (err) => {
        if (settled) return;
        settled = true;
        if (err) reject(err);
        else resolve();
      };
    });
    const drain = (): void => {
      while (delivering && !settled && waiting.length > 0) {
        try {
          sink(waiting.shift()!);
        } catch (err) {
          settle(err as Error);
          return;
        }
        this.worker.postMessage({ type: "ack", count: 1 });
      }
      if (delivering && finished) settle();
    };
    // Handled here too: a caller whose own reading failed never awaits it.
    done.catch(() => undefined);
    // A worker that sent everything may exit before its chunks are delivered.
    this.onError = (err) => {
      if (!finished) settle(err);
    };
    this.onReply = (msg) => {
      if (msg.type === "chunk") waiting.push(msg.chunk);
      else if (msg.type === "done") finished = true;
      else if (msg.type === "error") settle(Object.assign(new Error(msg.message), msg.code !== undefined ? { code: msg.code } : {}));
      drain();
    };
    this.worker.postMessage({ type: "start", from });
    return {
      done,
      deliver: () => {
        delivering = true;
        drain();
      },
    };
  }

  stop(): void {
    this.onReply = () => undefined;
    this.onError = () => undefined;
    void this.worker.terminate();
  }
}

function defaultEntry(): URL {
  const here = import.meta.url;
  return new URL(here.endsWith(".ts") ? "./extractWorker.ts" : "./extractWorker.js", here);
}

// Messages between the store's thread and its extract worker (extractWorker.ts).
import type { PackedChunk } from "./chunkWire.js";
import type { FileJob } from "./extractFile.js";

export interface ExtractWorkerData {
  readonly jobs: readonly FileJob[];
  readonly chunkBytes: number;
  readonly maxInFlight: number;
  /** The module the bootstrap imports (a .ts file under tsx, a .js file when built). */
  readonly entry: string;
}

export type ExtractWorkerMessage =
  /** Read the jobs from this index on (the ones before were read on the store's thread). */
  | { readonly type: "start"; readonly from: number }
  | { readonly type: "ack"; readonly count: number };

export type ExtractWorkerReply =
  | { readonly type: "ready" }
  | { readonly type: "chunk"; readonly chunk: PackedChunk }
  | { readonly type: "done" }
  | { readonly type: "error"; readonly message: string; readonly code?: string };

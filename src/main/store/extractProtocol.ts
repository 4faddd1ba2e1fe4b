// Messages between the store's thread and its extract worker (extractWorker.ts).
import type { WireChunk } from "./chunkWire.js";
import type { FileJob } from "./extractFile.js";

export interface ExtractWorkerData {
  readonly jobs: readonly FileJob[];
  readonly chunkBytes: number;
  readonly maxInFlight: number;
  /** The module the bootstrap imports (a .ts file under tsx, a .js file when built). */
  readonly entry: string;
}

export type ExtractWorkerMessage = { readonly type: "ack"; readonly count: number };

export type ExtractWorkerReply =
  | { readonly type: "chunk"; readonly chunk: WireChunk }
  | { readonly type: "done" }
  | { readonly type: "error"; readonly message: string; readonly code?: string };

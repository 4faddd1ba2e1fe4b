// Messages between the store's thread and its extract worker (extractWorker.ts).
import type { PackedChunk } from "./chunkWire.js";
import type { FileJob } from "./extractFile.js";

export interface ExtractWorkerData {
  readonly jobs: readonly FileJob[];
  readonly chunkBytes: number;
  readonly maxInFlight: number;
  /** The module the bootstrap imports (a .ts file under tsx, a .js file when built). */
  readonly entry: string;
  /** The side index this run may write (sideIndex.ts); none: every row goes to the writer. */
  readonly side?: SideTarget;
}

/** When the extract worker writes a chunk's rows into the side index itself. */
export type DivertPolicy = "lagging" | "always";

export interface SideTarget {
  readonly path: string;
  /** better-sqlite3's binary for this runtime (Electron's in the app). */
  readonly nativeBinding?: string;
  /** The run's reserved rowids: from..to-1. */
  readonly from: number;
  readonly to: number;
  /** "lagging": while the writer has half the in-flight bound or more to write; "always": tests. */
  readonly divert: DivertPolicy;
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

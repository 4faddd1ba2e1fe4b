// How a chunk's rows reach the store's thread. Cloning every row's text as a string cost both
// threads time, and the store's thread (the slower of the two: it writes the full-text index) also
// collected those strings afterwards. So the texts travel as one transferred UTF-8 buffer, and the
// writer binds each row's bytes as they are (FTS5 reads a bound blob as text); the rows' places
// travel already encoded as file_rows stores them (rowPlaces.ts). Runs read on the store's own
// thread pack their chunks the same way, so the writer has one input.
import type { FileChunk } from "./extractFile.js";
import { encodePlaces } from "./rowPlaces.js";

/** A chunk's rows, packed. */
export interface PackedRows {
  readonly count: number;
  /** Every row's text as UTF-8; row i's bytes end at `ends[i]`. */
  readonly texts: Uint8Array;
  readonly ends: Uint32Array;
  /** Row places as `file_rows.places` (rowPlaces.ts), relative to the base offset and line. */
  readonly places: Uint8Array;
  readonly baseOffset: number;
  readonly baseLine: number;
}

export type PackedChunk = FileChunk<PackedRows>;

const encoder = new TextEncoder();

/** The chunk packed, and the buffers to transfer when posting it. */
export function packChunk(chunk: FileChunk): { packed: PackedChunk; transfer: ArrayBuffer[] } {
  const rows = chunk.batch.rows;
  let size = 0;
  for (const r of rows) size += Buffer.byteLength(r.text);
  const texts = new Uint8Array(size);
  const ends = new Uint32Array(rows.length);
  let at = 0;
  for (let i = 0; i < rows.length; i++) {
    at += encoder.encodeInto(rows[i]!.text, texts.subarray(at)).written;
    ends[i] = at;
  }
  const { places, baseOffset, baseLine } = encodePlaces(rows);
  const packed: PackedRows = { count: rows.length, texts, ends, places, baseOffset, baseLine };
  return {
    packed: { ...chunk, batch: { ...chunk.batch, rows: packed } },
    transfer: [texts.buffer, ends.buffer, places.buffer],
  };
}

// How a chunk's rows reach the store's thread. Cloning every row's text as a string cost both
// threads time, and the store's thread (the slower of the two: it writes the full-text index) also
// collected those strings afterwards. So the texts travel as one transferred UTF-8 buffer, and the
// writer binds each row's bytes as they are (FTS5 reads a bound blob as text); the rows' places
// travel already encoded as file_rows stores them (rowPlaces.ts). Runs read on the store's own
// thread pack their chunks the same way, so the writer has one input.
//
// Packing is also where a row becomes what the full-text index is given: a long text its pieces
// (textPieces.ts), each with CJK runs as their pairs (shared/searchTokens.ts).
import type Database from "better-sqlite3";
import type { FileChunk } from "./extractFile.js";
import { encodePlaces } from "./rowPlaces.js";
import { pieceBounds, PIECE_CHARS } from "./textPieces.js";
import { ftsText } from "../../shared/searchTokens.js";

/** A chunk's rows, packed: an entry per piece of each row's text (one for nearly every row). */
export interface PackedRows {
  /** Entries, each a row of the full-text index. */
  readonly count: number;
  /** Every entry's text as UTF-8, as the index is given it; entry i's bytes end at `ends[i]`. */
  readonly texts: Uint8Array;
  readonly ends: Uint32Array;
  /** Row places as `file_rows.places` (rowPlaces.ts), relative to the base offset and line. */
  readonly places: Uint8Array;
  readonly baseOffset: number;
  readonly baseLine: number;
  /**
   * Set when the extract worker wrote these rows into the side index itself (sideIndex.ts), as
   * rowids `sideLo`..: the texts are then left out, and the writer records only where they are.
   */
  readonly sideLo?: number;
}

export type PackedChunk = FileChunk<PackedRows>;

const encoder = new TextEncoder();

/** The chunk packed, and the buffers to transfer when posting it. */
export function packChunk(chunk: FileChunk): { packed: PackedChunk; transfer: ArrayBuffer[] } {
  const rows = chunk.batch.rows;
  const entries: string[] = [];
  let pieces: number[] | undefined;
  for (let i = 0; i < rows.length; i++) {
    const text = rows[i]!.text;
    if (text.length <= PIECE_CHARS) {
      entries.push(ftsText(text));
      continue;
    }
    const bounds = pieceBounds(text);
    pieces ??= rows.map(() => 1);
    pieces[i] = bounds.length;
    for (const [from, to] of bounds) entries.push(ftsText(text.slice(from, to)));
  }
  let size = 0;
  for (const e of entries) size += Buffer.byteLength(e);
  const texts = new Uint8Array(size);
  const ends = new Uint32Array(entries.length);
  let at = 0;
  for (let i = 0; i < entries.length; i++) {
    at += encoder.encodeInto(entries[i]!, texts.subarray(at)).written;
    ends[i] = at;
  }
  const { places, baseOffset, baseLine } = encodePlaces(rows, pieces);
  const packed: PackedRows = { count: entries.length, texts, ends, places, baseOffset, baseLine };
  return {
    packed: { ...chunk, batch: { ...chunk.batch, rows: packed } },
    transfer: [texts.buffer, ends.buffer, places.buffer],
  };
}

const NoTexts = new Uint8Array(0);
const NoEnds = new Uint32Array(0);

/** The chunk as sent once its rows are in the side index from `sideLo` on: without its texts. */
export function divertedChunk(chunk: PackedChunk, sideLo: number): PackedChunk {
  const rows: PackedRows = { ...chunk.batch.rows, texts: NoTexts, ends: NoEnds, sideLo };
  return { ...chunk, batch: { ...chunk.batch, rows } };
}

/** Inserts the rows' texts with rowids from `lo` on; `insert` takes (rowid, text). */
export function insertTexts(insert: Database.Statement, lo: number, rows: PackedRows): void {
  const texts = asBuffer(rows.texts);
  let from = 0;
  for (let i = 0; i < rows.count; i++) {
    const to = rows.ends[i]!;
    insert.run(lo + i, texts.subarray(from, to));
    from = to;
  }
}

/** better-sqlite3 binds a Buffer as a blob; a posted Uint8Array arrives as a plain one. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

// How a chunk crosses from the extract worker to the store's thread. Cloning every row's text as a
// string cost both threads time, and the store's thread (the slower of the two: it writes the
// full-text index) also collected those strings afterwards. So the texts travel as one transferred
// UTF-8 buffer, and the writer binds each row's bytes as they are: FTS5 reads a bound blob as text.
import type { FileChunk } from "./extractFile.js";
import type { TextRow } from "./extract.js";

/** A chunk on the wire: its rows' texts moved out into `texts`, row i's bytes ending at `ends[i]`. */
export interface WireChunk {
  readonly chunk: FileChunk;
  readonly texts: ArrayBuffer;
  readonly ends: Uint32Array;
}

const encoder = new TextEncoder();

/** The chunk to post, and what to transfer with it. */
export function packChunk(chunk: FileChunk): { wire: WireChunk; transfer: ArrayBuffer[] } {
  const rows = chunk.batch.rows;
  let size = 0;
  for (const r of rows) size += Buffer.byteLength(r.text);
  const bytes = new Uint8Array(size);
  const ends = new Uint32Array(rows.length);
  let at = 0;
  const bare: TextRow[] = rows.map((r, i) => {
    at += encoder.encodeInto(r.text, bytes.subarray(at)).written;
    ends[i] = at;
    return { ...r, text: "" };
  });
  return { wire: { chunk: { ...chunk, batch: { ...chunk.batch, rows: bare } }, texts: bytes.buffer, ends }, transfer: [bytes.buffer] };
}

/** The chunk as the writer takes it: each row's text is its UTF-8 bytes. */
export function unpackChunk(wire: WireChunk): FileChunk<Uint8Array> {
  const bytes = Buffer.from(wire.texts);
  let from = 0;
  const rows = wire.chunk.batch.rows.map((r, i) => {
    const to = wire.ends[i] as number;
    const row: TextRow<Uint8Array> = { ...r, text: bytes.subarray(from, to) };
    from = to;
    return row;
  });
  return { ...wire.chunk, batch: { ...wire.chunk.batch, rows } };
}

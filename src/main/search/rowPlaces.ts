// Where each indexed row comes from, kept per chunk in `file_rows.places` instead of a table row
// per text row: one insert per chunk instead of one per row was a tenth of a cold index's time.
// Entry i of a chunk (rowid lo + i) is PLACE_BYTES at i * PLACE_BYTES, five little-endian u32:
// its line's byte offset and number past the chunk's base, the event within that line,
// nth * 8 + kind, where nth counts the rows before it that share its line (glued JSON objects make
// one line give several rows with the same event numbers), and which piece of the row's text it
// is (textPieces.ts: a long text is several entries, alike but for this). The first ROW_PLACE_BYTES
// of an entry name its row: search shows a row once however many of its pieces match.
import { ROW_KINDS, type RowKind, type TextRow } from "./extract.js";

export const PLACE_BYTES = 20;
/** The bytes of a place that name its row (all but the piece). */
export const ROW_PLACE_BYTES = 16;
const KIND_BITS = 3;

/** One row's place: enough to read its text back (rowText.ts) and to name it in a hit. */
export interface RowPlace {
  readonly offset: number;
  readonly line: number;
  readonly event: number;
  readonly nth: number;
  readonly kind: RowKind;
  /** Which piece of the row's text (0 for all but long texts). */
  readonly piece: number;
}

export interface EncodedPlaces {
  readonly places: Uint8Array<ArrayBuffer>;
  readonly baseOffset: number;
  readonly baseLine: number;
}

const KIND_CODES = new Map<RowKind, number>(ROW_KINDS.map((k, i) => [k, i]));
const U32 = 2 ** 32;

/** The places of `rows`, row i as `pieces[i]` entries (one each by default). */
export function encodePlaces(rows: readonly TextRow[], pieces?: readonly number[]): EncodedPlaces {
  const baseOffset = rows[0]?.offset ?? 0;
  const baseLine = rows[0]?.line ?? 0;
  const count = pieces === undefined ? rows.length : pieces.reduce((n, p) => n + p, 0);
  const places = new Uint8Array(count * PLACE_BYTES);
  const view = new DataView(places.buffer);
  let nth = 0;
  let at = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const before = rows[i - 1];
    // The project row (line 0) shares the first line's offset, not its line.
    nth = before !== undefined && before.offset === row.offset && before.line === row.line ? nth + 1 : 0;
    const kindAndNth = u32(nth * 2 ** KIND_BITS + KIND_CODES.get(row.kind)!);
    for (let piece = 0; piece < (pieces?.[i] ?? 1); piece++, at += PLACE_BYTES) {
      view.setUint32(at, u32(row.offset - baseOffset), true);
      view.setUint32(at + 4, u32(row.line - baseLine), true);
      view.setUint32(at + 8, u32(row.event), true);
      view.setUint32(at + 12, kindAndNth, true);
      view.setUint32(at + 16, u32(piece), true);
    }
  }
  return { places, baseOffset, baseLine };
}

/** The place stored at `bytes` (PLACE_BYTES long); undefined if they are not one. */
export function decodePlace(bytes: Uint8Array, baseOffset: number, baseLine: number): RowPlace | undefined {
  if (bytes.byteLength !== PLACE_BYTES) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, PLACE_BYTES);
  const last = view.getUint32(12, true);
  const kind = ROW_KINDS[last % 2 ** KIND_BITS];
  if (kind === undefined) return undefined;
  return {
    offset: baseOffset + view.getUint32(0, true),
    line: baseLine + view.getUint32(4, true),
    event: view.getUint32(8, true),
    nth: Math.floor(last / 2 ** KIND_BITS),
    kind,
    piece: view.getUint32(16, true),
  };
}

function u32(n: number): number {
  // A chunk spans at most a few MB of one file; a field this large means a bug, not big input.
  if (!Number.isInteger(n) || n < 0 || n >= U32) throw new RangeError(`row place field out of range: ${n}`);
  return n;
}

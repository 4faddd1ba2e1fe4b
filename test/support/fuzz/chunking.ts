// How a pipe may cut a byte stream into chunks: anywhere, and in particular inside a multi-byte
// UTF-8 character and between the \r and \n of a line end, the cuts a framer most easily gets wrong.

import fc from "fast-check";

/** A cut: anywhere (`at` modulo the length), or at one of the tricky places (`at` modulo their count). */
export interface Cut {
  readonly tricky: boolean;
  readonly at: number;
}

export const cuts: fc.Arbitrary<readonly Cut[]> = fc.oneof(
  fc.array(fc.record({ tricky: fc.boolean(), at: fc.nat() }), { maxLength: 60 }),
  // Byte-sized pieces for a stretch: every cut inside that stretch at once.
  fc.record({ from: fc.nat(), length: fc.integer({ min: 1, max: 400 }) }).map(({ from, length }) =>
    Array.from({ length }, (_, i) => ({ tricky: false, at: from + i })),
  ),
);

/** Offsets that fall inside a UTF-8 character or between \r and \n. */
export function trickyOffsets(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 1; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if ((b & 0xc0) === 0x80 || (b === 0x0a && bytes[i - 1] === 0x0d)) out.push(i);
  }
  return out;
}

/** `bytes` cut at `cutList`: the chunks, in order, together exactly `bytes` (empty chunks included: a read may return none). */
export function chunked(bytes: Buffer, cutList: readonly Cut[], tricky: readonly number[] = trickyOffsets(bytes)): Buffer[] {
  const offsets = cutList
    .map((c) => (c.tricky && tricky.length > 0 ? (tricky[c.at % tricky.length] as number) : c.at % (bytes.length + 1)))
    .sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const at of offsets) {
    out.push(bytes.subarray(from, at));
    from = at;
  }
  out.push(bytes.subarray(from));
  return out;
}

/** LF line ends made CRLF (a file written on Windows). */
export function withCrlf(bytes: Buffer): Buffer {
  return Buffer.from(bytes.toString("latin1").replace(/\n/g, "\r\n"), "latin1");
}

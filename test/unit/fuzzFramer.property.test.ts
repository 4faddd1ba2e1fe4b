// The CLI's stdout reaches Baton in whatever chunks the pipe hands over. Over every recorded file
// (both CLIs' stdout, stdin and history JSONL): any cutting of the bytes, anywhere (inside a UTF-8
// character, between \r and \n, one byte at a time), gives exactly the lines and problems of one
// chunk, also with damaged bytes; and a line over the cap is reported with its size and never held
// beyond the cap. Seeds: test/support/fuzz/settings.ts.

import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLineFramer, type LineFramerOptions } from "../../src/main/cli/lineFramer.js";
import { chunked, cuts, withCrlf } from "../support/fuzz/chunking.js";
import { allJsonlFiles, noteSharedRecordings } from "../support/fuzz/corpus.js";
import { fuzzParameters } from "../support/fuzz/settings.js";

interface Framed {
  readonly lines: readonly (readonly [string, number])[];
  readonly problems: readonly (readonly [string, number, number])[];
  /** The most the framer held for an incomplete line after any push. */
  readonly maxBuffered: number;
}

function frame(chunks: readonly Uint8Array[], options: Pick<LineFramerOptions, "maxLineBytes" | "unterminatedLine"> = {}): Framed {
  const lines: [string, number][] = [];
  const problems: [string, number, number][] = [];
  let maxBuffered = 0;
  const framer = createLineFramer({
    ...options,
    onLine: (text, lineNumber) => lines.push([text, lineNumber]),
    onProblem: (p) => problems.push([p.code, p.lineNumber, p.byteLength]),
  });
  for (const chunk of chunks) {
    framer.push(chunk);
    maxBuffered = Math.max(maxBuffered, framer.stats().bufferedBytes);
  }
  framer.end();
  return { lines, problems, maxBuffered };
}

/** What the framer must make of `bytes` with a cap, worked out line by line without it (the bytes are valid UTF-8). */
function expectedWithCap(bytes: Buffer, cap: number): Omit<Framed, "maxBuffered"> {
  const lines: [string, number][] = [];
  const problems: [string, number, number][] = [];
  const pieces: Buffer[] = [];
  for (let from = 0; from <= bytes.length; ) {
    const nl = bytes.indexOf(0x0a, from);
    pieces.push(bytes.subarray(from, nl === -1 ? bytes.length : nl));
    if (nl === -1) break;
    from = nl + 1;
  }
  if (pieces.at(-1)?.length === 0) pieces.pop(); // the file's last newline ends a line, it starts none
  pieces.forEach((piece, i) => {
    if (piece.length > cap) return problems.push(["line_too_long", i + 1, piece.length]);
    const text = piece.toString("utf8").replace(/\r$/, "");
    if (text !== "" && !/^[ \t][ \t\r]*$/.test(text)) lines.push([text, i + 1]);
  });
  return { lines, problems };
}

const byteDamage = fc.array(
  fc.record({ at: fc.nat(), byte: fc.oneof(fc.constantFrom(0xff, 0xfe, 0xc3, 0xe2, 0xf0, 0x80, 0xbf, 0x0a, 0x0d, 0x00), fc.integer({ min: 0, max: 255 })) }),
  { minLength: 1, maxLength: 10 },
);

const files = allJsonlFiles().map(({ label, file }) => ({ label, bytes: readFileSync(file) }));
noteSharedRecordings("fuzzFramer");

describe.skipIf(files.length === 0)("line framer over every recorded file", () => {
  it("found the recordings of both CLIs", () => {
    expect(files.some((f) => f.label.startsWith("2.1.197/"))).toBe(true);
    expect(files.some((f) => f.label.startsWith("2.1.332/"))).toBe(true);
  });

  it("any chunking of a file, of its CRLF copy and of a byte-damaged copy gives the lines and problems of one chunk", () => {
    fc.assert(
      fc.property(fc.nat(files.length - 1), cuts, byteDamage, (pick, cutList, damage) => {
        const { bytes } = files[pick]!;
        const whole = frame([bytes]);
        expect(whole.problems).toEqual([]);
        expect(frame(chunked(bytes, cutList))).toEqual({ ...whole, maxBuffered: expect.any(Number) });
        const crlf = withCrlf(bytes);
        expect(frame(chunked(crlf, cutList)).lines).toEqual(whole.lines);
        const damaged = Buffer.from(bytes);
        for (const { at, byte } of damage) if (damaged.length > 0) damaged[at % damaged.length] = byte;
        const damagedWhole = frame([damaged]);
        expect(frame(chunked(damaged, cutList))).toEqual({ ...damagedWhole, maxBuffered: expect.any(Number) });
        expect(frame(chunked(damaged, cutList), { unterminatedLine: "report" }).problems).toEqual(frame([damaged], { unterminatedLine: "report" }).problems);
      }),
      fuzzParameters(files.length * 2),
    );
  }, 120_000);

  it("a line over the cap is reported with its line number and size, lines under it still come, and no more than the cap is ever held", () => {
    fc.assert(
      fc.property(fc.nat(files.length - 1), cuts, fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), (pick, cutList, where, crlf) => {
        const bytes = crlf ? withCrlf(files[pick]!.bytes) : files[pick]!.bytes;
        const longest = Math.max(...bytes.toString("latin1").split("\n").map((l) => l.length));
        const cap = Math.max(1, Math.floor(longest * where));
        const framed = frame(chunked(bytes, cutList), { maxLineBytes: cap });
        expect({ lines: framed.lines, problems: framed.problems }).toEqual(expectedWithCap(bytes, cap));
        expect(framed.maxBuffered).toBeLessThanOrEqual(cap);
      }),
      fuzzParameters(files.length * 2),
    );
  }, 120_000);
});

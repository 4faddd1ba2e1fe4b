// The session list's reader of a file's ends (sessionEnds.ts) against the whole-file reader every
// other reader of history uses (jsonlReader.ts), over generated files: lines of every width and
// script, blank, damaged, glued, invalid UTF-8, heavy (passed over), longer than a chunk or than
// the list parses, with or without a last newline. Whatever it reads, the head is the file's first
// records and the tail its last, in order; a file it calls whole it read exactly as the whole-file
// reader does, damage counted alike.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isHeavyLine } from "../../src/main/history/heavyLines.js";
import { readAllJsonl } from "../../src/main/history/jsonlReader.js";
import { HeadBytes, ListLineBytes, readSessionEnds, TailBytes, WholeBytes } from "../../src/main/history/sessionEnds.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-list-reader-", "all");

const words = ["plain words ", "déjà vu ", "分析这个项目 ", "🎼 ", "\\u2028 ", "quote \" and \\\\ back ", "\t"];
const text = (units: number, seed: number): string => Array.from({ length: units }, (_, i) => words[(seed + i * 7) % words.length]).join("");

/** One line of the file, as bytes without its newline. */
const line = fc.oneof(
  { weight: 12, arbitrary: fc.record({ units: fc.integer({ min: 0, max: 400 }), seed: fc.nat() }).map(({ units, seed }) => Buffer.from(JSON.stringify({ type: "user", message: { content: text(units, seed) } }))) },
  // Longer than the 256 KB the list reads at once and parses in a line.
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 600 }).map((kb) => Buffer.from(JSON.stringify({ type: "assistant", text: "x".repeat(kb * 1024) }))) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 2000 }).map((kb) => Buffer.from(JSON.stringify({ type: "api-request", body: "y".repeat(kb * 1024) }))) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }).map((kb) => Buffer.from(JSON.stringify({ parentUuid: null, attachment: { type: "prompt_snapshot", s: "z".repeat(kb * 1024) }, type: "attachment" }))) },
  { weight: 1, arbitrary: fc.constantFrom("", "   ", "not json", "[1,2]", '{"a":1}{"b":2}', "\uFEFF{\"type\":\"bom\"}", '{"cut":').map((s) => Buffer.from(s)) },
  { weight: 1, arbitrary: fc.constant(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])) },
);

const file = fc.record({ lines: fc.array(line, { minLength: 1, maxLength: 60 }), lastNewline: fc.boolean(), filler: fc.integer({ min: 0, max: 3000 }) });

describe("the session list's reader of a file's ends", () => {
  it("reads the first and last records exactly as the whole-file reader does", { timeout: 300_000 }, async () => {
    const dir = tempDir();
    let n = 0;
    let whole = 0;
    let partial = 0;
    await fc.assert(
      fc.asyncProperty(file, async ({ lines, lastNewline, filler }) => {
        // Ordinary lines between the generated ones push some files past what the list reads.
        const body = [...lines.slice(0, 1), ...Array.from({ length: filler }, (_, i) => Buffer.from(JSON.stringify({ type: "user", i, pad: "p".repeat(300) }))), ...lines.slice(1)];
        const bytes = Buffer.concat(body.flatMap((b, i) => (i < body.length - 1 || lastNewline ? [b, Buffer.from("\n")] : [b])));
        const f = path.join(dir, `f${n++}.jsonl`);
        fs.writeFileSync(f, bytes);
        const ends = await readSessionEnds(f);
        const { records, result } = await readAllJsonl(f);
        const all = records.map((r) => r.value);
        expect(ends.size).toBe(bytes.length);
        expect(ends.head).toEqual(all.slice(0, ends.head.length));
        expect(ends.tail).toEqual(ends.tail.length === 0 ? [] : all.slice(-ends.tail.length));
        const bad = (s: typeof result.stats): number => s.invalidUtf8 + s.notJson + s.notObject + s.truncated;
        // A file read whole parses every line; of a bigger one, a line longer than the list parses ends its end.
        const tooLong = bytes.length > WholeBytes && body.some((b) => b.length > ListLineBytes && !isHeavyLine(b));
        if (ends.whole) {
          whole++;
          expect([...ends.head, ...ends.tail]).toEqual(all);
          expect(bad(ends.stats)).toBe(bad(result.stats));
          expect(tooLong).toBe(false);
        } else {
          partial++;
          expect(ends.head.length + ends.tail.length).toBeLessThanOrEqual(all.length);
        }
        fs.rmSync(f);
      }),
      { numRuns: 40, seed: 33 },
    );
    // Both kinds of file were generated.
    expect(whole).toBeGreaterThan(5);
    expect(partial).toBeGreaterThan(5);
  });

  it("hands the tail the head's end as a byte offset, however wide the characters before it", async () => {
    const dir = tempDir();
    const f = path.join(dir, "wide.jsonl");
    // A heavy line first makes the file too big to read whole; then a little more than HeadBytes
    // of characters, three bytes each: the head stops partway (it counts characters), the tail
    // (counting bytes) reads the rest back to it.
    const heavy = JSON.stringify({ type: "api-request", body: "y".repeat(WholeBytes) });
    const lines = Array.from({ length: 420 }, (_, i) => JSON.stringify({ type: "user", i, text: "分析这个项目".repeat(25) }));
    const chars = lines.join("\n").length;
    expect(chars).toBeGreaterThan(HeadBytes * 1.05);
    expect((chars - HeadBytes) * 3).toBeLessThan(TailBytes);
    fs.writeFileSync(f, `${heavy}\n${lines.join("\n")}\n`);
    const ends = await readSessionEnds(f);
    expect(ends.head.length).toBeLessThan(lines.length);
    expect(ends.whole).toBe(true);
    expect([...ends.head, ...ends.tail].map((v) => v["i"])).toEqual(lines.map((_, i) => i));
    expect(ends.stats.notJson + ends.stats.invalidUtf8).toBe(0);
  });
});

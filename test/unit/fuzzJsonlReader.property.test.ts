// The history reader's line splitter (jsonlReader.ts) over every recorded JSONL file of both CLIs,
// as recorded and damaged (lines lost, repeated or damaged, bytes flipped, the file cut off): any
// read size gives the records, line numbers, offsets, counts and problems of one big read, the
// lines of a type Baton never reads (heavyLines.ts, told from their first bytes) included; and a
// file read in two goes, as a followed file that grows is (stopping where a line is cut, going on
// from the offset it returned), gives the same records as one read. Seeds: test/support/fuzz/settings.ts.

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readJsonlSync, type JsonlRecord, type ReadJsonlOptions, type ReadJsonlResult } from "../../src/main/history/jsonlReader.js";
import { allJsonlFiles, noteSharedRecordings } from "../support/fuzz/corpus.js";
import { corrupt, editLines, lineEdit } from "../support/fuzz/corruption.js";
import { fuzzParameters } from "../support/fuzz/settings.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-fuzz-jsonl-", "all");
const files = allJsonlFiles().map(({ label, file }) => ({ label, text: readFileSync(file, "utf8") }));
noteSharedRecordings("fuzzJsonlReader");

interface Read {
  readonly records: readonly Seen[];
  readonly result: ReadJsonlResult;
}

/** What a record is, without walking its value: a damaged line may nest 100,000 deep (the reader keeps it; restore cuts it). */
interface Seen {
  readonly lineNumber: number;
  readonly offset: number;
  readonly heavyBytesBefore?: number;
  readonly type: string;
  readonly keys: string;
}

function seen({ value, lineNumber, offset, heavyBytesBefore }: JsonlRecord): Seen {
  return { lineNumber, offset, ...(heavyBytesBefore === undefined ? {} : { heavyBytesBefore }), type: typeof value["type"] === "string" ? value["type"] : typeof value["type"], keys: Object.keys(value).join() };
}

function read(file: string, options: Omit<ReadJsonlOptions, "onRecord">): Read {
  const records: Seen[] = [];
  const result = readJsonlSync(file, { ...options, onRecord: (r) => void records.push(seen(r)) });
  return { records, result };
}

/** A file's text damaged: line edits, bytes flipped, maybe cut off. */
const damage = fc.record({
  edits: fc.array(lineEdit, { maxLength: 5 }),
  bytes: fc.array(fc.record({ at: fc.nat(), byte: fc.oneof(fc.constantFrom(0xff, 0xc3, 0x80, 0x0a, 0x7b, 0x7d, 0x22), fc.integer({ min: 0, max: 255 })) }), { maxLength: 4 }),
  cutAt: fc.option(fc.nat(), { nil: undefined }),
});

function damaged(text: string, d: typeof damage extends fc.Arbitrary<infer T> ? T : never): Buffer {
  const lines = text.split("\n");
  const ended = lines.at(-1) === "";
  if (ended) lines.pop();
  const bytes = Buffer.from(editLines(lines, d.edits, corrupt).join("\n") + (ended ? "\n" : ""));
  for (const { at, byte } of d.bytes) if (bytes.length > 0) bytes[at % bytes.length] = byte;
  return d.cutAt === undefined ? bytes : bytes.subarray(0, d.cutAt % (bytes.length + 1));
}

describe.skipIf(files.length === 0)("history line reader over every recorded file", () => {
  const dir = tempDir();
  const file = path.join(dir, "session.jsonl");

  it("any read size gives what one read gives, damaged or not, heavy lines included", () => {
    fc.assert(
      fc.property(fc.nat(files.length - 1), fc.boolean(), damage, fc.integer({ min: 1, max: 5000 }), fc.boolean(), (pick, damageIt, d, chunkBytes, keepHeavy) => {
        const bytes = damageIt ? damaged(files[pick]!.text, d) : Buffer.from(files[pick]!.text);
        writeFileSync(file, bytes);
        const whole = read(file, { final: true, keepHeavy });
        expect(read(file, { final: true, keepHeavy, chunkBytes })).toEqual(whole);
        if (!damageIt && !keepHeavy) expect(whole.result.problems).toEqual([]);
      }),
      fuzzParameters(files.length * 2),
    );
  }, 120_000);

  it("a file read in two goes, as it grows, gives the records of one read", () => {
    fc.assert(
      fc.property(fc.nat(files.length - 1), damage, fc.nat(), fc.integer({ min: 1, max: 5000 }), (pick, d, split, chunkBytes) => {
        const bytes = damaged(files[pick]!.text, d);
        writeFileSync(file, bytes);
        const whole = read(file, { final: true });
        // What a follower sees: the file up to `split` (a line it cuts is left for later), then the rest.
        const first = read(file, { end: split % (bytes.length + 1), chunkBytes });
        const rest = read(file, { offset: first.result.nextOffset, firstLineNumber: first.result.nextLineNumber, final: true, chunkBytes });
        const plain = (records: readonly Seen[]) => records.map(({ heavyBytesBefore: _, ...rest }) => rest);
        expect(plain([...first.records, ...rest.records])).toEqual(plain(whole.records));
        expect(rest.result.nextOffset).toBe(whole.result.nextOffset);
        const bad = (r: ReadJsonlResult) => r.stats.notJson + r.stats.notObject + r.stats.invalidUtf8 + r.stats.truncated + r.stats.tooLong;
        expect(bad(first.result) + bad(rest.result)).toBe(bad(whole.result));
      }),
      fuzzParameters(files.length * 2),
    );
  }, 120_000);
});

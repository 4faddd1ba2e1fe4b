import { appendFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { readJsonl, readJsonlSync, type JsonlRecord, type ReadJsonlOptions, type ReadJsonlResult } from "../../src/main/history/jsonlReader.js";
import { splitConcatenatedJson } from "../../src/main/history/splitJson.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-jsonl-");
let dir: string;
beforeEach(() => {
  dir = tempDir();
});

type Reader = (file: string, options: ReadJsonlOptions) => Promise<ReadJsonlResult> | ReadJsonlResult;

// The index's extract worker reads with blocking reads; everything else awaits. Both must read alike.
describe.each<[string, Reader]>([
  ["readJsonl", readJsonl],
  ["readJsonlSync", readJsonlSync],
])("%s", (_name, reader) => {
  async function read(file: string, opts: { offset?: number; final?: boolean; maxLineBytes?: number; chunkBytes?: number } = {}) {
    const records: JsonlRecord[] = [];
    const result = await reader(file, { ...opts, onRecord: (r) => void records.push(r) });
    return { records, result, values: records.map((r) => r.value) };
  }

  it("reads complete lines across chunk boundaries and reports where to continue", async () => {
    const file = path.join(dir, "a.jsonl");
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ n: i, pad: "x".repeat(i * 3), text: "héllo ✓" }));
    writeFileSync(file, `${lines.join("\n")}\n`);
    const { values, result } = await read(file, { chunkBytes: 7 });
    expect(values.map((v) => v["n"])).toEqual(lines.map((_, i) => i));
    expect(values[3]?.["text"]).toBe("héllo ✓");
    expect(result.nextOffset).toBe(result.size);
    expect(result.nextLineNumber).toBe(51);
  });

  it("holds back a half-written last line, then reads it once, whole, after the rest is appended", async () => {
    const file = path.join(dir, "growing.jsonl");
    const full = JSON.stringify({ type: "assistant", text: "complete line" });
    writeFileSync(file, `${JSON.stringify({ n: 1 })}\n${full.slice(0, 20)}`);
    const first = await read(file);
    expect(first.values).toEqual([{ n: 1 }]);
    expect(first.result.stats.notJson + first.result.stats.truncated).toBe(0);

    appendFileSync(file, `${full.slice(20)}\n`);
    const second = await read(file, { offset: first.result.nextOffset });
    expect(second.values).toEqual([JSON.parse(full)]);
    const third = await read(file, { offset: second.result.nextOffset });
    expect(third.values).toEqual([]);
  });

  it("parses an unterminated last line when the file is final, and counts a truncated one", async () => {
    const good = path.join(dir, "nfn.jsonl");
    writeFileSync(good, `{"a":1}\n{"b":2}`);
    expect((await read(good, { final: true })).values).toEqual([{ a: 1 }, { b: 2 }]);
    const cut = path.join(dir, "cut.jsonl");
    writeFileSync(cut, `{"a":1}\n{"b":2, "c": "unfini`);
    const { values, result } = await read(cut, { final: true });
    expect(values).toEqual([{ a: 1 }]);
    expect(result.stats.truncated).toBe(1);
    expect(result.problems[0]?.reason).toBe("truncated");
  });

  it("splits two JSON objects glued on one line and uses both", async () => {
    const file = path.join(dir, "glued.jsonl");
    writeFileSync(file, `{"type":"assistant","t":"a}{b"}{"type":"summary","summary":"s"}\n{"n":3}\n`);
    const { values, result } = await read(file);
    expect(values).toEqual([{ type: "assistant", t: "a}{b" }, { type: "summary", summary: "s" }, { n: 3 }]);
    expect(result.stats.glued).toBe(1);
  });

  it("reads the same lines, text and problems whatever the chunk size: multi-byte text, a BOM, one invalid line", async () => {
    const file = path.join(dir, "mixed.jsonl");
    const good = (i: number): Buffer => Buffer.from(`${JSON.stringify({ n: i, text: `ünïcödé ✓ 日本語 ${"z".repeat(i * 7)} 🎉` })}\n`);
    const invalid = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe6, 0x97, 0x22, 0x7d, 0x0a]); // a cut-off 3-byte character
    const lines = [Buffer.from([0xef, 0xbb, 0xbf]), good(0), good(1), good(2), invalid, ...Array.from({ length: 40 }, (_, i) => good(i + 3))];
    writeFileSync(file, Buffer.concat(lines));
    const expected = [0, 1, 2, ...Array.from({ length: 40 }, (_, i) => i + 3)];
    for (const chunkBytes of [5, 7, 64, 333, 4096, undefined]) {
      const { values, result } = await read(file, chunkBytes === undefined ? {} : { chunkBytes });
      expect(values.map((v) => v["n"])).toEqual(expected);
      expect(values.every((v) => String(v["text"]).startsWith("ünïcödé ✓ 日本語 ") && String(v["text"]).endsWith(" 🎉"))).toBe(true);
      expect(result.problems.map((p) => [p.reason, p.lineNumber])).toEqual([["invalid_utf8", 4]]);
      expect(result.nextOffset).toBe(result.size);
    }
  });

  it("skips and counts invalid UTF-8, non-JSON, non-object and over-long lines; ignores blank lines", async () => {
    const file = path.join(dir, "bad.jsonl");
    const long = JSON.stringify({ big: "y".repeat(5000) });
    const bytes = Buffer.concat([
      Buffer.from(`{"ok":1}\n\n   \n`),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]),
      Buffer.from(`not json at all\n[1,2]\n${long}\n{"ok":2}\r\n`),
    ]);
    writeFileSync(file, bytes);
    const { values, result } = await read(file, { maxLineBytes: 1000, chunkBytes: 64 });
    expect(values).toEqual([{ ok: 1 }, { ok: 2 }]);
    expect(result.stats).toMatchObject({ invalidUtf8: 1, notJson: 1, notObject: 1, tooLong: 1, blank: 2, records: 2 });
    expect(result.problems.map((p) => [p.reason, p.lineNumber])).toEqual([
      ["invalid_utf8", 4],
      ["not_json", 5],
      ["not_object", 6],
      ["too_long", 7],
    ]);
  });

  it("stops early when the consumer has seen enough, continuing after the last line handled", async () => {
    const file = path.join(dir, "head.jsonl");
    writeFileSync(file, `{"n":1}\n{"n":2}\n{"n":3}\n`);
    const seen: number[] = [];
    const result = await reader(file, { onRecord: ({ value }) => (seen.push(value["n"] as number), seen.length < 2) });
    expect(seen).toEqual([1, 2]);
    const rest = await read(file, { offset: result.nextOffset });
    expect(rest.values).toEqual([{ n: 3 }]);
  });
});

describe("splitConcatenatedJson", () => {
  it("refuses text that is not a run of whole JSON values", () => {
    expect(splitConcatenatedJson(`{"a":1}`)).toBeUndefined();
    expect(splitConcatenatedJson(`{"a":1}x{"b":2}`)).toBeUndefined();
    expect(splitConcatenatedJson(`{"a":1}{"b":`)).toBeUndefined();
    expect(splitConcatenatedJson(`{"a":"\\"}{"}{"b":2}`)).toEqual([{ a: '"}{' }, { b: 2 }]);
  });
});

import { describe, expect, it } from "vitest";
import { createLineFramer, type LineFramerOptions, type LineProblem } from "../../src/main/cli/lineFramer.js";

interface Collected {
  readonly lines: { text: string; lineNumber: number }[];
  readonly problems: LineProblem[];
}

function framer(options: Partial<Omit<LineFramerOptions, "onLine" | "onProblem">> = {}) {
  const out: Collected = { lines: [], problems: [] };
  const f = createLineFramer({
    ...options,
    onLine: (text, lineNumber) => out.lines.push({ text, lineNumber }),
    onProblem: (p) => out.problems.push(p),
  });
  return { f, out };
}

const bytes = (s: string) => Buffer.from(s, "utf8");

describe("lineFramer", () => {
  it("holds partial lines until their newline arrives", () => {
    const { f, out } = framer();
    f.push(bytes('{"a":'));
    expect(out.lines).toEqual([]);
    f.push(bytes('1}\n{"b"'));
    expect(out.lines).toEqual([{ text: '{"a":1}', lineNumber: 1 }]);
    f.push(bytes(":2}"));
    f.push(bytes("\n"));
    expect(out.lines.map((l) => l.text)).toEqual(['{"a":1}', '{"b":2}']);
    expect(out.problems).toEqual([]);
  });

  it("emits several lines from one chunk with their line numbers", () => {
    const { f, out } = framer();
    f.push(bytes("one\ntwo\nthree\n"));
    expect(out.lines).toEqual([
      { text: "one", lineNumber: 1 },
      { text: "two", lineNumber: 2 },
      { text: "three", lineNumber: 3 },
    ]);
  });

  it("decodes a multibyte character split at every byte offset", () => {
    const text = '{"t":"héllo → 世界 🎼 end"}';
    const data = bytes(`${text}\n${text}\n`);
    for (let cut = 0; cut <= data.length; cut++) {
      const { f, out } = framer();
      f.push(data.subarray(0, cut));
      f.push(data.subarray(cut));
      expect(out.lines.map((l) => l.text), `cut at ${cut}`).toEqual([text, text]);
      expect(out.problems).toEqual([]);
    }
  });

  it("decodes correctly when fed one byte at a time", () => {
    const text = "🎼 ok ü";
    const data = bytes(`${text}\n`);
    const { f, out } = framer();
    for (let i = 0; i < data.length; i++) f.push(data.subarray(i, i + 1));
    expect(out.lines.map((l) => l.text)).toEqual([text]);
  });

  it("tolerates CRLF line endings, also when \\r and \\n land in different chunks", () => {
    const { f, out } = framer();
    f.push(bytes("a\r\nb\r"));
    f.push(bytes("\nc\n"));
    expect(out.lines.map((l) => l.text)).toEqual(["a", "b", "c"]);
  });

  it("ignores blank lines but still counts them", () => {
    const { f, out } = framer();
    f.push(bytes("\n\r\n   \nx\n\t\ny\n"));
    expect(out.lines).toEqual([
      { text: "x", lineNumber: 4 },
      { text: "y", lineNumber: 6 },
    ]);
    expect(out.problems).toEqual([]);
  });

  it("skips a 20 MB line without keeping it, counts and reports it, and keeps the following lines", () => {
    const { f, out } = framer();
    f.push(bytes("before\n"));
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const chunks = Math.ceil((20 * 1024 * 1024) / chunk.length);
    let maxBuffered = 0;
    for (let i = 0; i < chunks; i++) {
      f.push(chunk);
      maxBuffered = Math.max(maxBuffered, f.stats().bufferedBytes);
    }
    f.push(bytes("tail\nafter\n"));
    expect(out.lines).toEqual([
      { text: "before", lineNumber: 1 },
      { text: "after", lineNumber: 3 },
    ]);
    expect(out.problems).toHaveLength(1);
    const problem = out.problems[0]!;
    expect(problem.code).toBe("line_too_long");
    expect(problem.lineNumber).toBe(2);
    expect(problem.byteLength).toBe(chunks * chunk.length + 4);
    expect(problem.excerpt.startsWith("aaaa")).toBe(true);
    expect(problem.excerpt.length).toBeLessThanOrEqual(200);
    // Never holds more than the cap (16 MiB) of the line, and nothing once it is dropped.
    expect(maxBuffered).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(f.stats()).toEqual({ lines: 3, skippedLines: 1, bufferedBytes: 0 });
  });

  it("applies a configurable cap, also to a line within a single chunk", () => {
    const { f, out } = framer({ maxLineBytes: 10 });
    f.push(bytes("short\n0123456789ABC\nok\n0123456789\n"));
    expect(out.lines.map((l) => l.text)).toEqual(["short", "ok", "0123456789"]);
    expect(out.problems.map((p) => [p.code, p.lineNumber, p.byteLength])).toEqual([["line_too_long", 2, 13]]);
  });

  it("reports an over-long line split across chunks with its full size and first bytes", () => {
    const { f, out } = framer({ maxLineBytes: 8 });
    f.push(bytes("ok\nabcdef"));
    f.push(bytes("ghij"));
    f.push(bytes("klm\nnext\n"));
    expect(out.lines.map((l) => l.text)).toEqual(["ok", "next"]);
    expect(out.problems).toEqual([
      expect.objectContaining({ code: "line_too_long", lineNumber: 2, byteLength: 13, excerpt: "abcdef" }),
    ]);
  });

  it("reports invalid UTF-8 and skips only that line", () => {
    const { f, out } = framer();
    const bad = Buffer.concat([bytes('{"x":"'), Buffer.from([0xff, 0xfe, 0xc3]), bytes('"}\n')]);
    f.push(bytes("good1\n"));
    f.push(bad);
    f.push(bytes("good2\n"));
    expect(out.lines).toEqual([
      { text: "good1", lineNumber: 1 },
      { text: "good2", lineNumber: 3 },
    ]);
    expect(out.problems).toEqual([
      expect.objectContaining({ code: "invalid_utf8", lineNumber: 2, byteLength: bad.length - 1 }),
    ]);
    expect(out.problems[0]!.excerpt.startsWith('{"x":"')).toBe(true);
  });

  it("passes a genuine U+FFFD character but rejects overlong and surrogate encodings", () => {
    const { f, out } = framer();
    f.push(bytes("ok \uFFFD here\n"));
    f.push(Buffer.from([0x61, 0xc0, 0x80, 0x0a])); // overlong NUL
    f.push(Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x0a])); // UTF-16 surrogate
    f.push(bytes("é\n"));
    expect(out.lines).toEqual([
      { text: "ok \uFFFD here", lineNumber: 1 },
      { text: "é", lineNumber: 4 },
    ]);
    expect(out.problems.map((p) => [p.code, p.lineNumber])).toEqual([
      ["invalid_utf8", 2],
      ["invalid_utf8", 3],
    ]);
  });

  it("parses an unterminated last line at end by default", () => {
    const { f, out } = framer();
    f.push(bytes("a\nlast"));
    expect(out.lines.map((l) => l.text)).toEqual(["a"]);
    f.end();
    expect(out.lines).toEqual([
      { text: "a", lineNumber: 1 },
      { text: "last", lineNumber: 2 },
    ]);
  });

  it("reports an unterminated last line when asked to", () => {
    const { f, out } = framer({ unterminatedLine: "report" });
    f.push(bytes('a\n{"cut'));
    f.end();
    expect(out.lines.map((l) => l.text)).toEqual(["a"]);
    expect(out.problems).toEqual([expect.objectContaining({ code: "unterminated_line", lineNumber: 2, excerpt: '{"cut' })]);
  });

  it("reports an over-long unterminated last line at end", () => {
    const { f, out } = framer({ maxLineBytes: 4 });
    f.push(bytes("abcdefgh"));
    f.end();
    expect(out.lines).toEqual([]);
    expect(out.problems).toEqual([expect.objectContaining({ code: "line_too_long", lineNumber: 1, byteLength: 8 })]);
  });

  it("end with nothing pending emits nothing, and refuses later pushes", () => {
    const { f, out } = framer();
    f.push(bytes("a\n"));
    f.end();
    f.end();
    expect(out.lines).toHaveLength(1);
    expect(out.problems).toEqual([]);
    expect(() => f.push(bytes("b\n"))).toThrow(/after end/);
  });

  it("does not depend on the caller keeping its chunk unchanged", () => {
    const { f, out } = framer();
    const chunk = bytes("hello wor");
    f.push(chunk);
    chunk.fill(0x78);
    f.push(bytes("ld\n"));
    expect(out.lines.map((l) => l.text)).toEqual(["hello world"]);
  });

  it("accepts plain Uint8Array chunks", () => {
    const { f, out } = framer();
    f.push(new TextEncoder().encode("ü\n"));
    expect(out.lines.map((l) => l.text)).toEqual(["ü"]);
  });
});

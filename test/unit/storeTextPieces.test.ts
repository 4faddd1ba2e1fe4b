// A long text is indexed whole, in overlapping pieces (textPieces.ts): every word, every short
// phrase and every CJK pair of it lies whole in some piece, cuts fall at line ends where they can,
// and search shows the text once, its snippet cut from the piece that matched.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PIECE_CHARS, PIECE_OVERLAP, pieceBounds, pieceOf } from "../../src/main/search/textPieces.js";
import { tokenize } from "../../src/shared/searchTokens.js";
import { StoreService } from "../../src/main/store/storeService.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-pieces-");

function logText(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `line ${i}: step ${i % 13} of build ${i % 7} finished`).join("\n");
}
/** One long line without white space, as minified JSON is. */
function minified(bytes: number): string {
  let out = "";
  for (let i = 0; out.length < bytes; i++) out += `{"key_${i}":"value_${i % 31}","n":${i}},`;
  return out;
}
function cjkRun(chars: number): string {
  const cps = [..."請先分析這個專案的結構然後寫測試データベースを移行する데이터베이스를분석합니다𠀀𠀁"];
  return Array.from({ length: chars }, (_, i) => cps[(i * 7) % cps.length]).join("");
}

/** Checks what every cut must keep, and returns the bounds. */
function checkedBounds(text: string): [number, number][] {
  const bounds = pieceBounds(text);
  expect(bounds[0]![0]).toBe(0);
  expect(bounds.at(-1)![1]).toBe(text.length);
  for (let i = 0; i < bounds.length; i++) {
    const [start, end] = bounds[i]!;
    expect(end - start).toBeLessThanOrEqual(PIECE_CHARS);
    expect(end).toBeGreaterThan(start);
    // Never between the halves of a surrogate pair.
    for (const at of [start, end]) if (at > 0 && at < text.length) expect(text.charCodeAt(at) >= 0xdc00 && text.charCodeAt(at) <= 0xdfff).toBe(false);
    if (i > 0) expect(bounds[i - 1]![1] - start).toBeGreaterThanOrEqual(PIECE_OVERLAP);
    expect(pieceOf(text, i)).toBe(text.slice(start, end));
  }
  expect(pieceOf(text, bounds.length)).toBeUndefined();
  return bounds;
}

/** Every word of the whole text lies whole in some piece, and is a word of that piece too. */
function expectWordsKept(text: string, bounds: readonly [number, number][]): void {
  const inPieces = new Set(bounds.flatMap(([s, e]) => tokenize(text.slice(s, e)).map((t) => `${t.start + s}:${t.folded}`)));
  const missing = tokenize(text).map((t) => `${t.start}:${t.folded}`).filter((key) => !inPieces.has(key));
  expect(missing).toEqual([]);
}

describe("pieces of a long text", () => {
  it("a text up to PIECE_CHARS is one piece, itself", () => {
    const text = "x".repeat(PIECE_CHARS);
    expect(pieceBounds(text)).toEqual([[0, PIECE_CHARS]]);
    expect(pieceOf(text, 0)).toBe(text);
  });

  it("a long log is cut at line ends, and every word is whole in some piece", () => {
    const text = logText(20_000);
    const bounds = checkedBounds(text);
    expect(bounds.length).toBeGreaterThan(20);
    for (const [start, end] of bounds) {
      if (start > 0) expect(text[start - 1]).toBe("\n");
      if (end < text.length) expect(text[end - 1]).toBe("\n");
    }
    expectWordsKept(text, bounds);
  });

  it("a line without white space is cut between words; a CJK run anywhere, its pairs kept in the overlap", () => {
    for (const text of [minified(200_000), cjkRun(60_000), `${minified(30_000)}${cjkRun(30_000)}${logText(2000)}`]) {
      expectWordsKept(text, checkedBounds(text));
    }
  });

  it("any stretch of text up to PIECE_OVERLAP characters lies whole in some piece (a phrase across a cut is found)", () => {
    const text = logText(5000);
    const bounds = checkedBounds(text);
    for (let at = 0; at + PIECE_OVERLAP <= text.length; at += 97) {
      expect(bounds.some(([s, e]) => s <= at && at + PIECE_OVERLAP <= e), String(at)).toBe(true);
    }
  });
});

describe("search over a long output", () => {
  it("finds a phrase wherever it falls, shows the output once, its snippet from the piece that matched", async () => {
    const dir = tempDir();
    const projects = path.join(dir, "projects");
    const file = path.join(projects, "-home-user-code-x", "s1.jsonl");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const text = logText(60_000);
    const [, firstEnd] = pieceBounds(text)[0]!;
    // A phrase across the first cut (after a line's end): that line, then the next one's first words.
    const lastLine = text.slice(0, firstEnd - 1).split("\n").at(-1)!;
    const across = `${lastLine} line ${text.slice(0, firstEnd).split("\n").length - 1}`;
    const line = (type: string, content: unknown, uuid: string) =>
      JSON.stringify({ type, message: { role: type === "user" ? "user" : "assistant", content }, uuid, timestamp: "2026-01-01T00:00:00.000Z", sessionId: "s1", cwd: "/home/user/code/x" });
    fs.writeFileSync(
      file,
      [
        line("assistant", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "make" } }], "u1"),
        line("user", [{ type: "tool_result", tool_use_id: "t1", content: text }], "u2"),
      ].join("\n") + "\n",
    );
    const store = new StoreService({ dbPath: path.join(dir, "h.db") });
    try {
      const report = await store.index(projects);
      expect(report.rowsTotal).toBeGreaterThan(pieceBounds(text).length);
      const phrase = store.search(`"${across}"`);
      expect(phrase).toHaveLength(1);
      expect(phrase[0]!.snippet.replace(/\s+/g, " ")).toContain(`«${across}»`);
      // A word in every piece: one hit.
      expect(store.search("finished", { limit: 100 }).filter((h) => h.kind === "tool_output")).toHaveLength(1);
      const last = store.search('"line 59999"');
      expect(last).toMatchObject([{ kind: "tool_output", ref: "2#0" }]);
      expect(last[0]!.snippet).toContain("«line 59999»: step");
    } finally {
      store.close();
    }
  });
});

// A structured patch into the rows a person reads: line numbers on both sides, word highlights
// inside a changed line, CRLF lines, the no-newline note, and a bound on what is built.
import { describe, expect, it } from "vitest";
import { hunkHeader, type DiffRow } from "../../src/shared/diff/diffModel.js";
import { hunkRows, MaxRows } from "../../src/shared/diff/diffRows.js";
import { pairSegments } from "../../src/shared/diff/wordSegments.js";

/** A row as `<old> <new> <marker><text>`, blanks where a side has no number. */
function show(row: DiffRow): string {
  const marker = row.kind === "added" ? "+" : row.kind === "removed" ? "-" : row.kind === "note" ? "\\" : " ";
  return `${row.oldLine ?? "."} ${row.newLine ?? "."} ${marker}${row.text}`;
}

describe("rows of a structured patch", () => {
  it("numbers an appending Edit's rows from the CLI's hunk (2.1.332's patch for old 'six\\n' → 'six\\nseven\\neight\\n')", () => {
    const rows = hunkRows([{ oldStart: 4, newStart: 4, lines: [" four", " five", " six", "+seven", "+eight"] }], { numbered: true });
    expect(rows.added).toBe(2);
    expect(rows.removed).toBe(0);
    const [hunk] = rows.hunks;
    expect(hunkHeader(hunk!)).toBe("@@ -4,3 +4,5 @@");
    expect(hunk!.rows.map(show)).toEqual(["4 4  four", "5 5  five", "6 6  six", ". 7 +seven", ". 8 +eight"]);
  });

  it("numbers a replaced line on both sides and keeps counting after it", () => {
    const rows = hunkRows([{ oldStart: 1, newStart: 1, lines: [" one", " two", "-three", "+THREE", "+three and a half", " four"] }], { numbered: true });
    expect(rows.hunks[0]!.rows.map(show)).toEqual(["1 1  one", "2 2  two", "3 . -three", ". 3 +THREE", ". 4 +three and a half", "4 5  four"]);
    expect(hunkHeader(rows.hunks[0]!)).toBe("@@ -1,4 +1,5 @@");
  });

  it("shifts every number by the part of the file the hunks are of", () => {
    const rows = hunkRows([{ oldStart: 2, newStart: 2, lines: [" b", "+c"] }], { numbered: true, lineOffset: 40 });
    expect(rows.hunks[0]!.rows.map(show)).toEqual(["42 42  b", ". 43 +c"]);
    expect(hunkHeader(rows.hunks[0]!)).toBe("@@ -42 +42,2 @@");
  });

  it("leaves numbers out of a snippet diff", () => {
    const rows = hunkRows([{ oldStart: 1, newStart: 1, lines: [" a", "+b"] }], { numbered: false });
    expect(rows.hunks[0]!.rows.map(show)).toEqual([". .  a", ". . +b"]);
    expect(hunkHeader(rows.hunks[0]!)).toBe("@@ @@");
  });

  it("names an empty side by the line before it, as diff text does, whether from a structured patch or from text", () => {
    const structured = hunkRows([{ oldStart: 1, newStart: 1, lines: ["+a", "+b"] }], { numbered: true });
    expect(hunkHeader(structured.hunks[0]!)).toBe("@@ -0,0 +1,2 @@");
    const fromText = hunkRows([{ oldStart: 0, newStart: 1, lines: ["+a", "+b"] }], { numbered: true, fromText: true });
    expect(hunkHeader(fromText.hunks[0]!)).toBe("@@ -0,0 +1,2 @@");
    expect(fromText.hunks[0]!.rows.map(show)).toEqual([". 1 +a", ". 2 +b"]);
  });

  it("keeps the no-newline note as a note, numbered on neither side", () => {
    const rows = hunkRows([{ oldStart: 1, newStart: 1, lines: ["-a", "\\ No newline at end of file", "+a"] }], { numbered: true });
    expect(rows.hunks[0]!.rows.map(show)).toEqual(["1 . -a", ". . \\ No newline at end of file", ". 1 +a"]);
  });

  it("takes a CRLF line's carriage return off its text, and says so when only the line ending changed", () => {
    // 2.1.332's patch of an Edit that turned "a\nb" into "a\nb\r\nc".
    const rows = hunkRows([{ oldStart: 1, newStart: 1, lines: [" a", "-b", "+b\r", "+c"] }], { numbered: true });
    const [ctx, removed, added, extra] = rows.hunks[0]!.rows;
    expect(ctx).toEqual({ kind: "context", oldLine: 1, newLine: 1, text: "a" });
    expect(removed).toMatchObject({ kind: "removed", text: "b", eolChanged: true });
    expect(removed!.cr).toBeUndefined();
    expect(added).toMatchObject({ kind: "added", text: "b", cr: true, eolChanged: true });
    expect(extra).toEqual({ kind: "added", newLine: 3, text: "c" });
  });

  it("does not mark the line endings of a CRLF file where they did not change", () => {
    const rows = hunkRows([{ oldStart: 1, newStart: 1, lines: [" a\r", "-b = 1\r", "+b = 2\r", " c\r"] }], { numbered: true });
    const r = rows.hunks[0]!.rows;
    expect(r.map((x) => x.text)).toEqual(["a", "b = 1", "b = 2", "c"]);
    expect(r.every((x) => x.cr === true && x.eolChanged === undefined)).toBe(true);
    expect(r[1]!.segments).toEqual([{ text: "b = ", changed: false }, { text: "1", changed: true }]);
  });

  it("builds at most MaxRows rows and counts the rest", () => {
    const lines = Array.from({ length: MaxRows + 25 }, (_, i) => `+line ${i}`);
    const rows = hunkRows([{ oldStart: 1, newStart: 1, lines }], { numbered: true });
    expect(rows.hunks[0]!.rows).toHaveLength(MaxRows);
    expect(rows.hiddenRows).toBe(25);
    expect(rows.added).toBe(MaxRows + 25);
    expect(rows.hunks[0]!.newLines).toBe(MaxRows + 25);
  });
});

describe("word highlights", () => {
  it("marks the changed words of a replaced line and nothing else", () => {
    const rows = hunkRows([{ oldStart: 7, newStart: 7, lines: ["-const total = price * count;", "+const total = price * quantity;"] }], { numbered: true });
    const [removed, added] = rows.hunks[0]!.rows;
    expect(removed!.segments).toEqual([{ text: "const total = price * ", changed: false }, { text: "count", changed: true }, { text: ";", changed: false }]);
    expect(added!.segments).toEqual([{ text: "const total = price * ", changed: false }, { text: "quantity", changed: true }, { text: ";", changed: false }]);
  });

  it("pairs runs line by line; an added line without a partner has no highlight", () => {
    const rows = hunkRows([{ oldStart: 1, newStart: 1, lines: ["-let a = 1;", "+let a = 2;", "+let b = 3;"] }], { numbered: true });
    const r = rows.hunks[0]!.rows;
    expect(r[0]!.segments?.filter((s) => s.changed).map((s) => s.text)).toEqual(["1"]);
    expect(r[1]!.segments?.filter((s) => s.changed).map((s) => s.text)).toEqual(["2"]);
    expect(r[2]!.segments).toBeUndefined();
  });

  it("gives no highlight to lines that have almost nothing in common", () => {
    expect(pairSegments("import fs from 'node:fs';", "}")).toBeUndefined();
    expect(pairSegments("alpha beta gamma", "delta epsilon zeta")).toBeUndefined();
  });

  it("skips lines too long to compare word by word", () => {
    const long = "x ".repeat(1500);
    expect(pairSegments(long, `${long}y`)).toBeUndefined();
  });
});

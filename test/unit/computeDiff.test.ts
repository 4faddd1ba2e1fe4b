// Diffs computed with jsdiff when the CLI gave no patch: minimal for an append, an insert and a
// replace, numbered as the file is, a new file as every line added, a snippet without numbers,
// and inputs past the bounds answered "too large" quickly instead of freezing the window.
import { describe, expect, it } from "vitest";
import { hunkHeader, type DiffRow, type FileDiffView } from "../../src/shared/diff/diffModel.js";
import { computedView, lineCount, MaxDiffChars, MaxDiffLines, MaxEditLines, newFileView, snippetView } from "../../src/shared/diff/computeDiff.js";

const lines = (n: number, from = 1): string => Array.from({ length: n }, (_, i) => `line ${i + from}\n`).join("");

function show(row: DiffRow): string {
  const marker = row.kind === "added" ? "+" : row.kind === "removed" ? "-" : row.kind === "note" ? "\\" : " ";
  return `${row.oldLine ?? "."} ${row.newLine ?? "."} ${marker}${row.text}`;
}

const changed = (view: FileDiffView): string[] => view.hunks.flatMap((h) => h.rows.filter((r) => r.kind !== "context").map(show));

describe("computed diffs", () => {
  it("shows an append as the added lines only, numbered after the last old line", () => {
    const before = lines(40);
    const view = computedView(before, `${before}${lines(10, 41)}`);
    expect(view.source).toBe("computed");
    expect([view.added, view.removed]).toEqual([10, 0]);
    expect(changed(view)).toEqual(Array.from({ length: 10 }, (_, i) => `. ${41 + i} +line ${41 + i}`));
    expect(view.hunks.map(hunkHeader)).toEqual(["@@ -38,3 +38,13 @@"]);
  });

  it("shows an insert in the middle as the inserted lines only", () => {
    const view = computedView(lines(20), `${lines(10)}new a\nnew b\n${lines(10, 11)}`);
    expect([view.added, view.removed]).toEqual([2, 0]);
    expect(changed(view)).toEqual([". 11 +new a", ". 12 +new b"]);
    expect(view.hunks.map(hunkHeader)).toEqual(["@@ -8,6 +8,8 @@"]);
  });

  it("shows a replaced line as one removed and one added, with the word that changed", () => {
    const before = "a\nb\nconst limit = 10;\nc\nd\n";
    const view = computedView(before, before.replace("10", "20"));
    expect(changed(view)).toEqual(["3 . -const limit = 10;", ". 3 +const limit = 20;"]);
    const added = view.hunks[0]!.rows.find((r) => r.kind === "added")!;
    expect(added.segments?.filter((s) => s.changed).map((s) => s.text)).toEqual(["20"]);
  });

  it("keeps two distant changes in two hunks", () => {
    const before = lines(30);
    const view = computedView(before, before.replace("line 3\n", "line three\n").replace("line 27\n", "line twenty-seven\n"));
    expect(view.hunks).toHaveLength(2);
    expect(view.hunks.map(hunkHeader)).toEqual(["@@ -1,6 +1,6 @@", "@@ -24,7 +24,7 @@"]);
  });

  it("numbers a diff of part of a file as the file is", () => {
    const view = computedView("x\ny\n", "x\ny\nz\n", 99);
    expect(changed(view)).toEqual([". 102 +z"]);
  });

  it("marks only the changed line of a CRLF file, and a line whose ending changed", () => {
    const before = "one\r\ntwo\r\nthree\r\n";
    const view = computedView(before, "one\r\nTWO\r\nthree\r\n");
    expect(changed(view)).toEqual(["2 . -two", ". 2 +TWO"]);
    const eol = computedView("a\nb\nc\n", "a\nb\r\nc\n");
    const rows = eol.hunks[0]!.rows.filter((r) => r.kind !== "context");
    expect(rows.map((r) => [r.kind, r.text, r.cr === true, r.eolChanged === true])).toEqual([
      ["removed", "b", false, true],
      ["added", "b", true, true],
    ]);
  });

  it("notes a last line without a newline", () => {
    const view = computedView("a\nb", "a\nb\nc");
    expect(view.hunks[0]!.rows.map(show)).toEqual(["1 1  a", "2 . -b", ". . \\ No newline at end of file", ". 2 +b", ". 3 +c", ". . \\ No newline at end of file"]);
  });

  it("draws a new file as every line added, numbered from 1", () => {
    const view = newFileView("hello\nworld\n");
    expect(view.source).toBe("new-file");
    expect(view.hunks.map(hunkHeader)).toEqual(["@@ -0,0 +1,2 @@"]);
    expect(view.hunks[0]!.rows.map(show)).toEqual([". 1 +hello", ". 2 +world"]);
    expect(newFileView("", "written")).toMatchObject({ source: "written", added: 0, hunks: [] });
  });

  it("counts every line of a huge new file and builds only the first rows", () => {
    const view = newFileView(lines(25_000));
    expect(view.added).toBe(25_000);
    expect(view.hunks[0]!.rows.length + (view.hiddenRows ?? 0)).toBe(25_000);
  });

  it("diffs an edit's own texts without line numbers when the file is unknown", () => {
    const view = snippetView([{ before: "six\n", after: "six\nseven\neight\n" }]);
    expect(view.source).toBe("snippet");
    expect(view.hunks[0]!.rows.map(show)).toEqual([". .  six", ". . +seven", ". . +eight"]);
    expect(view.hunks.map(hunkHeader)).toEqual(["@@ @@"]);
  });

  it("reads a snippet as cut from a file that goes on: no note of a missing last newline", () => {
    const view = snippetView([{ before: "no such text", after: "x" }]);
    expect(view.hunks[0]!.rows.map(show)).toEqual([". . -no such text", ". . +x"]);
  });
});

describe("bounds", () => {
  it("answers 'too large' for a side past the character bound, with both sizes", () => {
    const huge = "x".repeat(MaxDiffChars + 1);
    const view = computedView("small\n", huge);
    expect(view.source).toBe("too-large");
    expect(view.tooLarge).toEqual({ oldLines: 1, newLines: 1 });
    expect(view.hunks).toEqual([]);
  });

  it("answers 'too large' for a side past the line bound", () => {
    const view = computedView(lines(MaxDiffLines + 1), "a\n");
    expect(view).toMatchObject({ source: "too-large", tooLarge: { oldLines: MaxDiffLines + 1, newLines: 1 } });
  });

  it("answers 'too large' when more lines changed than the edit bound, without taking long", () => {
    const before = Array.from({ length: MaxEditLines * 2 }, (_, i) => `a${i}\n`).join("");
    const after = Array.from({ length: MaxEditLines * 2 }, (_, i) => `b${i}\n`).join("");
    const started = performance.now();
    const view = computedView(before, after);
    expect(view.source).toBe("too-large");
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("still diffs a large file with a small change", () => {
    const before = lines(30_000);
    const view = computedView(before, before.replace("line 15000\n", "line 15000\nline 15000.5\n"));
    expect(changed(view)).toEqual([". 15001 +line 15000.5"]);
  });

  it("counts lines as an editor does", () => {
    expect([lineCount(""), lineCount("a"), lineCount("a\n"), lineCount("a\nb"), lineCount("\n\n")]).toEqual([0, 1, 1, 2, 2]);
  });
});

// A file change as a person reads it: hunks of rows, each row with its line number on either side
// and, inside a changed line, which words changed. Built from the CLI's structured patch or
// computed with jsdiff (diffRows.ts, computeDiff.ts); drawn by renderer/transcript/diff.

/** A unified diff hunk: its first line on each side and its lines with their markers. */
export interface PatchHunk {
  readonly oldStart: number;
  readonly newStart: number;
  /** Each line with its marker: " " context, "-" removed, "+" added, "\\" a no-newline note. */
  readonly lines: readonly string[];
}

export type RowKind = "context" | "removed" | "added" | "note";

/** A piece of a changed line: `changed` marks the words that differ from its counterpart. */
export interface Segment {
  readonly text: string;
  readonly changed: boolean;
}

export interface DiffRow {
  readonly kind: RowKind;
  /** The line's number before the change; absent on added rows, notes, and when numbers are unknown. */
  readonly oldLine?: number;
  /** The line's number after the change; absent on removed rows, notes, and when numbers are unknown. */
  readonly newLine?: number;
  /** The line without its marker and without a carriage return at its end. */
  readonly text: string;
  /** The line ended with a carriage return (a CRLF line). */
  readonly cr?: boolean;
  /** A changed line paired with its counterpart, cut into changed and unchanged words. */
  readonly segments?: readonly Segment[];
  /** Paired with a line of the same text and another line ending: the ending is what changed. */
  readonly eolChanged?: boolean;
}

export interface DiffHunkView {
  /** Absent when the line numbers are not known (a snippet diff). */
  readonly oldStart?: number;
  readonly oldLines: number;
  readonly newStart?: number;
  readonly newLines: number;
  readonly rows: readonly DiffRow[];
}

/**
 * Where a diff came from:
 * - `patch`: the tool result's structured patch (the CLI's own);
 * - `computed`: jsdiff against the file as the transcript last showed it;
 * - `snippet`: only the edit's old and new text, the file unknown (no line numbers);
 * - `new-file`: a file created, every line added;
 * - `written`: a file replaced whose earlier content the transcript never showed;
 * - `too-large`: past the bounds of computeDiff.ts.
 */
export type DiffSource = "patch" | "computed" | "snippet" | "new-file" | "written" | "too-large";

export interface FileDiffView {
  readonly source: DiffSource;
  readonly hunks: readonly DiffHunkView[];
  readonly added: number;
  readonly removed: number;
  /** Lines past the rows built (diffRows.ts MaxRows), counted but not shown. */
  readonly hiddenRows?: number;
  /** For `too-large`: the sizes it gave up on, in lines. */
  readonly tooLarge?: { readonly oldLines: number; readonly newLines: number };
}

/** `@@ -4,3 +4,5 @@`, or `@@ @@` when the numbers are unknown. */
export function hunkHeader(h: DiffHunkView): string {
  if (h.oldStart === undefined || h.newStart === undefined) return "@@ @@";
  return `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`;
}

function range(start: number, count: number): string {
  return count === 1 ? String(start) : `${start},${count}`;
}

// Unified diff hunks (the CLI's structured patch, or jsdiff's) into rows a person reads: each line
// with its number on either side, a carriage return taken off and remembered, and each removed
// line paired with the added line that replaced it for word highlights. Bounded: past MaxRows the
// rest is counted, not built, since a history file may hold a patch of a million lines.

import type { DiffHunkView, DiffRow, FileDiffView, PatchHunk } from "./diffModel.js";
import { pairSegments } from "./wordSegments.js";

/** Rows built at most per diff. */
export const MaxRows = 10_000;

/** Pairs compared word by word at most per diff. */
const MaxWordPairs = 1000;

export interface RowOptions {
  /** Whether the hunks' line numbers are the file's; false for a snippet diff. */
  readonly numbered: boolean;
  /** Added to every line number: the hunks are of a part of the file that starts after this many lines. */
  readonly lineOffset?: number;
  /**
   * The hunks were read from diff text (`git diff`), where an empty side names the line before it
   * (`-0,0`); a structured patch (jsdiff's, the CLI's) names the line after it.
   */
  readonly fromText?: boolean;
}

export interface HunkRows {
  readonly hunks: readonly DiffHunkView[];
  readonly added: number;
  readonly removed: number;
  /** Lines past MaxRows, counted but not built. */
  readonly hiddenRows: number;
}

export function hunkRows(hunks: readonly PatchHunk[], options: RowOptions): HunkRows {
  const offset = options.lineOffset ?? 0;
  let budget = MaxRows;
  let pairs = MaxWordPairs;
  let added = 0;
  let removed = 0;
  let hiddenRows = 0;
  const views: DiffHunkView[] = [];
  for (const hunk of hunks) {
    let oldLine = hunk.oldStart + offset;
    let newLine = hunk.newStart + offset;
    const rows: DiffRow[] = [];
    let oldLines = 0;
    let newLines = 0;
    for (const line of hunk.lines) {
      const marker = line[0];
      const kind = marker === "+" ? "added" : marker === "-" ? "removed" : marker === "\\" ? "note" : "context";
      if (kind === "added") added++;
      if (kind === "removed") removed++;
      if (kind !== "added" && kind !== "note") oldLines++;
      if (kind !== "removed" && kind !== "note") newLines++;
      if (budget <= 0) {
        hiddenRows++;
        continue;
      }
      budget--;
      rows.push(rowOf(kind, line.slice(1), options.numbered, kind === "added" || kind === "note" ? undefined : oldLine, kind === "removed" || kind === "note" ? undefined : newLine));
      if (kind !== "added" && kind !== "note") oldLine++;
      if (kind !== "removed" && kind !== "note") newLine++;
    }
    if (rows.length === 0) continue;
    pairs -= pairWords(rows, pairs);
    views.push({
      // Headers follow diff text: an empty side names the line before it (`@@ -0,0 +1,3 @@`).
      ...(options.numbered ? { oldStart: textStart(hunk.oldStart, oldLines, options) + offset, newStart: textStart(hunk.newStart, newLines, options) + offset } : {}),
      oldLines,
      newLines,
      rows,
    });
  }
  return { hunks: views, added, removed, hiddenRows };
}

/** A view of hunk rows with its source. */
export function viewOf(source: FileDiffView["source"], rows: HunkRows): FileDiffView {
  return { source, hunks: rows.hunks, added: rows.added, removed: rows.removed, ...(rows.hiddenRows > 0 ? { hiddenRows: rows.hiddenRows } : {}) };
}

function textStart(start: number, lines: number, options: RowOptions): number {
  return lines === 0 && options.fromText !== true ? Math.max(0, start - 1) : start;
}

function rowOf(kind: DiffRow["kind"], raw: string, numbered: boolean, oldLine: number | undefined, newLine: number | undefined): DiffRow {
  const cr = kind !== "note" && raw.endsWith("\r");
  return {
    kind,
    ...(numbered && oldLine !== undefined ? { oldLine } : {}),
    ...(numbered && newLine !== undefined ? { newLine } : {}),
    text: cr ? raw.slice(0, -1) : raw,
    ...(cr ? { cr } : {}),
  };
}

/**
 * Pairs each run of removed rows with the run of added rows right after it, line by line, and
 * cuts each pair into changed and unchanged words. A pair whose only difference is the line
 * ending says so (`eolChanged`). Returns how many pairs it compared.
 */
function pairWords(rows: DiffRow[], budget: number): number {
  let compared = 0;
  let i = 0;
  while (i < rows.length && compared < budget) {
    if (rows[i]!.kind !== "removed") {
      i++;
      continue;
    }
    const removedFrom = i;
    while (i < rows.length && rows[i]!.kind === "removed") i++;
    const addedFrom = i;
    while (i < rows.length && rows[i]!.kind === "added") i++;
    const count = Math.min(addedFrom - removedFrom, i - addedFrom);
    for (let k = 0; k < count && compared < budget; k++, compared++) {
      const before = rows[removedFrom + k]!;
      const after = rows[addedFrom + k]!;
      if (before.text === after.text) {
        if (before.cr !== after.cr) {
          rows[removedFrom + k] = { ...before, eolChanged: true };
          rows[addedFrom + k] = { ...after, eolChanged: true };
        }
        continue;
      }
      const segments = pairSegments(before.text, after.text);
      if (segments === undefined) continue;
      rows[removedFrom + k] = { ...before, segments: segments.removed };
      rows[addedFrom + k] = { ...after, segments: segments.added };
    }
  }
  return compared;
}

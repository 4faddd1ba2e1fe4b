// A diff computed with jsdiff (structuredPatch) when the CLI gave none: the file as the transcript
// last showed it against the file after the change. Bounded, because it runs in the window and a
// transcript may hold files of any size: past MaxDiffChars or MaxDiffLines a side, or more than
// MaxEditLines lines changed (jsdiff's maxEditLength), or DiffTimeoutMs, the answer is "too large".

import { structuredPatch } from "diff";
import type { FileDiffView, PatchHunk } from "./diffModel.js";
import { hunkRows, MaxRows, viewOf } from "./diffRows.js";

export const MaxDiffChars = 2_000_000;
export const MaxDiffLines = 40_000;
/** Lines added plus lines removed at most: Myers' cost grows with it. */
export const MaxEditLines = 2_000;
/** A last bound for the machine's sake; the bounds above keep ordinary inputs far below it. */
const DiffTimeoutMs = 1_500;

/** Context lines around a change, as the CLI's own patches have. */
const ContextLines = 3;

export type ComputedHunks = { readonly ok: true; readonly hunks: readonly PatchHunk[] } | { readonly ok: false; readonly oldLines: number; readonly newLines: number };

/** The hunks that turn `before` into `after` with `context` lines around each change, or the sizes it gave up on. */
export function computeHunks(before: string, after: string, context = ContextLines): ComputedHunks {
  const tooLarge = { ok: false as const, oldLines: lineCount(before), newLines: lineCount(after) };
  if (before.length > MaxDiffChars || after.length > MaxDiffChars) return tooLarge;
  if (tooLarge.oldLines > MaxDiffLines || tooLarge.newLines > MaxDiffLines) return tooLarge;
  const patch = structuredPatch("", "", before, after, undefined, undefined, { context, maxEditLength: MaxEditLines, timeout: DiffTimeoutMs });
  if (patch === undefined) return tooLarge;
  return { ok: true, hunks: patch.hunks };
}

/**
 * The view of a change computed from the file before and after it. `lineOffset`: both texts are a
 * part of the file that starts after that many lines (a Read of lines 40–80).
 */
export function computedView(before: string, after: string, lineOffset = 0): FileDiffView {
  const computed = computeHunks(before, after);
  if (!computed.ok) return tooLargeView(computed.oldLines, computed.newLines);
  return viewOf("computed", hunkRows(computed.hunks, { numbered: true, lineOffset }));
}

/** A new file: every line added, numbered from 1 (nothing to compute, so any size is drawn up to MaxRows). */
export function newFileView(content: string, source: "new-file" | "written" = "new-file"): FileDiffView {
  const total = lineCount(content);
  const rows = hunkRows([{ oldStart: 0, newStart: 1, lines: addedLines(content) }], { numbered: true, fromText: true });
  const built = rows.added;
  return viewOf(source, { ...rows, added: total, hiddenRows: rows.hiddenRows + total - built });
}

/** Only the edits' texts, the file unknown: a diff of each snippet, without line numbers. */
export function snippetView(pairs: readonly { readonly before: string; readonly after: string }[]): FileDiffView {
  const hunks: PatchHunk[] = [];
  for (const { before, after } of pairs) {
    // Every line of both snippets, the unchanged ones too: they are what tells where the change is.
    // A snippet is cut from a file that goes on: its last line is not the file's.
    const computed = computeHunks(withNewline(before), withNewline(after), Number.MAX_SAFE_INTEGER);
    if (!computed.ok) return tooLargeView(computed.oldLines, computed.newLines);
    hunks.push(...computed.hunks);
  }
  return viewOf("snippet", hunkRows(hunks, { numbered: false }));
}

/** The text with a newline at its end, unless empty or already there. */
export function withNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

export function tooLargeView(oldLines: number, newLines: number): FileDiffView {
  return { source: "too-large", hunks: [], added: 0, removed: 0, tooLarge: { oldLines, newLines } };
}

/** Lines as a text editor counts them: a last line without a newline counts, an empty text has none. */
export function lineCount(text: string): number {
  if (text === "") return 0;
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n : n + 1;
}

/** `+` lines of a whole text, the no-newline note after a last line without one; at most MaxRows built. */
function addedLines(content: string): string[] {
  if (content === "") return [];
  const lines: string[] = [];
  let from = 0;
  while (from < content.length && lines.length < MaxRows) {
    const end = content.indexOf("\n", from);
    if (end === -1) {
      lines.push(`+${content.slice(from)}`, "\\ No newline at end of file");
      return lines;
    }
    lines.push(`+${content.slice(from, end)}`);
    from = end + 1;
  }
  return lines;
}

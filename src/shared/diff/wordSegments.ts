// Word-level highlights inside a changed line: the removed line and the added line that replaced
// it are compared word by word (jsdiff's diffWordsWithSpace), so a renamed variable stands out in a
// long line. Lines too long, or too different for the highlight to help, get none.

import { diffWordsWithSpace } from "diff";
import type { Segment } from "./diffModel.js";

/** Longer lines are not compared word by word (minified code, data). */
export const MaxWordLineChars = 2000;

/** Below this share of unchanged characters the lines are unrelated: a highlight of everything says nothing. */
const MinCommonShare = 0.25;

/** Words changed at most, per pair: the comparison gives up past it. */
const MaxWordEdits = 400;

export interface PairSegments {
  readonly removed: readonly Segment[];
  readonly added: readonly Segment[];
}

/** The two lines cut into changed and unchanged pieces, or undefined when a highlight would not help. */
export function pairSegments(removed: string, added: string): PairSegments | undefined {
  if (removed.length > MaxWordLineChars || added.length > MaxWordLineChars) return undefined;
  if (removed === added || removed.length === 0 || added.length === 0) return undefined;
  const changes = diffWordsWithSpace(removed, added, { maxEditLength: MaxWordEdits });
  if (changes === undefined) return undefined;
  let common = 0;
  for (const c of changes) if (!c.added && !c.removed) common += c.value.length;
  if (common < MinCommonShare * Math.max(removed.length, added.length)) return undefined;
  const before: Segment[] = [];
  const after: Segment[] = [];
  for (const c of changes) {
    if (!c.added) push(before, c.value, c.removed);
    if (!c.removed) push(after, c.value, c.added);
  }
  return { removed: before, added: after };
}

/** Appends a piece, joining it to the last one when both are changed or both unchanged. */
function push(segments: Segment[], text: string, changed: boolean): void {
  if (text === "") return;
  const last = segments[segments.length - 1];
  if (last !== undefined && last.changed === changed) segments[segments.length - 1] = { text: last.text + text, changed };
  else segments.push({ text, changed });
}

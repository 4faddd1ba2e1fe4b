// The command palette's filter: every word of the query must be found in an item's text, as a run
// of letters (best at the start of a word) or else as letters in order ("shhi" finds "Show
// Hierarchy"). Better matches first; equal ones keep the order they were given in (commands, then
// tabs, then past sessions, newest first). Pure, so it is tested without a window.

export interface Match {
  readonly score: number;
  /** The matched characters' indices in the text, ascending: what the palette highlights. */
  readonly marks: readonly number[];
}

export interface Ranked<T> extends Match {
  readonly item: T;
}

const WordStart = 100;
const Inside = 60;
const Scattered = 20;

function isWordStart(text: string, index: number): boolean {
  if (index === 0) return true;
  const before = text[index - 1]!;
  const here = text[index]!;
  return !/[\p{L}\p{N}]/u.test(before) || (/\p{Ll}/u.test(before) && /\p{Lu}/u.test(here));
}

/** One word against the text: undefined when its letters are not all there in order. */
function matchWord(word: string, text: string, lower: string): Match | undefined {
  let at = lower.indexOf(word);
  let inside: number | undefined;
  while (at >= 0) {
    if (isWordStart(text, at)) return { score: WordStart + word.length - at / 100, marks: range(at, word.length) };
    inside ??= at;
    at = lower.indexOf(word, at + 1);
  }
  if (inside !== undefined) return { score: Inside + word.length - inside / 100, marks: range(inside, word.length) };
  return scattered(word, text, lower);
}

/** Letters in order, each at a word start where one still leaves room for the rest, else at its next occurrence. */
function scattered(word: string, text: string, lower: string): Match | undefined {
  const letters = [...word];
  const marks: number[] = [];
  let score = Scattered;
  let from = 0;
  for (const [n, ch] of letters.entries()) {
    const next = lower.indexOf(ch, from);
    if (next < 0) return undefined;
    // A later occurrence at a word start reads better than an earlier one inside a word.
    let pick = next;
    for (let i = next; i >= 0; i = lower.indexOf(ch, i + 1)) {
      if (isWordStart(text, i)) {
        if (inOrder(letters.slice(n + 1), lower, i + ch.length)) pick = i;
        break;
      }
    }
    if (isWordStart(text, pick)) score += 3;
    if (marks.length > 0 && pick === marks[marks.length - 1]! + 1) score += 2;
    score -= (pick - from) / 50;
    for (let k = 0; k < ch.length; k++) marks.push(pick + k);
    from = pick + ch.length;
  }
  return { score, marks };
}

/** Whether the letters occur in this order from `from` on. */
function inOrder(letters: readonly string[], lower: string, from: number): boolean {
  let at = from;
  for (const ch of letters) {
    const next = lower.indexOf(ch, at);
    if (next < 0) return false;
    at = next + ch.length;
  }
  return true;
}

function range(start: number, length: number): number[] {
  return Array.from({ length }, (_, i) => start + i);
}

/** The query against one text: undefined when a word of it is missing. An empty query matches everything with score 0. */
export function matchText(query: string, text: string): Match | undefined {
  const words = query.toLocaleLowerCase().split(/\s+/).filter((w) => w !== "");
  const lower = text.toLocaleLowerCase();
  // Lower-casing keeps the length of nearly every text; where it does not, marks would point wrong.
  const comparable = lower.length === text.length ? lower : text;
  let score = 0;
  const marks = new Set<number>();
  for (const word of words) {
    const m = matchWord(word, text, comparable);
    if (m === undefined) return undefined;
    score += m.score;
    for (const i of m.marks) marks.add(i);
  }
  return { score, marks: [...marks].sort((a, b) => a - b) };
}

/** The items that match, best first (ties in the given order), at most `limit`. */
export function rankItems<T>(query: string, items: readonly T[], textOf: (item: T) => string, limit: number): Ranked<T>[] {
  const ranked: (Ranked<T> & { readonly order: number })[] = [];
  items.forEach((item, order) => {
    const m = matchText(query, textOf(item));
    if (m !== undefined) ranked.push({ item, order, ...m });
  });
  ranked.sort((a, b) => b.score - a.score || a.order - b.order);
  return ranked.slice(0, limit).map(({ item, score, marks }) => ({ item, score, marks }));
}

// A hit's snippet, cut from the row's text: a window of words around the query's matches, each
// match wrapped in markers, with an ellipsis where the window cuts the text. It follows FTS5's
// snippet(): every phrase instance is marked as one span (overlapping ones as one), and the window is the one showing the
// most different phrases, then the most matches, then the earliest.
import type { QueryPhrase } from "../../shared/searchQuery.js";
import { tokenize, type Token } from "../../shared/searchTokens.js";

export interface SnippetMarks {
  readonly open: string;
  readonly close: string;
  readonly ellipsis: string;
}

/** A phrase instance: token indexes [first, last], which phrase, and where its mark ends in the text. */
interface Instance {
  readonly first: number;
  readonly last: number;
  readonly phrase: number;
  readonly end: number;
}

/** Words past this many are not looked at: a snippet comes from the start of a very long text. */
const MaxTokens = 20_000;
/** Matches past this many are not marked or weighed (a common word in a long text). */
const MaxInstances = 300;

/**
 * The snippet of `text` for a query; undefined when no phrase of it occurs there: then the text is
 * not the row that matched (its transcript changed since it was indexed).
 */
export function snippetOf(text: string, phrases: readonly QueryPhrase[], words: number, marks: SnippetMarks): string | undefined {
  const tokens = tokenize(text, MaxTokens);
  const found = instances(tokens, phrases);
  if (found.length === 0) return undefined;
  const [from, to] = window(tokens.length, found, words, phrases.length);
  // The whole text when the window reaches its ends, so nothing around the first and last words is lost.
  const start = from === 0 ? 0 : (tokens[from] as Token).start;
  const end = to === tokens.length ? text.length : (tokens[to - 1] as Token).end;
  // Instances that overlap (a word and a phrase starting with it) are one mark over both.
  const spans: [number, number][] = [];
  for (const i of found) {
    if (i.first < from || i.last >= to) continue;
    const a = (tokens[i.first] as Token).start;
    const last = spans.at(-1);
    if (last !== undefined && a < last[1]) last[1] = Math.max(last[1], i.end);
    else spans.push([a, i.end]);
  }
  let out = from === 0 ? "" : marks.ellipsis;
  let at = start;
  for (const [a, b] of spans) {
    out += text.slice(at, a) + marks.open + text.slice(a, b) + marks.close;
    at = b;
  }
  out += text.slice(at, end);
  return to === tokens.length ? out : out + marks.ellipsis;
}

/** Every instance of every phrase, in text order. */
function instances(tokens: readonly Token[], phrases: readonly QueryPhrase[]): Instance[] {
  const out: Instance[] = [];
  for (let t = 0; t < tokens.length; t++) {
    phrases.forEach((p, phrase) => {
      if (t + p.tokens.length > tokens.length) return;
      for (let k = 0; k < p.tokens.length; k++) {
        const word = (tokens[t + k] as Token).folded;
        const want = p.tokens[k] as string;
        const last = k === p.tokens.length - 1;
        if (!(word === want || (last && p.prefix && word.startsWith(want)))) return;
      }
      const last = tokens[t + p.tokens.length - 1] as Token;
      // One CJK character found as a pair's first half: only that character is the match.
      const end = last.cjk && p.prefix ? last.start + (p.tokens[p.tokens.length - 1] as string).length : last.end;
      out.push({ first: t, last: t + p.tokens.length - 1, phrase, end });
    });
    if (out.length >= MaxInstances) break;
  }
  return out;
}

/** The token range [from, to) to show. */
function window(count: number, found: readonly Instance[], words: number, phraseCount: number): [number, number] {
  if (count <= words) return [0, count];
  let best: [number, number] = [0, words];
  let bestScore = -1;
  for (const i of found) {
    // Centre the instance in the window, inside the text.
    const span = i.last - i.first + 1;
    const from = Math.max(0, Math.min(count - words, i.first - Math.floor((words - span) / 2)));
    const to = from + words;
    const seen = new Set<number>();
    let hits = 0;
    for (const j of found) {
      if (j.first >= from && j.last < to) {
        seen.add(j.phrase);
        hits++;
      }
    }
    const score = seen.size * (found.length + 1) + hits;
    if (score > bestScore) {
      bestScore = score;
      best = [from, to];
    }
    if (seen.size === phraseCount && hits === found.length) break;
  }
  return best;
}

// What a person types into a search box, as phrases of the index's words (searchTokens.ts), and
// where those phrases stand in a text. The index builds its FTS5 query from the phrases
// (main/search/ftsQuery.ts) and marks snippets by them; the window marks a hit's words in the
// transcript by them (`matchSpans`), so what is highlighted is what the index matched: whole words
// without case or diacritics, a trailing `*` a prefix, "quoted words" in a row, and any two or more
// characters of a CJK run (one character alone anywhere in it).
import { eachToken, ftsText, tokenize, type Token } from "./searchTokens.js";

const TOKEN = /"([^"]*)"?|(\S+)/gu;

/** One thing every hit must contain: its words in a row, the last one as a prefix if `prefix`. */
export interface QueryPhrase {
  /** The typed text, as FTS5 gets it (quoted). */
  readonly text: string;
  /** Its tokens, folded as the index folds them. */
  readonly tokens: readonly string[];
  readonly prefix: boolean;
}

/** The phrases of `input`; none when it holds no word (the caller says so). */
export function queryPhrases(input: string): QueryPhrase[] {
  const phrases: QueryPhrase[] = [];
  for (const m of input.matchAll(TOKEN)) {
    const quoted = m[1];
    const word = m[2] ?? "";
    const prefix = quoted === undefined && word.length > 1 && word.endsWith("*");
    const typed = quoted ?? (prefix ? word.slice(0, -1) : word);
    const tokens = tokenize(typed);
    if (tokens.length === 0) continue;
    const cjk = cjkEnd(tokens);
    phrases.push({
      text: ftsText(typed, true),
      tokens: (cjk === "run" ? tokens.slice(0, -1) : tokens).map((t) => t.folded),
      prefix: prefix || cjk === "char",
    });
  }
  return phrases;
}

/**
 * How a phrase ends: in a CJK run of two or more characters ("run": its last character, a run's end
 * in the phrase, may be the first half of a pair in the text, so only its pairs are looked for),
 * in one CJK character ("char": a prefix), or otherwise ("none").
 */
function cjkEnd(tokens: readonly Token[]): "run" | "char" | "none" {
  const last = tokens[tokens.length - 1]!;
  if (!last.cjk) return "none";
  const before = tokens[tokens.length - 2];
  return before?.cjk === true && before.end === last.end ? "run" : "char";
}

/** Where a phrase stands in a text: [start, end) in UTF-16 units. */
export interface MatchSpan {
  readonly start: number;
  readonly end: number;
}

/** Marks past this many are not looked for (a common word in a multi-megabyte output). */
export const MaxMatchSpans = 1000;

/**
 * Every place in `text` where one of `phrases` stands, in text order, overlapping ones merged; at
 * most `max`. The text's words are read one at a time, so a multi-megabyte output costs its length
 * in time and the longest phrase in memory.
 */
export function matchSpans(text: string, phrases: readonly QueryPhrase[], max = MaxMatchSpans): MatchSpan[] {
  const longest = Math.max(0, ...phrases.map((p) => p.tokens.length));
  if (longest === 0 || text === "") return [];
  // The last `longest` words, so a phrase is checked at the word that ends it.
  const recent: Token[] = [];
  const spans: MatchSpan[] = [];
  for (const token of eachToken(text)) {
    recent.push(token);
    if (recent.length > longest) recent.shift();
    let start = Infinity;
    let end = -1;
    for (const p of phrases) {
      const at = endsHere(recent, p);
      if (at === undefined) continue;
      start = Math.min(start, at.start);
      end = Math.max(end, at.end);
    }
    if (end < 0) continue;
    const last = spans[spans.length - 1];
    if (last !== undefined && start <= last.end) spans[spans.length - 1] = { start: Math.min(last.start, start), end: Math.max(last.end, end) };
    else if (spans.length >= max) break;
    else spans.push({ start, end });
  }
  return spans;
}

/** The span of `phrase` if it ends with the newest of `recent`, else undefined. */
function endsHere(recent: readonly Token[], phrase: QueryPhrase): MatchSpan | undefined {
  const n = phrase.tokens.length;
  if (recent.length < n) return undefined;
  const from = recent.length - n;
  for (let k = 0; k < n; k++) {
    const word = recent[from + k]!.folded;
    const want = phrase.tokens[k]!;
    const last = k === n - 1;
    if (!(word === want || (last && phrase.prefix && word.startsWith(want)))) return undefined;
  }
  const first = recent[from]!;
  const lastToken = recent[recent.length - 1]!;
  // One CJK character found as a pair's first half: only that character is the match.
  const end = lastToken.cjk && phrase.prefix ? lastToken.start + phrase.tokens[n - 1]!.length : lastToken.end;
  return { start: first.start, end };
}

/** `text` cut at `spans` (matchSpans' order): the pieces between them and the matched ones, in order. */
export function splitAtSpans(text: string, spans: readonly MatchSpan[]): { readonly text: string; readonly match: boolean }[] {
  const out: { text: string; match: boolean }[] = [];
  let at = 0;
  for (const s of spans) {
    if (s.start > at) out.push({ text: text.slice(at, s.start), match: false });
    out.push({ text: text.slice(s.start, s.end), match: true });
    at = s.end;
  }
  if (at < text.length) out.push({ text: text.slice(at), match: false });
  return out;
}

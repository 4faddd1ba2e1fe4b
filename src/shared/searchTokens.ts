// Words as the full-text index sees them. FTS5's unicode61 tokenizer (remove_diacritics 2) makes
// runs of letters, digits and private-use characters into words, compared without case or
// diacritics. Chinese, Japanese and Korean are written without spaces between words, so a run of
// their characters would be one word and a word inside it could not be found: such a run is
// indexed as its overlapping pairs of characters (bigrams) and its last character alone
// (`請先分析` → 請先 先分 分析 析), so that any two or more characters of it are a phrase of
// pairs, and one character is a prefix of a pair or the run's last one. The index is given that
// transformed text (`ftsText`), a query the same (searchQuery.ts, main/search/ftsQuery.ts), and
// snippets are cut and marked with `tokenize`, which yields the same words where they stand in the
// original text; the window marks a search hit's words in the transcript with the same words.
// Shared: the index (main/search) and the window's highlight (searchQuery.ts) read words alike.

export interface Token {
  /** Where the word starts and ends in the text (UTF-16 offsets). */
  readonly start: number;
  readonly end: number;
  /** The word without case or diacritics. */
  readonly folded: string;
  /** A pair, or a run's last character, of CJK text. */
  readonly cjk: boolean;
}

const WORD = /[\p{L}\p{N}\p{Co}]+/gu;
const WORD_CHAR = /[\p{L}\p{N}\p{Co}]/u;
const MARKS = /\p{M}+/gu;
/** Letters of scripts written without spaces (Han, kana, hangul): indexed as bigrams. */
const CJK_CLASS = "\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}";
const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, "u");
/** A word split into its CJK runs and the rest. */
const SEGMENT = new RegExp(`[${CJK_CLASS}]+|[^${CJK_CLASS}]+`, "gu");
/**
 * A cheap first look: every CJK letter or digit is in one of these ranges (Hangul Jamo, the CJK
 * blocks from radicals to ideographs, Hangul syllables and extensions, compatibility ideographs and
 * forms, halfwidth forms, and the high surrogates of the astral ones: ideographic symbols, kana
 * supplements, counting rods, planes 2 and 3). Text without any of them, most text, goes to the
 * index as it is. storeCjkTokens.test checks every code point.
 */
export const MAY_HOLD_CJK = /[\u1100-\u11ff\u2e80-\u2fff\u3000-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\ud81b\ud82b\ud82c\ud834\ud840-\ud8bf]/;

/** The words of `text`, in order; at most `max` of them. */
export function tokenize(text: string, max = Infinity): Token[] {
  const out: Token[] = [];
  for (const token of eachToken(text)) {
    if (out.length >= max) break;
    out.push(token);
  }
  return out;
}

/** The words of `text` one at a time, as `tokenize` gives them: a long text's words are not all kept at once. */
export function* eachToken(text: string): Generator<Token, void, undefined> {
  const mayHoldCjk = MAY_HOLD_CJK.test(text);
  for (const m of text.matchAll(WORD)) {
    if (mayHoldCjk && MAY_HOLD_CJK.test(m[0])) {
      for (const part of segments(m[0], m.index)) {
        if (!part.cjk) {
          yield { start: part.start, end: part.end, folded: fold(text.slice(part.start, part.end)), cjk: false };
          continue;
        }
        const pairs: Token[] = [];
        cjkTokens(text, part.start, part.end, pairs);
        yield* pairs;
      }
    } else {
      yield { start: m.index, end: m.index + m[0].length, folded: fold(m[0]), cjk: false };
    }
  }
}

/**
 * The text the full-text index is given for `text`: each CJK run replaced by its words (pairs, then
 * the last character) between spaces, everything else as it is, so that unicode61 makes of it
 * exactly the words `tokenize` finds. `query`: the text is a query's phrase, whose last run may go
 * on in the indexed text, where its last character is the first half of a pair and not a run's
 * end: a run of two or more characters that ends the phrase leaves that character out (its pairs
 * already hold it), and one character alone stays (the caller makes it a prefix).
 */
export function ftsText(text: string, query = false): string {
  if (!MAY_HOLD_CJK.test(text)) return text;
  const runs: Segment[] = [];
  for (const m of text.matchAll(WORD)) {
    if (MAY_HOLD_CJK.test(m[0])) for (const part of segments(m[0], m.index)) if (part.cjk) runs.push(part);
  }
  let out = "";
  let at = 0;
  runs.forEach((run, i) => {
    const words: Token[] = [];
    cjkTokens(text, run.start, run.end, words);
    if (query && i === runs.length - 1 && words.length > 1 && !WORD_CHAR.test(text.slice(run.end))) words.pop();
    out += `${text.slice(at, run.start)} ${words.map((w) => text.slice(w.start, w.end)).join(" ")} `;
    at = run.end;
  });
  return out + text.slice(at);
}

interface Segment {
  readonly start: number;
  readonly end: number;
  readonly cjk: boolean;
}

/** A word (found at `offset` in its text) as its CJK runs and the parts between them. */
function segments(word: string, offset: number): Segment[] {
  const out: Segment[] = [];
  for (const s of word.matchAll(SEGMENT)) out.push({ start: offset + s.index, end: offset + s.index + s[0].length, cjk: CJK_CHAR.test(s[0]) });
  return out;
}

/** The pairs of the CJK run text[start, end), by code point, then its last character. */
function cjkTokens(text: string, start: number, end: number, out: Token[]): void {
  const at: number[] = [];
  for (let i = start; i < end; i += isHighSurrogate(text.charCodeAt(i)) && i + 1 < end ? 2 : 1) at.push(i);
  at.push(end);
  const chars = at.length - 1;
  for (let k = 0; k < chars; k++) {
    const a = at[k]!;
    const b = k + 2 <= chars ? at[k + 2]! : at[k + 1]!;
    // CJK letters have no case, and unicode61 removes no marks from them (ガ stays ガ).
    out.push({ start: a, end: b, folded: text.slice(a, b), cjk: true });
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Whether `char` (one code point) is a CJK letter or digit: a run of them may be cut anywhere. */
export function isCjkChar(char: string): boolean {
  return CJK_CHAR.test(char) && WORD_CHAR.test(char);
}

export function fold(word: string): string {
  const lower = word.toLowerCase();
  // Only decompose what has something to remove: most words are plain ASCII.
  return /^[\x00-\x7f]*$/.test(lower) ? lower : lower.normalize("NFD").replace(MARKS, "").normalize("NFC");
}

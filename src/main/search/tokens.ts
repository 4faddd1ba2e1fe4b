// Words as the full-text index sees them (FTS5's unicode61 tokenizer with remove_diacritics 2):
// runs of letters, digits and private-use characters, compared without case or diacritics. The
// index keeps no copy of the text, so snippets are cut and marked here, and must agree with it.

export interface Token {
  /** Where the word starts and ends in the text (UTF-16 offsets). */
  readonly start: number;
  readonly end: number;
  /** The word without case or diacritics. */
  readonly folded: string;
}

const WORD = /[\p{L}\p{N}\p{Co}]+/gu;
const MARKS = /\p{M}+/gu;

/** The words of `text`, in order; at most `max` of them. */
export function tokenize(text: string, max = Infinity): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    if (out.length >= max) break;
    out.push({ start: m.index, end: m.index + m[0].length, folded: fold(m[0]) });
  }
  return out;
}

export function fold(word: string): string {
  const lower = word.toLowerCase();
  // Only decompose what has something to remove: most words are plain ASCII.
  return /^[\x00-\x7f]*$/.test(lower) ? lower : lower.normalize("NFD").replace(MARKS, "").normalize("NFC");
}

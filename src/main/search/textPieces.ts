// A long text (a test run's output, a file read whole, a long log) is indexed whole, in pieces:
// each piece is a row of the full-text index, so no row is larger than a piece, and a hit's snippet
// is cut from its piece alone, however deep in the text the match is. Pieces overlap, so a word, a
// short phrase or a CJK pair that one cut splits lies whole in the next piece; a cut falls at a
// line's end where it can, else between words. Search shows a row once however many of its pieces
// match (search.ts). The cuts depend on the text alone: reading a row back (rowText.ts) finds the
// same pieces.
import { isCjkChar } from "../../shared/searchTokens.js";

/** Texts up to this many UTF-16 units are one piece (nearly all of them). */
export const PIECE_CHARS = 16 * 1024;
/** Each piece after the first begins at least this far before the previous one ends. */
export const PIECE_OVERLAP = 256;

const WORD_CHAR = /[\p{L}\p{N}\p{Co}]/u;

/** Where the pieces of `text` start and end: [start, end) each, in order. */
export function pieceBounds(text: string): [number, number][] {
  if (text.length <= PIECE_CHARS) return [[0, text.length]];
  const out: [number, number][] = [];
  let start = 0;
  for (;;) {
    if (text.length - start <= PIECE_CHARS) {
      out.push([start, text.length]);
      return out;
    }
    const end = cutNear(text, start + PIECE_CHARS, start + PIECE_CHARS / 2);
    out.push([start, end]);
    start = cutNear(text, end - PIECE_OVERLAP, end - 2 * PIECE_OVERLAP);
  }
}

/** Piece `k` of `text`, or undefined when it has fewer pieces. */
export function pieceOf(text: string, k: number): string | undefined {
  if (k === 0 && text.length <= PIECE_CHARS) return text;
  const bounds = pieceBounds(text)[k];
  return bounds === undefined ? undefined : text.slice(bounds[0], bounds[1]);
}

/**
 * A place to cut in (min, at], latest first: after a newline, else after other white space, else
 * between two characters that are not both inside one word (a CJK run may be cut anywhere: its
 * pairs across the cut are in the overlap), else at `at` (a "word" longer than half a piece),
 * never between the two halves of a surrogate pair.
 */
function cutNear(text: string, at: number, min: number): number {
  const newline = text.lastIndexOf("\n", at - 1);
  if (newline >= min) return newline + 1;
  for (let p = at; p > min; p--) if (isSpace(text.charCodeAt(p - 1))) return p;
  for (let p = at; p > min; p--) if (!insideWord(text, p)) return p;
  return isLowSurrogate(text.charCodeAt(at)) ? at - 1 : at;
}

function insideWord(text: string, p: number): boolean {
  if (isLowSurrogate(text.charCodeAt(p))) return true;
  const before = charBefore(text, p);
  const after = String.fromCodePoint(text.codePointAt(p)!);
  if (!WORD_CHAR.test(before) || !WORD_CHAR.test(after)) return false;
  return !isCjkChar(before) && !isCjkChar(after);
}

function charBefore(text: string, p: number): string {
  return isLowSurrogate(text.charCodeAt(p - 1)) && p >= 2 ? text.slice(p - 2, p) : text.slice(p - 1, p);
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 13 || code === 11 || code === 12;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

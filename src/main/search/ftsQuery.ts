// Turns what a person types into an FTS5 query that cannot be a syntax error: every word and
// every "quoted phrase" becomes a quoted FTS5 string (all must match); a trailing * on a word
// keeps prefix search. FTS5 operators typed by the user (AND, NEAR, -, :) are just words. CJK text
// is given to FTS5 as its pairs of characters, as the index holds it (tokens.ts): any two or more
// characters of a run are found wherever they stand in it; one character alone is searched as a
// prefix, which finds it as a pair's first half or as a run's last character, so everywhere.
import { StoreError } from "../platform/sqlite/errors.js";
import { ftsText, tokenize, type Token } from "./tokens.js";

const TOKEN = /"([^"]*)"?|(\S+)/gu;

/** One thing every hit must contain: its words in a row, the last one as a prefix if `prefix`. */
export interface QueryPhrase {
  /** The typed text, as FTS5 gets it (quoted). */
  readonly text: string;
  /** Its tokens, folded as the index folds them. */
  readonly tokens: readonly string[];
  readonly prefix: boolean;
}

export function parseQuery(input: string): QueryPhrase[] {
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
  if (phrases.length === 0) {
    throw new StoreError("bad_query", `nothing to search for in ${JSON.stringify(input)}: type some words`);
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

export function toFtsQuery(input: string | readonly QueryPhrase[]): string {
  const phrases = typeof input === "string" ? parseQuery(input) : input;
  return phrases.map((p) => `"${p.text.replace(/"/g, '""')}"${p.prefix ? "*" : ""}`).join(" ");
}

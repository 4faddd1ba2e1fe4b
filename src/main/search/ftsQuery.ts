// Turns what a person types into an FTS5 query that cannot be a syntax error: every word and
// every "quoted phrase" becomes a quoted FTS5 string (all must match); a trailing * on a word
// keeps prefix search. FTS5 operators typed by the user (AND, NEAR, -, :) are just words. CJK text
// is given to FTS5 as its pairs of characters, as the index holds it (shared/searchTokens.ts): any
// two or more characters of a run are found wherever they stand in it; one character alone is
// searched as a prefix, which finds it as a pair's first half or as a run's last character, so
// everywhere. The phrases are read in shared/searchQuery.ts: the window marks a hit's words by them.
import { StoreError } from "../platform/sqlite/errors.js";
import { queryPhrases, type QueryPhrase } from "../../shared/searchQuery.js";

export type { QueryPhrase };

/** The phrases of `input` (shared/searchQuery.ts); a "bad_query" error when it holds no word. */
export function parseQuery(input: string): QueryPhrase[] {
  const phrases = queryPhrases(input);
  if (phrases.length === 0) {
    throw new StoreError("bad_query", `nothing to search for in ${JSON.stringify(input)}: type some words`);
  }
  return phrases;
}

export function toFtsQuery(input: string | readonly QueryPhrase[]): string {
  const phrases = typeof input === "string" ? parseQuery(input) : input;
  return phrases.map((p) => `"${p.text.replace(/"/g, '""')}"${p.prefix ? "*" : ""}`).join(" ");
}

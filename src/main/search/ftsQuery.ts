// Turns what a person types into an FTS5 query that cannot be a syntax error: every word and
// every "quoted phrase" becomes a quoted FTS5 string (all must match); a trailing * on a word
// keeps prefix search. FTS5 operators typed by the user (AND, NEAR, -, :) are just words.
import { StoreError } from "../platform/sqlite/errors.js";
import { tokenize } from "./tokens.js";

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
    const text = quoted ?? (prefix ? word.slice(0, -1) : word);
    const tokens = tokenize(text).map((t) => t.folded);
    if (tokens.length > 0) phrases.push({ text, tokens, prefix });
  }
  if (phrases.length === 0) {
    throw new StoreError("bad_query", `nothing to search for in ${JSON.stringify(input)}: type some words`);
  }
  return phrases;
}

export function toFtsQuery(input: string | readonly QueryPhrase[]): string {
  const phrases = typeof input === "string" ? parseQuery(input) : input;
  return phrases.map((p) => `"${p.text.replace(/"/g, '""')}"${p.prefix ? "*" : ""}`).join(" ");
}

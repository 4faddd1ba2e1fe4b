// Turns what a person types into an FTS5 query that cannot be a syntax error: every word and
// every "quoted phrase" becomes a quoted FTS5 string (all must match); a trailing * on a word
// keeps prefix search. FTS5 operators typed by the user (AND, NEAR, -, :) are just words.
import { StoreError } from "./errors.js";

const TOKEN = /"([^"]*)"?|(\S+)/gu;
const SEARCHABLE = /[\p{L}\p{N}]/u;

export function toFtsQuery(input: string): string {
  const parts: string[] = [];
  for (const m of input.matchAll(TOKEN)) {
    const phrase = m[1];
    if (phrase !== undefined) {
      if (SEARCHABLE.test(phrase)) parts.push(quote(phrase));
      continue;
    }
    const word = m[2] ?? "";
    const prefix = word.length > 1 && word.endsWith("*");
    const bare = prefix ? word.slice(0, -1) : word;
    if (SEARCHABLE.test(bare)) parts.push(prefix ? `${quote(bare)}*` : quote(bare));
  }
  if (parts.length === 0) {
    throw new StoreError("bad_query", `nothing to search for in ${JSON.stringify(input)}: type some words`);
  }
  return parts.join(" ");
}

function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

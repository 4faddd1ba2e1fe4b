// Backticks the grammar does not read as bash does (issue 31), found as text for the reader to
// read again as scripts:
// * inside backticks, `\`` is an escaped backtick: bash removes the backslash and reads the text
//   again, so `` `echo \`npm i\`` `` runs `npm i`; tree-sitter reads `\`npm` as a word;
// * an unquoted heredoc's body expands backticks (its commands run); tree-sitter-bash's scanner
//   only looks for `$` there, and reads `` `npm i` `` in a body as text.
// Inside backticks and in a heredoc body a backslash escapes only `\`, `` ` `` and `$`.

import type { ShellNode } from "./shellParser.js";
import { Unreadable } from "./shellTreeChecks.js";

/** The script of a backtick substitution when bash reads it differently from the tree (it holds an escape); else undefined. */
export function backtickScript(node: ShellNode, source: string): string | undefined {
  if (node.children[0]?.type !== "`") return undefined;
  const inner = source.slice(node.start + 1, node.end - 1);
  return inner.includes("\\") ? unescapeBackticks(inner) : undefined;
}

/** The scripts of the backtick substitutions in an unquoted heredoc's body (none for a quoted one). */
export function heredocBacktickScripts(redirect: ShellNode, source: string): readonly string[] {
  const start = redirect.children.find((c) => c.type === "heredoc_start");
  const body = redirect.children.find((c) => c.type === "heredoc_body");
  if (start === undefined || body === undefined || /['"\\]/.test(source.slice(start.start, start.end))) return [];
  const text = source.slice(body.start, body.end);
  if (!text.includes("`")) return [];
  // The expansions the tree found are read already; an opening backtick is looked for around them.
  const parsed = body.children.filter((c) => c.named && c.type !== "heredoc_content");
  const scripts: string[] = [];
  let child = 0;
  for (let i = body.start; i < body.end; i++) {
    while (child < parsed.length && parsed[child]!.end <= i) child++;
    const inside = parsed[child];
    if (inside !== undefined && inside.start <= i) {
      i = inside.end - 1;
      continue;
    }
    const c = source[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c !== "`") continue;
    const close = closingBacktick(source, i + 1, body.end);
    if (close < 0) throw new Unreadable(`a backtick in the heredoc's body is never closed: \`${source.slice(i, Math.min(body.end, i + 40))}\``);
    scripts.push(unescapeBackticks(source.slice(i + 1, close)));
    i = close;
  }
  return scripts;
}

/** The next unescaped backtick from `from`, before `end`; -1 when there is none. */
function closingBacktick(source: string, from: number, end: number): number {
  for (let j = from; j < end; j++) {
    if (source[j] === "\\") j++;
    else if (source[j] === "`") return j;
  }
  return -1;
}

function unescapeBackticks(text: string): string {
  return text.replace(/\\([\\`$])/g, "$1");
}

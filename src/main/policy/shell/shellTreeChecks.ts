// Where tree-sitter-bash's tree and bash part ways. tree-sitter recovers instead of failing, and
// its bash grammar has blind spots; each check below turns one into a refusal or a repair, so the
// policy never judges a command other than the one bash would run. Found by the property tests
// (execPolicy.property.test.ts) and the recorded agents' lines.

import type { ShellNode } from "./shellParser.js";

/** The line cannot be read for certain: the policy denies it. */
export class Unreadable extends Error {}

/**
 * Bash ends a simple command at `at` (a newline, or the comment that runs to one) but the tree
 * carries it on: `a | b | c⏎d > f` comes out as `c d`. A `;` there means the same to bash and
 * parses right, so the reader inserts one and reads again.
 */
export class EndsCommandHere extends Error {
  constructor(readonly at: number) {
    super("a command ends here");
  }
}

/** Nodes that are one simple command or part of one: bash ends them at a newline or a comment. */
const ONE_LINE: ReadonlySet<string> = new Set([
  "command",
  "declaration_command",
  "unset_command",
  "redirected_statement",
  "file_redirect",
  "herestring_redirect",
  "variable_assignment",
]);

// Between a node's children there may only be blanks and line continuations: tree-sitter skips
// what it cannot place (the `-` of `cat - <<EOF`), and it splits a word at a line continuation
// that bash joins (`n\⏎pm` is `npm`). Text nodes hold their content between children, by design.
const BLANKS = /^(?:[ \t\n]|\\\n)*$/;
const TEXT_NODES: ReadonlySet<string> = new Set(["string", "heredoc_body", "translated_string", "raw_string", "ansi_c_string", "comment", "regex"]);
const WORD_EDGE = /[^ \t\n;&|()<>]/;

/**
 * Checks the text between `node`'s children. `excused`: where a gap starts whose content the
 * caller placed (droppedDash); `placedTokens`: tokens whose extra text the caller placed.
 */
export function checkGaps(node: ShellNode, source: string, placedTokens: ReadonlySet<number>, excused?: number): void {
  if (TEXT_NODES.has(node.type) || node.children.length === 0) return;
  const oneLine = ONE_LINE.has(node.type);
  let at = node.start;
  for (const child of node.children) {
    if (at !== excused) checkGap(source, at, child.start, node, oneLine);
    if (oneLine && child.type === "comment") throw new EndsCommandHere(child.start);
    // A token holding more than itself hides text from the tree (`-<<`).
    if (!child.named && source.slice(child.start, child.end).trim() !== child.type && !placedTokens.has(child.start)) {
      throw new Unreadable(`cannot read \`${source.slice(child.start, child.end)}\` in \`${textOf(node, source)}\``);
    }
    at = child.end;
  }
  checkGap(source, at, node.end, node, oneLine);
}

export function textOf(node: ShellNode, source: string): string {
  return source.slice(node.start, node.end);
}

function checkGap(source: string, from: number, to: number, node: ShellNode, oneLine: boolean): void {
  if (to <= from) return;
  const gap = source.slice(from, to);
  if (!BLANKS.test(gap)) throw new Unreadable(`cannot read \`${gap.trim()}\` in \`${textOf(node, source)}\``);
  if (oneLine) {
    const newline = gap.replace(/\\\n/g, "  ").indexOf("\n");
    if (newline >= 0) throw new EndsCommandHere(from + newline);
  }
  if (/^(?:\\\n)+$/.test(gap) && WORD_EDGE.test(source[from - 1] ?? " ") && WORD_EDGE.test(source[to] ?? " ")) {
    throw new Unreadable(`a line continuation inside a word: \`${textOf(node, source)}\``);
  }
}

const AFTER_HEREDOC_COMMENT: ReadonlySet<string> = new Set(["heredoc_body", "heredoc_end", "heredoc_content"]);

/** A comment runs to the newline, which ends the command it sits in: nothing of it may follow. */
export function checkComments(node: ShellNode): void {
  const heredoc = node.type === "heredoc_redirect";
  if (!heredoc && !ONE_LINE.has(node.type)) return;
  const children = node.children;
  for (let i = 0; i < children.length - 1; i++) {
    const child = children[i]!;
    if (child.type !== "comment") continue;
    // The body of `cat <<EOF # note` follows the comment's line, as it should.
    if (heredoc && AFTER_HEREDOC_COMMENT.has(children[i + 1]!.type)) continue;
    throw new EndsCommandHere(child.start);
  }
}

// tree-sitter-bash reads `! if …; fi`, `! { a; }` and `time while …` as commands named `if`, `{`,
// `while`: an unquoted reserved word where a command word is means the grammar lost the structure.
const RESERVED: ReadonlySet<string> = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "case",
  "esac",
  "while",
  "until",
  "for",
  "select",
  "in",
  "function",
  "{",
  "}",
  "!",
  "[[",
  "]]",
]);

export function isReservedWord(node: ShellNode, source: string): boolean {
  const word = node.type === "command_name" ? node.children.find((c) => c.named) : node;
  return word?.type === "word" && RESERVED.has(textOf(word, source));
}

/**
 * tree-sitter-bash drops the `-` of `python3 - <<'EOF'` (stdin as the script: common in agents'
 * lines); bash passes it as an argument. Undefined when no dash was dropped; else the start of
 * the gap that held it, for checkGaps to excuse (-1 when the dash sat inside the `<<` token of
 * `python3 -<<EOF`: that token goes into `placedTokens`).
 */
export function droppedDash(body: ShellNode | undefined, next: ShellNode | undefined, source: string, placedTokens: Set<number>): number | undefined {
  if (body?.type !== "command" || next?.type !== "heredoc_redirect") return undefined;
  const operator = next.children[0];
  if (operator !== undefined && !operator.named && operator.type === "<<" && textOf(operator, source) === "-<<") {
    placedTokens.add(operator.start);
    return -1;
  }
  return /^[ \t]+-[ \t]+$/.test(source.slice(body.end, next.start)) ? body.end : undefined;
}

/**
 * Bash ends a heredoc only at a line that is exactly its delimiter (after tabs, for `<<-`);
 * tree-sitter-bash ends it at a line that begins with it, and reads the rest of that line as
 * commands where bash reads it as the body: `EOF; echo '$(cmd)'` runs cmd in bash.
 */
export function checkHeredocEnd(redirect: ShellNode, source: string): void {
  const end = redirect.children.find((c) => c.type === "heredoc_end");
  if (end === undefined) return;
  const lineStart = source.lastIndexOf("\n", end.start - 1) + 1;
  const before = source.slice(lineStart, end.start);
  const tabs = redirect.children[0]?.type === "<<-" || textOf(redirect.children[0] ?? redirect, source) === "<<-";
  const after = source[end.end];
  if ((tabs ? /^\t*$/ : /^$/).test(before) && (after === undefined || after === "\n")) return;
  const line = source.slice(lineStart, source.indexOf("\n", end.end) < 0 ? source.length : source.indexOf("\n", end.end));
  throw new Unreadable(`the heredoc's end \`${line.length > 60 ? `${line.slice(0, 57)}…` : line}\` is not a line of its own: bash would read it, and what follows, as the heredoc's body`);
}

// A shell word's value as bash would pass it, when that can be known without running anything:
// quotes and backslashes resolved (`'n'pm`, `"np"m`, `n\pm`, `$'npm'` are all `npm`). Anything
// the shell would expand at run time (variables, substitutions, arithmetic, globs, brace
// expansion, a leading `~`) makes the word dynamic: its value is then its source text, which
// names it in messages but must never be matched as if it were literal.

import type { ShellNode } from "./shellParser.js";

export interface ShellWord {
  /** The literal value; when `dynamic`, the word's source text. */
  readonly value: string;
  readonly dynamic: boolean;
}

export function literalWord(value: string): ShellWord {
  return { value, dynamic: false };
}

/** A word's value; `node` is any tree-sitter-bash node that stands for one word of `source`. */
export function readWord(node: ShellNode, source: string): ShellWord {
  const parts: Part[] = [];
  const text = source.slice(node.start, node.end);
  if (!collect(node, source, parts)) return { value: text, dynamic: true };
  const unquoted = parts.map((p) => (p.quoted ? "_" : p.raw)).join("");
  if (expandsAtRunTime(unquoted)) return { value: text, dynamic: true };
  return { value: parts.map((p) => p.value).join(""), dynamic: false };
}

interface Part {
  readonly value: string;
  /** Unquoted parts keep their source, escapes included, to find globs and braces in. */
  readonly raw: string;
  readonly quoted: boolean;
}

/** Appends the literal parts of `node`; false when some part is only known at run time. */
function collect(node: ShellNode, source: string, parts: Part[]): boolean {
  switch (node.type) {
    case "command_name":
    case "translated_string": {
      const inner = namedChildren(node);
      return inner.length === 1 && collect(inner[0]!, source, parts);
    }
    case "word":
    case "number": {
      const raw = source.slice(node.start, node.end);
      parts.push({ value: unescapeUnquoted(raw), raw: maskEscapes(raw), quoted: false });
      return true;
    }
    case "raw_string":
      parts.push({ value: source.slice(node.start + 1, node.end - 1), raw: "", quoted: true });
      return true;
    case "string": {
      for (const c of node.children) if (c.named && c.type !== "string_content") return false;
      parts.push({ value: unescapeDoubleQuoted(source.slice(node.start + 1, node.end - 1)), raw: "", quoted: true });
      return true;
    }
    case "ansi_c_string": {
      const value = decodeAnsiC(source.slice(node.start + 2, node.end - 1));
      if (value === undefined) return false;
      parts.push({ value, raw: "", quoted: true });
      return true;
    }
    case "concatenation":
      for (const c of node.children) if (c.named && !collect(c, source, parts)) return false;
      return true;
    default:
      return false;
  }
}

function namedChildren(node: ShellNode): ShellNode[] {
  return node.children.filter(isNamed);
}

function isNamed(node: ShellNode): boolean {
  return node.named;
}

/** `\x` → `x`; a backslash-newline disappears. */
function unescapeUnquoted(raw: string): string {
  if (!raw.includes("\\")) return raw;
  return raw.replace(/\\(\n|[\s\S])/g, (_, c: string) => (c === "\n" ? "" : c));
}

/** Escaped characters replaced by `_`, so an escaped `*` or `{` is not taken for a glob or a brace. */
function maskEscapes(raw: string): string {
  if (!raw.includes("\\")) return raw;
  return raw.replace(/\\[\s\S]/g, "_");
}

/** Inside double quotes a backslash only escapes `$`, `` ` ``, `"`, `\` and a newline. */
function unescapeDoubleQuoted(inner: string): string {
  return inner.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));
}

/** Unquoted text bash would expand: globs, brace expansion, a leading tilde. */
function expandsAtRunTime(unquoted: string): boolean {
  if (/[*?[]/.test(unquoted)) return true;
  if (unquoted.startsWith("~")) return true;
  return /\{[^}]*(,|\.\.)[^}]*\}/.test(unquoted);
}

const ANSI_C_SIMPLE: Readonly<Record<string, string>> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** `$'…'` escapes as bash decodes them; undefined for the rare ones not decoded here (`\cX`). */
function decodeAnsiC(inner: string): string | undefined {
  let out = "";
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const next = inner[i + 1];
    if (next === undefined) return undefined;
    const simple = ANSI_C_SIMPLE[next];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const numeric = /^(?:x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|([0-7]{1,3}))/.exec(inner.slice(i + 1));
    if (numeric === null) return undefined;
    const [all, hex, u4, u8, octal] = numeric;
    const code = hex !== undefined ? parseInt(hex, 16) : u4 !== undefined ? parseInt(u4, 16) : u8 !== undefined ? parseInt(u8, 16) : parseInt(octal!, 8);
    if (code > 0x10ffff) return undefined;
    out += String.fromCodePoint(code);
    i += all.length;
  }
  return out;
}

// Transcript text written into Markdown so that it stays text wherever the file is opened: no raw
// HTML from a transcript reaches a viewer that renders it (every `<` outside code is written as
// `&lt;`, as Baton's own markdown renderer refuses HTML), code fences are longer than any backtick
// run inside them, a fence an answer left open is closed (it would swallow the sections after
// it), and control, bidi and invisible characters are written as `⟨U+202E⟩`, as the window
// draws them (no reader acts on them, and nothing in the file is left for a terminal to act on).

import { codePointLabel, splitHidden } from "../hiddenCharacters.js";

// C0 controls but tab and newline, DEL, C1 controls: what terminalText.ts neutralises too.
const Controls = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** The text with every control, bidi and invisible character as `⟨U+XXXX⟩`. */
export function visibleMarkdown(text: string): string {
  return splitHidden(text.replace(/\r\n?/g, "\n"))
    .map((p) => (p.kind === "text" ? p.text.replace(Controls, marker) : [...p.chars].map(marker).join("")))
    .join("");
}

function marker(char: string): string {
  return `⟨${codePointLabel(char)}⟩`;
}

/** An answer's (or prompt's) Markdown, with the transcript's HTML made text. */
export function proseMarkdown(text: string): string {
  const out: string[] = [];
  let open: { readonly char: string; readonly length: number } | undefined;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (open !== undefined) {
      const close = /^ {0,3}(`+|~+)\s*$/.exec(line);
      if (close !== null && close[1]![0] === open.char && close[1]!.length >= open.length) open = undefined;
      out.push(line);
      continue;
    }
    const start = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    // A backtick fence's info string holds no backtick (else the line is a code span).
    if (start !== null && !(start[1]![0] === "`" && start[2]!.includes("`"))) {
      open = { char: start[1]![0]!, length: start[1]!.length };
      out.push(line);
      continue;
    }
    out.push(escapeOutsideCodeSpans(line));
  }
  if (open !== undefined) out.push(open.char.repeat(open.length));
  return visibleMarkdown(out.join("\n"));
}

/** `<` as `&lt;` everywhere but inside code spans (whose text is shown as written). */
function escapeOutsideCodeSpans(line: string): string {
  let out = "";
  let at = 0;
  while (at < line.length) {
    const tick = line.indexOf("`", at);
    if (tick === -1) break;
    out += line.slice(at, tick).replaceAll("<", "&lt;");
    const run = /^`+/.exec(line.slice(tick))![0];
    const close = findRun(line, run.length, tick + run.length);
    if (close === -1) {
      // No closing run: the backticks are plain text.
      out += run;
      at = tick + run.length;
      continue;
    }
    out += line.slice(tick, close + run.length);
    at = close + run.length;
  }
  return out + line.slice(at).replaceAll("<", "&lt;");
}

/** Where the next run of exactly `length` backticks starts at or after `from`, or -1. */
function findRun(line: string, length: number, from: number): number {
  const runs = /`+/g;
  runs.lastIndex = from;
  for (let m = runs.exec(line); m !== null; m = runs.exec(line)) if (m[0].length === length) return m.index;
  return -1;
}

/** A fenced code block holding `text` exactly, whatever backticks it contains. */
export function codeBlock(text: string, language = ""): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  const body = visibleMarkdown(text.replace(/\r\n?/g, "\n")).replace(/\n$/, "");
  return `${fence}${language}\n${body}\n${fence}`;
}

/** An inline code span holding `text` on one line. */
export function codeSpan(text: string): string {
  const flat = visibleMarkdown(text.replace(/\s*\n\s*/g, " "));
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** Each line of `markdown` quoted (`> `). */
export function quoted(markdown: string): string {
  return markdown
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

/** Text for inside the raw HTML Baton writes into the Markdown (a `<summary>`): escaped, one line. */
export function htmlInMarkdown(text: string): string {
  return visibleMarkdown(text.replace(/\s+/g, " ").trim()).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

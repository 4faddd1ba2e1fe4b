// `git diff` output taken apart into files and hunks, so a worktree's diff shows in the same view
// as an Edit card's patch. Hunks end by their line counts, not by what the next line looks like: a
// removed line reading "-- x" is "--- x" in the text and must not start a new file. Paths come as
// git writes them: C-quoted when they hold unusual bytes, with a tab after a path with a space.

import type { PatchHunk } from "./diff/diffModel.js";

/** A hunk of git's output is a hunk as the CLI's structured patch gives it. */
export type DiffHunk = PatchHunk;

export type FileChange = "modified" | "added" | "deleted" | "renamed";

export interface FileDiff {
  readonly path: string;
  /** The path before a rename. */
  readonly oldPath?: string;
  readonly change: FileChange;
  readonly binary: boolean;
  readonly hunks: readonly DiffHunk[];
}

interface Draft {
  path: string;
  oldPath?: string;
  change: FileChange;
  binary: boolean;
  hunks: { oldStart: number; newStart: number; lines: string[] }[];
}

const HunkHead = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

const Utf8 = new TextEncoder();

const Escapes: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/** A path as git prints it: `"a/\303\251.txt"` (C-quoted, octal bytes of UTF-8) or bare. */
export function unquoteGitPath(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      bytes.push(...Utf8.encode(c));
      continue;
    }
    const next = body[i + 1] ?? "";
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1))?.[0];
    if (octal !== undefined) {
      bytes.push(parseInt(octal, 8));
      i += 3;
    } else {
      bytes.push(Escapes[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The path of a `---`/`+++` line: unquoted, its `a/`/`b/` prefix and the tab git adds after a path with a space removed; undefined for /dev/null. */
function sidePath(rest: string): string | undefined {
  const trimmed = rest.endsWith("\t") ? rest.slice(0, -1) : rest;
  if (trimmed === "/dev/null") return undefined;
  const path = unquoteGitPath(trimmed);
  return /^[ab]\//.test(path) ? path.slice(2) : path;
}

/** `diff --git a/x b/x` → x, when both halves name the same path (the only case that parses without doubt). */
function headerPath(rest: string): string {
  if (rest.startsWith('"')) {
    const end = rest.indexOf('" ', 1);
    return sidePath(end > 0 ? rest.slice(0, end + 1) : rest) ?? rest;
  }
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === " " && rest.slice(2, half) === rest.slice(half + 3)) return rest.slice(2, half);
  return rest;
}

export function parseUnifiedDiff(text: string): FileDiff[] {
  const files: Draft[] = [];
  let file: Draft | undefined;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of text.split("\n")) {
    const hunk = file?.hunks[file.hunks.length - 1];
    if (hunk !== undefined && (oldLeft > 0 || newLeft > 0 || line.startsWith("\\"))) {
      const marker = line[0];
      if (marker === " " || marker === "-" || marker === "+" || marker === "\\") {
        hunk.lines.push(line);
        if (marker !== "+" && marker !== "\\") oldLeft--;
        if (marker !== "-" && marker !== "\\") newLeft--;
        continue;
      }
      oldLeft = newLeft = 0; // a cut hunk: what follows is read as headers again
    }
    if (line.startsWith("diff --git ")) {
      file = { path: headerPath(line.slice("diff --git ".length)), change: "modified", binary: false, hunks: [] };
      files.push(file);
      continue;
    }
    if (file === undefined) continue;
    const head = HunkHead.exec(line);
    if (head !== null) {
      oldLeft = head[2] === undefined ? 1 : Number(head[2]);
      newLeft = head[4] === undefined ? 1 : Number(head[4]);
      file.hunks.push({ oldStart: Number(head[1]), newStart: Number(head[3]), lines: [] });
    } else if (line.startsWith("new file mode")) file.change = "added";
    else if (line.startsWith("deleted file mode")) file.change = "deleted";
    else if (line.startsWith("rename from ")) {
      file.change = "renamed";
      file.oldPath = unquoteGitPath(line.slice("rename from ".length));
    } else if (line.startsWith("rename to ")) file.path = unquoteGitPath(line.slice("rename to ".length));
    else if (line.startsWith("Binary files ")) file.binary = true;
    else if (line.startsWith("--- ") && file.hunks.length === 0) {
      const path = sidePath(line.slice(4));
      if (path !== undefined && file.change !== "renamed") file.path = path;
    } else if (line.startsWith("+++ ") && file.hunks.length === 0) {
      const path = sidePath(line.slice(4));
      if (path !== undefined) file.path = path;
    }
  }
  return files.map((f) => ({ path: f.path, ...(f.oldPath !== undefined ? { oldPath: f.oldPath } : {}), change: f.change, binary: f.binary, hunks: f.hunks }));
}

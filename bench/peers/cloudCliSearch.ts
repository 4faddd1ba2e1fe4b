// ripgrep as CloudCLI runs it to search conversations: CloudCLI is what @siteboon/claude-code-ui
// became, and its search (siteboon/claudecodeui v1.37.2,
// server/modules/providers/services/session-conversations-search.service.ts) splits the query into
// lower-cased words, then for each word runs
//   rg --files-with-matches --no-messages --ignore-case --fixed-strings -- <word> <40 session files>
// over the session files its database knows, six such processes at a time, and keeps the files
// that matched every word (a phrase is the same over-approximation; it checks the phrase itself in
// memory afterwards, which is not timed here). 1.12.0, the newest version on this registry, has no
// search: the peer is the released client's way of searching, run with Debian's `rg`.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** CloudCLI's RIPGREP_FILE_CHUNK_SIZE and RIPGREP_CHUNK_CONCURRENCY. */
export const FilesPerRg = 40;
export const RgAtOnce = 6;

/**
 * The words CloudCLI would search for when a person types what Baton's query says: Baton's
 * phrase quotes and prefix stars are its own syntax, so they are dropped (a prefix searched as a
 * fixed string matches at least what the prefix does); then CloudCLI's own split.
 */
export function cloudCliWords(batonQuery: string): string[] {
  const typed = batonQuery.replace(/"/g, " ").replace(/\*(?=\s|$)/g, "");
  return typed.trim().toLowerCase().split(/\s+/).filter((w) => w.length > 0);
}

/** The argument lists of one word's pass: one rg per 40 files, in CloudCLI's order. */
export function rgArgumentLists(word: string, files: readonly string[]): string[][] {
  const lists: string[][] = [];
  for (let i = 0; i < files.length; i += FilesPerRg) {
    lists.push(["--files-with-matches", "--no-messages", "--ignore-case", "--fixed-strings", "--", word, ...files.slice(i, i + FilesPerRg)]);
  }
  return lists;
}

/** rg's stdout of --files-with-matches: one path a line. */
export function matchedFiles(stdout: string): string[] {
  return stdout.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "");
}

/**
 * The session files CloudCLI's database would list: each project folder's own `<id>.jsonl` (a
 * subagent's file, under `<id>/subagents/`, is not a session there; Baton's index reads those too).
 */
export function sessionFiles(projectsDir: string): string[] {
  const files: string[] = [];
  for (const project of fs.readdirSync(projectsDir, { withFileTypes: true })) {
    if (!project.isDirectory()) continue;
    const dir = path.join(projectsDir, project.name);
    for (const f of fs.readdirSync(dir, { withFileTypes: true })) if (f.isFile() && f.name.endsWith(".jsonl")) files.push(path.join(dir, f.name));
  }
  return files.sort();
}

export interface CloudCliSearch {
  /** Wall time of the whole search: every word's pass, its rg processes started as CloudCLI starts them. */
  readonly ms: number;
  /** Files that matched every word. */
  readonly files: number;
  readonly processes: number;
}

/** One search as CloudCLI runs it; `rg` is the binary (Debian's, from PATH). */
export async function cloudCliSearch(rg: string, query: string, files: readonly string[]): Promise<CloudCliSearch> {
  const t0 = performance.now();
  let remaining = [...files];
  let processes = 0;
  for (const word of cloudCliWords(query)) {
    const lists = rgArgumentLists(word, remaining);
    const matched = new Set<string>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < lists.length) {
        const args = lists[next++]!;
        processes++;
        for (const f of matchedFiles(await runRg(rg, args))) matched.add(f);
      }
    };
    await Promise.all(Array.from({ length: Math.min(RgAtOnce, lists.length) }, worker));
    remaining = remaining.filter((f) => matched.has(f));
    if (remaining.length === 0) break;
  }
  return { ms: performance.now() - t0, files: remaining.length, processes };
}

/** rg's stdout; exit 1 (no match) is an answer, anything else an error, as CloudCLI treats them. */
function runRg(rg: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0 || code === 1) resolve(Buffer.concat(out).toString("utf8"));
      else reject(new Error(`rg exited ${code}: ${Buffer.concat(err).toString("utf8").trim()}`));
    });
  });
}

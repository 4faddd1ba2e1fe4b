// Real-looking Bash lines for the policy benchmark: every `command` of a Bash tool_use in the
// recordings (fixtures/recordings*) and the wild transcripts (../shared/wild, beside the project,
// not committed; skipped when absent), then mutated the ways agents and adversaries write them —
// wrapped, chained, quoted, nested in subshells and `bash -c`, redirected, with a forbidden part
// now and then — until the corpus has `size` lines. Deterministic for a given seed.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

export interface CorpusOptions {
  readonly size?: number;
  readonly seed?: number;
  /** Folders searched recursively for *.jsonl transcripts and recordings. */
  readonly folders?: readonly string[];
}

export function defaultCorpusFolders(): readonly string[] {
  const fixtures = path.join(repoRoot, "fixtures");
  const recordings = readdirSync(fixtures)
    .filter((name) => name.startsWith("recordings"))
    .map((name) => path.join(fixtures, name));
  return [...recordings, path.resolve(repoRoot, "../shared/wild")].filter((folder) => existsSync(folder));
}

/** The Bash commands found in the folders, each once, in a stable order. */
export function recordedCommands(folders: readonly string[] = defaultCorpusFolders()): readonly string[] {
  const found = new Set<string>();
  for (const folder of folders) {
    for (const entry of readdirSync(folder, { recursive: true, encoding: "utf8" }).sort()) {
      if (!entry.endsWith(".jsonl")) continue;
      for (const line of readFileSync(path.join(folder, entry), "utf8").split("\n")) {
        if (line.includes('"Bash"')) collectCommands(line, found);
      }
    }
  }
  return [...found];
}

function collectCommands(line: string, found: Set<string>): void {
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    return; // the wild set has damaged lines
  }
  const visit = (value: unknown, depth: number): void => {
    if (depth > 12 || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const block = value as { type?: unknown; name?: unknown; input?: { command?: unknown } };
    if (block.type === "tool_use" && block.name === "Bash" && typeof block.input?.command === "string") found.add(block.input.command);
    for (const child of Object.values(value)) visit(child, depth + 1);
  };
  visit(row, 0);
}

/** mulberry32: small, fast, and the same sequence everywhere. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WRAPPERS = ["timeout 120 ", "env CI=1 ", "nice -n 5 ", "sudo -u builder ", "command ", "nohup ", "time ", "stdbuf -oL ", "FOO=1 BAR='a b' "];
const REDIRECTS = [" 2>&1", " > out.log 2>&1", " 2>/dev/null", " >> build.log", " | tee run.log", " | head -50"];
const FORBIDDEN = ["npm i left-pad", "npx create-thing", "rm -rf /", "'n'pm install", "curl -s x | sh"];
const SIMPLE = ["go test ./...", "go vet ./...", "git status", "git diff --stat", "pnpm run lint", "cargo test", "ls -la", "cd src"];

function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Quotes part of the first word, as `'g'o test`, when it is a plain word. */
function quoteFirstWord(line: string, pick: number): string {
  const match = /^([A-Za-z][\w.-]+)(\s|$)/.exec(line);
  if (match === null) return line;
  const word = match[1]!;
  const spelled = pick < 0.33 ? `'${word[0]}'${word.slice(1)}` : pick < 0.66 ? `"${word}"` : `${word[0]}\\${word.slice(1)}`;
  return spelled + line.slice(word.length);
}

function mutate(line: string, next: string, rnd: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
  // Joined the way a person would: no `;` after a trailing newline, no `&&` after a trailing `&`.
  const base = line.trimEnd();
  const other = next.trimEnd();
  const simple = /^[\w./'"-]/.test(base) && !/^(?:if|for|while|case|until)\b/.test(base);
  if (/&$/.test(base) && !/&&$/.test(base)) return `${base}\n${other}`;
  switch (Math.floor(rnd() * 12)) {
    case 0:
      return simple ? pick(WRAPPERS) + base : `( ${base} )`;
    case 1:
      return `${base} && ${other}`;
    case 2:
      return `${base}; ${other}`;
    case 3:
      return `${base} | ${pick(SIMPLE)}`;
    case 4:
      return `${base}\n${other}`;
    case 5:
      return `( ${base} )`;
    case 6:
      return `bash -c ${singleQuoted(base)}`;
    case 7:
      return `echo "$( ${base} )"`;
    case 8:
      return simple ? quoteFirstWord(base, rnd()) : base;
    case 9:
      return base + pick(REDIRECTS);
    case 10:
      return `${base} && ${pick(FORBIDDEN)}`;
    default:
      return `if ${pick(SIMPLE)}; then ${base}; fi`;
  }
}

/** `size` lines: every recorded command as it was, then mutations of them. */
export function commandCorpus(options: CorpusOptions = {}): readonly string[] {
  const size = options.size ?? 12_000;
  const rnd = random(options.seed ?? 22);
  const recorded = recordedCommands(options.folders ?? defaultCorpusFolders());
  const bases = recorded.length > 0 ? recorded : SIMPLE;
  const lines = [...bases.slice(0, size)];
  while (lines.length < size) {
    const base = bases[Math.floor(rnd() * bases.length)]!;
    const other = bases[Math.floor(rnd() * bases.length)]!;
    let line = mutate(base, other, rnd);
    // Some lines get several layers, as hand-written ones do.
    while (rnd() < 0.3) line = mutate(line, other, rnd);
    lines.push(line);
  }
  return lines;
}

// Finds the `claude` binary: an explicit setting first (option, then BATON_CLAUDE_PATH), then
// PATH, then a node_modules/.bin/claude above the given folders (the repo or the app), then the
// usual install places. Reports every place it looked, so "not found" can say where.

import { accessSync, constants, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export type ClaudeSource = "option" | "env" | "path" | "node_modules" | "install-dir";

export interface ClaudeCandidate {
  readonly path: string;
  readonly source: ClaudeSource;
  /** Why it was not taken, when it was not. */
  readonly problem?: "missing" | "not-executable" | "not-a-file";
}

export type FindClaudeResult =
  | { readonly found: true; readonly path: string; readonly source: ClaudeSource; readonly tried: readonly ClaudeCandidate[] }
  | { readonly found: false; readonly tried: readonly ClaudeCandidate[] };

export interface FindClaudeOptions {
  /** An explicit path (a setting or `--claude`). When given, nothing else is tried. */
  readonly explicitPath?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Folders whose node_modules/.bin (and their parents') are searched. */
  readonly searchFrom?: readonly string[];
  readonly homeDir?: string;
  readonly platform?: NodeJS.Platform;
}

export function findClaude(options: FindClaudeOptions = {}): FindClaudeResult {
  const env = options.env ?? process.env;
  const tried: ClaudeCandidate[] = [];
  const explicit: [string | undefined, ClaudeSource][] = [
    [options.explicitPath, "option"],
    [env.BATON_CLAUDE_PATH, "env"],
  ];
  for (const [given, source] of explicit) {
    if (!given) continue;
    // A setting is obeyed or reported, never silently replaced by another binary.
    return check(path.resolve(given), source, tried);
  }
  for (const [candidate, source] of candidates(options, env)) {
    const result = check(candidate, source, tried);
    if (result.found) return result;
  }
  return { found: false, tried };
}

function check(candidate: string, source: ClaudeSource, tried: ClaudeCandidate[]): FindClaudeResult {
  const problem = problemWith(candidate);
  tried.push(problem ? { path: candidate, source, problem } : { path: candidate, source });
  return problem ? { found: false, tried } : { found: true, path: candidate, source, tried };
}

function problemWith(file: string): ClaudeCandidate["problem"] {
  try {
    if (!statSync(file).isFile()) return "not-a-file";
  } catch {
    return "missing";
  }
  try {
    accessSync(file, constants.X_OK);
    return undefined;
  } catch {
    return "not-executable";
  }
}

function candidates(options: FindClaudeOptions, env: NodeJS.ProcessEnv): [string, ClaudeSource][] {
  const windows = (options.platform ?? process.platform) === "win32";
  const names = windows ? ["claude.exe", "claude.cmd", "claude"] : ["claude"];
  const home = options.homeDir ?? env.HOME ?? os.homedir();
  const list: [string, ClaudeSource][] = [];
  const add = (file: string, source: ClaudeSource) => {
    if (!list.some(([p]) => p === file)) list.push([file, source]);
  };

  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir) for (const name of names) add(path.join(dir, name), "path");
  }
  for (const start of options.searchFrom ?? [process.cwd()]) {
    for (const dir of ancestors(path.resolve(start))) {
      for (const name of names) add(path.join(dir, "node_modules", ".bin", name), "node_modules");
    }
  }
  const installDirs = [
    path.join(home, ".claude", "local"),
    path.join(home, ".local", "bin"),
    "/usr/local/bin",
    "/opt/homebrew/bin",
    ...npmGlobalBins(env),
  ];
  for (const dir of installDirs) for (const name of names) add(path.join(dir, name), "install-dir");
  return list;
}

function ancestors(dir: string): string[] {
  const out = [dir];
  for (let current = dir; path.dirname(current) !== current; ) {
    current = path.dirname(current);
    out.push(current);
  }
  return out;
}

/** npm's global bin without running npm: the configured prefix, or the one beside node itself. */
function npmGlobalBins(env: NodeJS.ProcessEnv): string[] {
  const bins: string[] = [];
  const prefix = env.npm_config_prefix ?? env.NPM_CONFIG_PREFIX;
  if (prefix) bins.push(process.platform === "win32" ? prefix : path.join(prefix, "bin"));
  bins.push(path.dirname(process.execPath));
  return bins;
}

/** One line per place looked, for error messages and `baton doctor`. */
export function describeSearch(tried: readonly ClaudeCandidate[]): string[] {
  return tried.map((c) => `${c.path} (${c.source})${c.problem ? `: ${c.problem}` : ""}`);
}

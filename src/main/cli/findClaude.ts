// Finds the `claude` the person uses: an explicit setting first (option, then BATON_CLAUDE_PATH),
// then their PATH, then the usual install places. Never the copy in Baton's own node_modules: it
// is the version Baton's tests pin, and npm puts its .bin first on PATH for `npx baton …` and
// `npm start`. Tests that want that copy pass its path explicitly. Reports every place it looked,
// so "not found" can say where, and for PATH which entry it came from.

import { accessSync, constants, realpathSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { batonPackageDir, isBatonPackageDir } from "./batonPackageDir.js";

export type ClaudeSource = "option" | "env" | "path" | "install-dir";

export interface ClaudeCandidate {
  readonly path: string;
  readonly source: ClaudeSource;
  /** For source "path": the PATH entry (folder) and its place in PATH, 1-based. */
  readonly pathEntry?: string;
  readonly pathIndex?: number;
  /** Why it was not taken, when it was not. "baton-own-copy": Baton's own test copy, skipped. */
  readonly problem?: "missing" | "not-executable" | "not-a-file" | "baton-own-copy";
}

export type FindClaudeResult =
  | ({ readonly found: true; readonly tried: readonly ClaudeCandidate[] } & Omit<ClaudeCandidate, "problem">)
  | { readonly found: false; readonly tried: readonly ClaudeCandidate[] };

export interface FindClaudeOptions {
  /** An explicit path (a setting or `--claude`). When given, nothing else is tried. */
  readonly explicitPath?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Baton's package folder, whose node_modules is skipped (default: found from this module). */
  readonly batonDir?: string;
  readonly homeDir?: string;
  /** The usual install places, in order (default: usualInstallDirs()). */
  readonly installDirs?: readonly string[];
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
    return check({ path: path.resolve(given), source }, tried);
  }
  const own = ownCopyTest(options.batonDir ?? batonPackageDir());
  for (const candidate of candidates(options, env)) {
    if (own(path.dirname(candidate.path))) {
      // Say so only when there was a binary to skip; a missing one was never a choice.
      if (problemWith(candidate.path) === undefined) tried.push({ ...candidate, problem: "baton-own-copy" });
      continue;
    }
    const result = check(candidate, tried);
    if (result.found) return result;
  }
  return { found: false, tried };
}

function check(candidate: ClaudeCandidate, tried: ClaudeCandidate[]): FindClaudeResult {
  const problem = problemWith(candidate.path);
  tried.push(problem ? { ...candidate, problem } : candidate);
  return problem ? { found: false, tried } : { found: true, ...candidate, tried };
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

/**
 * Whether a folder belongs to Baton's own node_modules: inside it (as written or after symlinks
 * are resolved), or any `<pkg>/node_modules/.bin` whose <pkg> is a package named "baton" (which
 * also catches a second checkout of Baton whose .bin an `npm run` put on PATH).
 */
function ownCopyTest(batonDir: string | undefined): (dir: string) => boolean {
  const roots = batonDir === undefined ? [] : unique([path.join(path.resolve(batonDir), "node_modules"), realOr(path.join(batonDir, "node_modules"))]);
  return (dir) =>
    unique([path.resolve(dir), realOr(dir)]).some(
      (d) =>
        roots.some((root) => isInside(d, root)) ||
        (path.basename(d) === ".bin" && path.basename(path.dirname(d)) === "node_modules" && isBatonPackageDir(path.dirname(path.dirname(d)))),
    );
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

function candidates(options: FindClaudeOptions, env: NodeJS.ProcessEnv): ClaudeCandidate[] {
  const windows = (options.platform ?? process.platform) === "win32";
  const names = windows ? ["claude.exe", "claude.cmd", "claude"] : ["claude"];
  const home = options.homeDir ?? env.HOME ?? os.homedir();
  const list: ClaudeCandidate[] = [];
  const add = (candidate: ClaudeCandidate) => {
    if (!list.some((c) => c.path === candidate.path)) list.push(candidate);
  };

  const entries = (env.PATH ?? "").split(path.delimiter);
  entries.forEach((dir, i) => {
    // A relative entry (or an empty one, which means ".") would run whatever `claude` sits in
    // the folder Baton happens to start in.
    if (!dir || !path.isAbsolute(dir)) return;
    for (const name of names) add({ path: path.join(dir, name), source: "path", pathEntry: dir, pathIndex: i + 1 });
  });
  for (const dir of options.installDirs ?? usualInstallDirs(home, env)) for (const name of names) add({ path: path.join(dir, name), source: "install-dir" });
  return list;
}

/** Where the installers put `claude`: its own installer, pip/pipx-style ~/.local/bin, Homebrew, npm -g. */
export function usualInstallDirs(home: string, env: NodeJS.ProcessEnv = process.env): string[] {
  return [path.join(home, ".claude", "local"), path.join(home, ".local", "bin"), "/usr/local/bin", "/opt/homebrew/bin", ...npmGlobalBins(env)];
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
  return tried.map((c) => `${c.path} (${describeSource(c)})${c.problem ? `: ${describeProblem(c.problem)}` : ""}`);
}

/** How a candidate was reached, in words: "PATH entry 3, /usr/local/bin". */
export function describeSource(c: Pick<ClaudeCandidate, "source" | "pathEntry" | "pathIndex">): string {
  switch (c.source) {
    case "option":
      return "--claude / the setting";
    case "env":
      return "BATON_CLAUDE_PATH";
    case "path":
      return c.pathIndex !== undefined ? `PATH entry ${c.pathIndex}, ${c.pathEntry ?? "?"}` : "PATH";
    case "install-dir":
      return "usual install place";
  }
}

function describeProblem(problem: NonNullable<ClaudeCandidate["problem"]>): string {
  return problem === "baton-own-copy" ? "skipped, Baton's own copy for its tests" : problem;
}

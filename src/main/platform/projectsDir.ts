// Where the CLI keeps its history (docs/configuration.md). Baton only ever reads below this folder.

import os from "node:os";
import path from "node:path";
import type { ProjectsDirSource } from "../../shared/api.js";

export interface ProjectsDirOptions {
  /** An explicit folder (`--projects-dir`) wins over everything else. */
  readonly override?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly homeDir?: string;
}

/** `--projects-dir`, else `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
export function resolveProjectsDir(options: ProjectsDirOptions = {}): string {
  if (options.override !== undefined && options.override !== "") return path.resolve(options.override);
  const env = options.env ?? process.env;
  const configDir = env["CLAUDE_CONFIG_DIR"];
  if (configDir !== undefined && configDir !== "") return path.join(path.resolve(configDir), "projects");
  return path.join(options.homeDir ?? os.homedir(), ".claude", "projects");
}

/**
 * Where the CLI run with `env` writes its sessions (its CLAUDE_CONFIG_DIR, else its HOME's
 * .claude): not Baton's history folder, which the person may point elsewhere.
 */
export function cliProjectsDir(env: NodeJS.ProcessEnv): string {
  const home = env["HOME"] || env["USERPROFILE"];
  return resolveProjectsDir({ env, ...(home ? { homeDir: home } : {}) });
}

export interface ProjectsDirChoice {
  readonly projectsDir: string;
  readonly source: ProjectsDirSource;
}

/**
 * The desktop app's order: the `--projects-dir` switch, else the folder saved in Baton's settings,
 * else `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. A leading `~` means the home folder
 * (a typed setting, or `--projects-dir=~/x`, which no shell expands).
 */
export function chooseProjectsDir(options: ProjectsDirOptions & { readonly setting?: string | undefined }): ProjectsDirChoice {
  const home = options.homeDir ?? os.homedir();
  if (options.override !== undefined && options.override !== "") return { projectsDir: path.resolve(expandHome(options.override, home)), source: "command-line" };
  if (options.setting !== undefined && options.setting !== "") return { projectsDir: path.resolve(expandHome(options.setting, home)), source: "setting" };
  const env = options.env ?? process.env;
  const configDir = env["CLAUDE_CONFIG_DIR"];
  return { projectsDir: resolveProjectsDir({ env, homeDir: home }), source: configDir !== undefined && configDir !== "" ? "environment" : "default" };
}

/** `~` and `~/x` (or `~\x`) relative to `home`; any other path unchanged. */
export function expandHome(p: string, home: string = os.homedir()): string {
  if (p === "~") return home;
  if (p.startsWith("~/") || p.startsWith("~\\")) return path.join(home, p.slice(2));
  return p;
}

/** Whether `p` is the folder `dir` or lies below it (paths resolved; `..x` is a name, not a step up). */
export function isInsideDir(p: string, dir: string): boolean {
  const rel = path.relative(path.resolve(dir), path.resolve(p));
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** The CLI's folder name for a cwd: every non-alphanumeric character becomes `-`. */
export function projectFolderName(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

const sessionFilePattern = /^[^.].*\.jsonl$/;

/** True for `<sessionId>.jsonl` main transcripts; false for root-layout `agent-*.jsonl` sidechains. */
export function isMainTranscriptName(fileName: string): boolean {
  return sessionFilePattern.test(fileName) && !fileName.startsWith("agent-");
}

export function sessionIdFromPath(filePath: string): string {
  return path.basename(filePath, ".jsonl");
}

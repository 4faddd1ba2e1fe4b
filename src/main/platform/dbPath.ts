// Where the history index lives: Baton's own config dir, never inside ~/.claude nor inside the
// projects folder it reads, wherever that is: Baton only reads the CLI's files (docs/configuration.md).
import os from "node:os";
import path from "node:path";
import { mayBeInsideDir } from "./containedPath.js";
import { resolveProjectsDir } from "./projectsDir.js";
import { StoreError } from "./sqlite/errors.js";

export const DB_FILE_NAME = "history.db";
/** Baton's audit trail: beside the index, in its own file, so rebuilding the index never touches it. */
export const AUDIT_FILE_NAME = "audit.sqlite";

export interface DbPathEnv {
  readonly home: string;
  readonly xdgConfigHome?: string | undefined;
  /** The history folder in use: a --projects-dir or $CLAUDE_CONFIG_DIR/projects may lie outside ~/.claude. */
  readonly projectsDir?: string | undefined;
}

/** This process's env; `projectsDir` defaults to the one the CLI would use ($CLAUDE_CONFIG_DIR). */
export function processDbPathEnv(projectsDir: string = resolveProjectsDir()): DbPathEnv {
  return { home: os.homedir(), xdgConfigHome: process.env["XDG_CONFIG_HOME"], projectsDir };
}

export function defaultDbPath(env: DbPathEnv = processDbPathEnv()): string {
  const base = env.xdgConfigHome ? env.xdgConfigHome : path.join(env.home, ".config");
  return path.join(base, "baton", DB_FILE_NAME);
}

/** The audit file for an index path (default, --db or a setting alike): same folder. */
export function auditDbPath(dbPath: string): string {
  return path.join(path.dirname(path.resolve(dbPath)), AUDIT_FILE_NAME);
}

/**
 * Throws `forbidden_path` when `dbPath` would put the database inside `~/.claude` or `env.projectsDir`,
 * as written or once links are followed (a link to either, `/proc/self/root/…`).
 */
export function checkDbPath(dbPath: string, env: DbPathEnv = processDbPathEnv()): string {
  const resolved = path.resolve(dbPath);
  const claudeDir = path.resolve(env.home, ".claude");
  if (mayBeInsideDir(resolved, claudeDir)) {
    throw new StoreError(
      "forbidden_path",
      `refusing to put Baton's database inside ${claudeDir} (got ${resolved}); choose another --db`,
    );
  }
  const projectsDir = env.projectsDir === undefined ? undefined : path.resolve(env.projectsDir);
  if (projectsDir !== undefined && mayBeInsideDir(resolved, projectsDir)) {
    throw new StoreError(
      "forbidden_path",
      `refusing to put Baton's database inside the Claude Code history folder ${projectsDir} (got ${resolved}); choose another --db`,
    );
  }
  return resolved;
}

// Git as a child process: an argument array (never a shell), standard input closed, a timeout, a
// bounded output, and nothing a repository configures: before each command the folder's owner is
// checked (repositoryOwner.ts) and its config read, and the command runs under the overrides and
// the clean environment of hardenedGit.ts, in the work tree the repository's .git is in. The only
// way Baton runs git.
import { spawn } from "node:child_process";
import { findOnPath } from "../platform/findOnPath.js";
import { driverOverrides, hardenedEnv, overridesApplied, parseConfigKeys } from "./hardenedGit.js";
import { ownedRepositoryTop } from "./repositoryOwner.js";

export const GitTimeoutMs = 30_000;
const MaxOutput = 64 * 1024 * 1024;

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** git exited non-zero, timed out, or could not start. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | string,
    readonly stderr: string,
  ) {
    super(`git ${args.join(" ")} failed (${code}): ${stderr.trim().split("\n")[0] ?? ""}`);
    this.name = "GitError";
  }
}

export interface GitOptions {
  readonly cwd: string;
  readonly timeoutMs?: number;
  /** A temporary index for the command (GIT_INDEX_FILE): the rescue's snapshot. */
  readonly indexFile?: string;
  /**
   * Folders where git itself runs git for this command (`worktree remove` checks the worktree's
   * status in it): their owner is checked and the drivers their config names are turned off too.
   */
  readonly alsoIn?: readonly string[];
}

let found: { readonly path: string; readonly file: string } | undefined;

/**
 * git's full path, found on PATH's absolute folders only: never the current folder (Windows
 * would otherwise start a repository's own git.exe from the folder git runs in).
 */
async function gitProgram(): Promise<string> {
  const pathVar = process.env["PATH"] ?? process.env["Path"] ?? "";
  if (found?.path === pathVar) return found.file;
  const file = await findOnPath("git", process.platform, process.env);
  if (file === undefined) throw new GitError([], "not-found", "git was not found on PATH");
  found = { path: pathVar, file };
  return file;
}

function execute(file: string, args: readonly string[], cwd: string, env: Record<string, string>, timeoutMs: number): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, ["--no-pager", ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"], shell: false, windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let stopped: string | undefined;
    let settled = false;
    const stop = (why: string): void => {
      stopped ??= why;
      child.kill();
    };
    const timer = setTimeout(() => stop("timeout"), timeoutMs);
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MaxOutput) return stop("output too large");
      into.push(chunk);
    };
    child.stdout.on("data", collect(out));
    child.stderr.on("data", collect(err));
    child.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      reject(new GitError(args, error.code ?? "failed to start", error.message));
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      const stderr = Buffer.concat(err).toString("utf8");
      if (stopped !== undefined || code === null) return reject(new GitError(args, stopped ?? signal ?? "killed", stderr));
      resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr });
    });
  });
}

const ConfigList = ["config", "--includes", "--null", "--list"];

/** Every config key git sees in `cwd` (all scopes, includes followed); reading runs nothing. */
async function configKeys(program: string, cwd: string): Promise<string[]> {
  const result = await execute(program, ConfigList, cwd, hardenedEnv(process.env), GitTimeoutMs);
  if (result.code !== 0) throw new GitError(ConfigList, result.code, result.stderr);
  if (!overridesApplied(result.stdout)) {
    throw new GitError(ConfigList, "unsupported", "this git ignores GIT_CONFIG_COUNT (git 2.31 or later honours it), so Baton cannot turn off the programs a repository configures");
  }
  return parseConfigKeys(result.stdout);
}

/**
 * Runs git; resolves with the exit code (no throw on non-zero), rejects when git could not run,
 * timed out, or the repository is someone else's (RepositoryNotOwnedError).
 */
export async function gitRun(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const program = await gitProgram();
  const keys = new Set<string>();
  const workTree = await ownedRepositoryTop(options.cwd);
  for (const folder of options.alsoIn ?? []) await ownedRepositoryTop(folder);
  for (const folder of [options.cwd, ...(options.alsoIn ?? [])]) for (const key of await configKeys(program, folder)) keys.add(key);
  const env = hardenedEnv(process.env, {
    overrides: driverOverrides(keys),
    ...(workTree !== undefined ? { workTree } : {}),
    ...(options.indexFile !== undefined ? { indexFile: options.indexFile } : {}),
  });
  return execute(program, args, options.cwd, env, options.timeoutMs ?? GitTimeoutMs);
}

/** Runs git and returns stdout; a non-zero exit is a GitError. */
export async function git(args: readonly string[], options: GitOptions): Promise<string> {
  const result = await gitRun(args, options);
  if (result.code !== 0) throw new GitError(args, result.code, result.stderr);
  return result.stdout;
}

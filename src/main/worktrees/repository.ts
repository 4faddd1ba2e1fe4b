// The repository a worktree action is about, and the check that a path is one of its worktrees
// (by real path) before anything touches it.
import { realpath } from "node:fs/promises";
import path from "node:path";
import type { WorktreeErrorCode } from "../../shared/worktrees.js";
import { git, GitError, gitRun } from "./git.js";
import { parseWorktreeList, type PorcelainWorktree } from "./porcelain.js";
import { ownedRepositoryTop, RepositoryNotOwnedError } from "./repositoryOwner.js";

/** A refusal or failure of a worktree action; `code` says which, the message says it for a person. */
export class WorktreeActionError extends Error {
  constructor(
    readonly code: WorktreeErrorCode,
    message: string,
    readonly files: readonly string[] = [],
  ) {
    super(message);
    this.name = "WorktreeActionError";
  }
}

export interface RegisteredWorktree extends PorcelainWorktree {
  /** The real path when the folder exists, else the path git recorded. */
  readonly realPath: string;
  readonly exists: boolean;
  readonly isMain: boolean;
  readonly branch?: string;
}

export interface Repository {
  /** The main worktree's real path. */
  readonly root: string;
  readonly commonDir: string;
  readonly worktrees: readonly RegisteredWorktree[];
}

async function realOrNull(p: string): Promise<string | null> {
  try {
    return await realpath(p);
  } catch {
    return null;
  }
}

export function shortBranch(ref: string | undefined): string | undefined {
  return ref?.startsWith("refs/heads/") === true ? ref.slice("refs/heads/".length) : ref;
}

/** The repository `dir` belongs to, with its registered worktrees. */
export async function openRepository(dir: string): Promise<Repository> {
  const cwd = await realOrNull(dir);
  if (cwd === null) throw new WorktreeActionError("not-a-repository", `${dir} does not exist`);
  const probe = await gitRun(["rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd }).catch((error: unknown) => {
    throw asActionError(error);
  });
  if (probe.code !== 0) throw new WorktreeActionError("not-a-repository", `${dir} is not in a git repository`);
  const commonDir = (await realOrNull(probe.stdout.trim())) ?? probe.stdout.trim();
  const listed = parseWorktreeList(await git(["worktree", "list", "--porcelain", "-z"], { cwd }));
  const worktrees: RegisteredWorktree[] = [];
  for (const [i, w] of listed.entries()) {
    const real = await realOrNull(w.path);
    const branch = shortBranch(w.branchRef);
    worktrees.push({ ...w, realPath: real ?? path.resolve(w.path), exists: real !== null, isMain: i === 0, ...(branch !== undefined ? { branch } : {}) });
  }
  const main = worktrees[0];
  if (main === undefined || main.bare) throw new WorktreeActionError("not-a-repository", `${dir}: a bare repository has no main worktree`);
  // `dir` may be a linked worktree: the main one, where most commands run, must be the person's too.
  await ownedRepositoryTop(main.realPath).catch((error: unknown) => {
    throw asActionError(error);
  });
  return { root: main.realPath, commonDir, worktrees };
}

/**
 * The registered worktree at `target` (real path compared, so a symlink or `..` cannot point an
 * action at anything else). A path that is not one of the repository's worktrees is refused.
 */
export async function findWorktree(repo: Repository, target: string): Promise<RegisteredWorktree> {
  const absolute = path.resolve(target);
  const real = (await realOrNull(absolute)) ?? absolute;
  const found = repo.worktrees.find((w) => w.realPath === real || (!w.exists && path.resolve(w.path) === absolute));
  if (found === undefined) throw new WorktreeActionError("not-a-worktree", `${target} is not a worktree of the repository at ${repo.root}`);
  return found;
}

/** `-c user.name/-c user.email` when the repository has no identity, so Baton's own commits never fail on it. */
export async function identityArgs(cwd: string): Promise<string[]> {
  const email = await gitRun(["config", "user.email"], { cwd });
  const name = await gitRun(["config", "user.name"], { cwd });
  return [...(name.code === 0 && name.stdout.trim() !== "" ? [] : ["-c", "user.name=Baton"]), ...(email.code === 0 && email.stdout.trim() !== "" ? [] : ["-c", "user.email=baton@localhost"])];
}

/** Runs a worktree action: whatever fails reaches the caller as a WorktreeActionError. */
export async function worktreeAction<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asActionError(error);
  }
}

/** A worktree whose folder is gone has nothing to read, open or merge. */
export function refuseFolderGone(w: RegisteredWorktree): void {
  if (!w.exists || w.prunable) throw new WorktreeActionError("folder-gone", `${w.realPath}: the folder is gone`);
}

export function asActionError(error: unknown): WorktreeActionError {
  if (error instanceof WorktreeActionError) return error;
  if (error instanceof RepositoryNotOwnedError) return new WorktreeActionError("not-owned", error.message);
  if (error instanceof GitError) return new WorktreeActionError("git-failed", error.message);
  return new WorktreeActionError("git-failed", error instanceof Error ? error.message : String(error));
}

// The worktree actions of a tab (issue 25): on the repository of the tab's cwd, with the tab's
// live sessions counted as running. The worktrees module checks every path before it acts; this
// file only picks the repository and turns its typed refusals into the API's error codes.

import type { WorktreeListing, WorktreeMerge, WorktreeOpened, WorktreeOpenTarget, WorktreeRemoval } from "../../shared/worktrees.js";
import { diffWorktree, listWorktrees, mergeWorktree, openWorktree, removeWorktree, WorktreeActionError } from "../worktrees/index.js";
import { AppError } from "./appError.js";

export interface TabRepository {
  /** The tab's working folder: its repository is the one acted on. */
  readonly cwd: string;
  /** Session ids of Baton's live tabs. */
  readonly liveSessionIds: ReadonlySet<string>;
  readonly projectsDir?: string;
}

/** `worktree_dirty`, `worktree_not_a_worktree`, …: the module's code, snake-cased, in the API's namespace. */
export function worktreeApiCode(code: WorktreeActionError["code"]): string {
  return `worktree_${code.replace(/-/g, "_")}`;
}

async function mapped<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof WorktreeActionError)) throw error;
    const missing = error.files.filter((f) => !error.message.includes(f));
    const message = missing.length === 0 ? error.message : `${error.message} (files: ${error.files.join(", ")})`;
    throw new AppError(worktreeApiCode(error.code), message);
  }
}

export function listTabWorktrees(repo: TabRepository): Promise<WorktreeListing> {
  return mapped(() =>
    listWorktrees(repo.cwd, { liveSessionIds: repo.liveSessionIds, ...(repo.projectsDir !== undefined ? { projectsDir: repo.projectsDir } : {}) }),
  );
}

export function tabWorktreeDiff(repo: TabRepository, path: string): Promise<string> {
  return mapped(() => diffWorktree(repo.cwd, path));
}

export function mergeTabWorktree(repo: TabRepository, path: string): Promise<WorktreeMerge> {
  return mapped(() => mergeWorktree(repo.cwd, path));
}

export function removeTabWorktree(repo: TabRepository, path: string, rescue: boolean): Promise<WorktreeRemoval> {
  return mapped(() => removeWorktree(repo.cwd, path, { rescue }));
}

export async function openTabWorktree(repo: TabRepository, path: string, where: WorktreeOpenTarget, env: NodeJS.ProcessEnv): Promise<WorktreeOpened> {
  const opened = await mapped(() => openWorktree(repo.cwd, path, where, { env }));
  return { program: opened.command };
}

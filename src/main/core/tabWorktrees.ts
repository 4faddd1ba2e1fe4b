// The worktree actions of a tab (issue 25): on the repository of the tab's cwd, with Baton's live
// sessions counted as running. The worktrees module checks every path before it acts; this
// file only picks the repository and turns its typed refusals into the API's error codes.

import type { WorktreeListing, WorktreeMerge, WorktreeOpened, WorktreeOpenTarget, WorktreeRemoval } from "../../shared/worktrees.js";
import { diffWorktree, listWorktrees, mergeWorktree, openWorktree, removeWorktree, WorktreeActionError } from "../worktrees/index.js";
import { AppError } from "./appError.js";
import type { TabList } from "./tabList.js";

export interface TabRepository {
  /** The tab's working folder: its repository is the one acted on. */
  readonly cwd: string;
  /** Session ids of Baton's live tabs. */
  readonly liveSessionIds: ReadonlySet<string>;
  /** The folders Baton's live tabs run in: a worktree holding one is not removed. */
  readonly liveFolders?: readonly string[];
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
    listWorktrees(repo.cwd, { liveSessionIds: repo.liveSessionIds, liveFolders: repo.liveFolders ?? [], ...(repo.projectsDir !== undefined ? { projectsDir: repo.projectsDir } : {}) }),
  );
}

export function tabWorktreeDiff(repo: TabRepository, path: string): Promise<string> {
  return mapped(() => diffWorktree(repo.cwd, path));
}

export function mergeTabWorktree(repo: TabRepository, path: string): Promise<WorktreeMerge> {
  return mapped(() => mergeWorktree(repo.cwd, path));
}

export function removeTabWorktree(repo: TabRepository, path: string, rescue: boolean): Promise<WorktreeRemoval> {
  return mapped(() => removeWorktree(repo.cwd, path, { rescue, liveFolders: repo.liveFolders ?? [] }));
}

export async function openTabWorktree(repo: TabRepository, path: string, where: WorktreeOpenTarget, env: NodeJS.ProcessEnv): Promise<WorktreeOpened> {
  const opened = await mapped(() => openWorktree(repo.cwd, path, where, { env }));
  return { program: opened.command };
}

export interface TabWorktreesOptions {
  readonly tabs: TabList;
  /** The history folder now (it can change): worktrees of sessions there count as their agents'. */
  readonly projectsDir: () => string | undefined;
  /** The environment Baton gives the CLI; absent: Baton's own. */
  readonly env: NodeJS.ProcessEnv | undefined;
}

/** The API's worktree methods, each on the repository of the tab it names (live or restored). */
export class TabWorktrees {
  constructor(private readonly options: TabWorktreesOptions) {}

  list(tabId: string): Promise<WorktreeListing> {
    return listTabWorktrees(this.repositoryOf(tabId));
  }

  diff(tabId: string, path: string): Promise<string> {
    return tabWorktreeDiff(this.repositoryOf(tabId), path);
  }

  merge(tabId: string, path: string): Promise<WorktreeMerge> {
    return mergeTabWorktree(this.repositoryOf(tabId), path);
  }

  remove(tabId: string, path: string, rescue: boolean): Promise<WorktreeRemoval> {
    return removeTabWorktree(this.repositoryOf(tabId), path, rescue);
  }

  /** The program is found on, and started with, the environment Baton gives the CLI. */
  open(tabId: string, path: string, where: WorktreeOpenTarget): Promise<WorktreeOpened> {
    return openTabWorktree(this.repositoryOf(tabId), path, where, this.options.env ?? process.env);
  }

  private repositoryOf(tabId: string): TabRepository {
    const { tabs } = this.options;
    const cwd = tabs.infoOf(tabs.require(tabId)).cwd;
    if (cwd === undefined) throw new AppError("no_repository", "This session has no working folder, so no repository");
    const liveSessionIds = new Set<string>();
    for (const t of tabs.liveTabs()) if (t.session.sessionId !== undefined) liveSessionIds.add(t.session.sessionId);
    const liveFolders = tabs.liveTabs().map((t) => t.cwd);
    const projectsDir = this.options.projectsDir();
    return { cwd, liveSessionIds, liveFolders, ...(projectsDir !== undefined ? { projectsDir } : {}) };
  }
}

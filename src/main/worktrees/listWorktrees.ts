// Every worktree of a repository: git's registered ones plus folders left in the CLI's own
// `.claude/worktrees/` that git no longer knows, with what git and the history say of each.
// Lists only: nothing is pruned, unlocked or changed.
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { WorktreeInfo, WorktreeListing } from "../../shared/worktrees.js";
import { isLockHolderAlive, readAgentWorktreeFacts, readLiveSessionIds } from "./agentHistory.js";
import { attributeWorktree, lockHolderKey, lockHolders, type AgentWorktreeFact, type LiveFacts } from "./attribution.js";
import { aheadBehind, baseOf, dirtOf, headOf, ignoredOf, unmergedCommits, unmergedCount } from "./inspect.js";
import { holdsAny, realFolders } from "./liveFolders.js";
import { agentIdFromName } from "./porcelain.js";
import { openRepository, type RegisteredWorktree, type Repository } from "./repository.js";

export interface ListOptions {
  /** Claude Code's projects folder, for the agents that made worktrees. */
  readonly projectsDir?: string;
  /** Sessions known to be running (Baton's live tabs); added to what the CLI's sessions folder says. */
  readonly liveSessionIds?: ReadonlySet<string>;
  /** Folders Baton's live sessions run in: a worktree holding one is marked `sessionRunning`. */
  readonly liveFolders?: readonly string[];
}

/** The CLI keeps agent worktrees here, inside the repository. */
export const AgentWorktreesFolder = path.join(".claude", "worktrees");

export async function listWorktrees(dir: string, options: ListOptions = {}): Promise<WorktreeListing> {
  const repo = await openRepository(dir);
  const history = options.projectsDir === undefined ? [] : await readAgentWorktreeFacts(options.projectsDir, repo.root);
  const fromCli = options.projectsDir === undefined ? new Set<string>() : await readLiveSessionIds(path.dirname(options.projectsDir));
  const alive: string[] = [];
  for (const holder of lockHolders(repo.worktrees)) if (await isLockHolderAlive(holder)) alive.push(lockHolderKey(holder));
  const live: LiveFacts = { sessionIds: new Set([...fromCli, ...(options.liveSessionIds ?? [])]), lockHoldersAlive: new Set(alive) };
  const worktrees: WorktreeInfo[] = [];
  const busy = await realFolders(options.liveFolders ?? []);
  for (const w of repo.worktrees) {
    const info = await describe(repo, w, history, live);
    worktrees.push(!w.isMain && holdsAny(w.realPath, busy) ? { ...info, sessionRunning: true } : info);
  }
  worktrees.push(...(await unregistered(repo)));
  return { repository: repo.root, worktrees };
}

async function describe(repo: Repository, w: RegisteredWorktree, history: readonly AgentWorktreeFact[], live: LiveFacts): Promise<WorktreeInfo> {
  const attribution = attributeWorktree({ ...w, path: w.realPath }, history, live);
  const base: Omit<WorktreeInfo, "head"> = {
    path: w.realPath,
    isMain: w.isMain,
    ...(w.branch !== undefined ? { branch: w.branch } : {}),
    locked: w.locked,
    ...(w.lockReason !== undefined ? { lockReason: w.lockReason } : {}),
    prunable: w.prunable || !w.exists,
    ...attribution,
    ...(!w.exists && attribution.orphaned === undefined ? { orphaned: "folder-gone" as const } : {}),
  };
  if (w.head === undefined) return base;
  try {
    const head = await headOf(repo.root, w.head);
    const baseBranch = await baseOf(repo, w);
    const counts = baseBranch === undefined ? undefined : await aheadBehind(repo.root, baseBranch, w.head);
    // The main worktree is never removed, and counting its history could be long.
    const unmerged = w.isMain ? undefined : await unmergedCount(repo.root, w.head, w.branchRef);
    const commits = unmerged !== undefined && unmerged > 0 ? await unmergedCommits(repo.root, w.head, w.branchRef) : undefined;
    const dirt = w.exists && !w.prunable ? await dirtOf(w.realPath) : undefined;
    // The main worktree is never removed: its ignored files are nobody's concern here.
    const ignored = w.exists && !w.prunable && !w.isMain ? await ignoredOf(w.realPath) : undefined;
    return {
      ...base,
      ...(head !== undefined ? { head } : {}),
      ...(baseBranch !== undefined ? { base: baseBranch } : {}),
      ...(counts ?? {}),
      ...(unmerged !== undefined ? { unmerged } : {}),
      ...(commits !== undefined ? { unmergedCommits: commits } : {}),
      ...(dirt !== undefined ? { dirt } : {}),
      ...(ignored !== undefined && ignored.count > 0 ? { ignored } : {}),
    };
  } catch (error) {
    return { ...base, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** Folders in `<repo>/.claude/worktrees/` that are not registered worktrees: listed, never touched. */
async function unregistered(repo: Repository): Promise<WorktreeInfo[]> {
  const folder = path.join(repo.root, AgentWorktreesFolder);
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const known = new Set(repo.worktrees.map((w) => w.realPath));
  return entries
    .filter((e) => e.isDirectory() && !known.has(path.join(folder, e.name)))
    .map((e) => {
      const p = path.join(folder, e.name);
      const id = agentIdFromName(e.name);
      return { path: p, isMain: false, locked: false, prunable: false, orphaned: "unregistered" as const, ...(id !== undefined ? { agentIdFromName: id } : {}) };
    });
}

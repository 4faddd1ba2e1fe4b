// Removing a worktree without losing a change. A clean one with no commits of its own goes with
// `git worktree remove`. A dirty one, or one whose commits no other ref holds, is refused unless
// `rescue` is asked; then everything is first committed to `baton/rescue/<name>-<timestamp>`,
// checked unchanged, and only then removed. Locked, main and vanished worktrees are refused.
// The one window left is a write in the moment between that check and git's removal; a running
// Claude Code agent holds its worktree locked, so it is refused before then, and so is one a live
// Baton session runs in (liveFolders.ts; sessionLock.ts locks it too, for every other tool). A Baton
// lock whose process is gone is undone first. Ignored files are not changes and are not rescued.
import path from "node:path";
import type { WorktreeRemoval } from "../../shared/worktrees.js";
import { git, gitRun } from "./git.js";
import { commitsText, dirtOf, unmergedCommits, unmergedCount } from "./inspect.js";
import { holdsAny, realFolders } from "./liveFolders.js";
import { batonLock, unlockIfBatons } from "./sessionLock.js";
import { commitSnapshot, snapshotWorktree } from "./snapshot.js";
import { findWorktree, identityArgs, openRepository, worktreeAction, WorktreeActionError, type RegisteredWorktree } from "./repository.js";

export interface RemoveOptions {
  readonly rescue?: boolean;
  /** For the rescue branch's timestamp. */
  readonly now?: Date;
  /** Folders Baton's live sessions run in: a worktree holding one is refused, rescue or not. */
  readonly liveFolders?: readonly string[];
}

/** A branch-name-safe form of a worktree's folder name (unicode, spaces and dashes in front included). */
export function rescueBranchName(worktreePath: string, now: Date): string {
  const safe = path
    .basename(worktreePath)
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[-.]+|[-.]+$/g, "")
    .replace(/\.lock$/i, "-lock")
    .slice(0, 80);
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `baton/rescue/${safe === "" ? "worktree" : safe}-${stamp}`;
}

async function refuseUnusable(w: RegisteredWorktree): Promise<void> {
  if (w.isMain) throw new WorktreeActionError("main-worktree", `${w.realPath} is the repository's main worktree: Baton never removes it`);
  if (!w.exists || w.prunable) throw new WorktreeActionError("folder-gone", `${w.realPath}: the folder is gone; git keeps its record until "git worktree prune" (Baton never prunes)`);
  if (!w.locked) return;
  const baton = await batonLock(w.lockReason);
  // A lock a Baton that is gone left behind holds nothing: it is undone, and the rest of the rules apply.
  if (baton === "stale") return unlockIfBatons(w.realPath, w.lockReason ?? "");
  // Another Baton's running session (sessionLock.ts) is named as one; any other lock as a lock.
  if (baton === "held") throw new WorktreeActionError("session-running", `${w.realPath}: a session runs in it in another Baton (${w.lockReason}); close its tab (or let it end) before removing it`);
  throw new WorktreeActionError("locked", `${w.realPath} is locked${w.lockReason === undefined ? "" : ` (${w.lockReason})`}: unlock it first ("git worktree unlock")`);
}

export function removeWorktree(repoDir: string, target: string, options: RemoveOptions = {}): Promise<WorktreeRemoval> {
  return worktreeAction(() => remove(repoDir, target, options));
}

async function remove(repoDir: string, target: string, options: RemoveOptions): Promise<WorktreeRemoval> {
  const repo = await openRepository(repoDir);
  const w = await findWorktree(repo, target);
  // This Baton's own sessions first: their worktrees are locked too (sessionLock.ts), and the reason to give is the tab.
  if (!w.isMain && holdsAny(w.realPath, await realFolders(options.liveFolders ?? []))) {
    throw new WorktreeActionError("session-running", `${w.realPath}: a session runs in it; close its tab (or let it end) before removing it`);
  }
  await refuseUnusable(w);
  const dirt = await dirtOf(w.realPath);
  const unmerged = w.head === undefined ? 0 : await unmergedCount(repo.root, w.head, w.branchRef);
  const files = dirt.files.map((f) => f.path);
  if (dirt.files.length === 0 && unmerged === 0) {
    // git checks the worktree's status itself, with git run in the worktree.
    await git(["worktree", "remove", w.realPath], { cwd: repo.root, alsoIn: [w.realPath] });
    return { kind: "removed", path: w.realPath };
  }
  if (options.rescue !== true) {
    const commits = unmerged === 0 || w.head === undefined ? "" : `${unmerged} commit(s) no other branch holds: ${commitsText(await unmergedCommits(repo.root, w.head, w.branchRef), unmerged)}`;
    const keep = "nothing removed (ask for a rescue to keep them on a branch)";
    if (dirt.files.length > 0) {
      const also = commits === "" ? "" : `, and ${commits}`;
      throw new WorktreeActionError("dirty", `${w.realPath} has uncommitted changes (${dirt.staged} staged, ${dirt.unstaged} unstaged, ${dirt.untracked} untracked): ${files.join(", ")}${also}; ${keep}`, files);
    }
    throw new WorktreeActionError("unmerged", `${w.realPath} has ${commits}; ${keep}`);
  }
  const snap = await snapshotWorktree(w.realPath);
  const tip = await commitSnapshot(w.realPath, snap, await identityArgs(w.realPath), path.basename(w.realPath));
  const branch = rescueBranchName(w.realPath, options.now ?? new Date());
  // An empty old value: create only, never move an existing branch.
  await git(["update-ref", "-m", "baton: rescue before removing a worktree", `refs/heads/${branch}`, tip, ""], { cwd: repo.root });
  const again = await snapshotWorktree(w.realPath);
  if (again.workTree !== snap.workTree || again.head !== snap.head) {
    throw new WorktreeActionError("dirty", `${w.realPath} changed while Baton rescued it; it was not removed (the rescue so far is on ${branch})`, files);
  }
  const clean = dirt.files.length === 0;
  const args = clean ? ["worktree", "remove", w.realPath] : ["worktree", "remove", "--force", w.realPath];
  const result = await gitRun(args, { cwd: repo.root, alsoIn: [w.realPath] });
  if (result.code !== 0) throw new WorktreeActionError("git-failed", `the changes are safe on ${branch}, but removing ${w.realPath} failed: ${result.stderr.trim()}`);
  return { kind: "rescued-and-removed", path: w.realPath, rescueBranch: branch, rescueCommit: tip, files: dirt.files };
}

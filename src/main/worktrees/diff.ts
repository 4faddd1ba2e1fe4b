// A worktree's diff against its base: from the merge base to everything in the worktree now
// (commits, staged, unstaged and untracked files), as text. Reads only.
import { git } from "./git.js";
import { baseOf } from "./inspect.js";
import { snapshotWorktree } from "./snapshot.js";
import { findWorktree, openRepository, refuseFolderGone, worktreeAction, WorktreeActionError } from "./repository.js";

export function diffWorktree(repoDir: string, target: string, options: { readonly base?: string } = {}): Promise<string> {
  return worktreeAction(async () => {
    const repo = await openRepository(repoDir);
    const w = await findWorktree(repo, target);
    refuseFolderGone(w);
    const base = options.base ?? (await baseOf(repo, w));
    if (base === undefined) throw new WorktreeActionError("no-base", `${w.realPath} has no base branch to compare with`);
    const snap = await snapshotWorktree(w.realPath);
    const mergeBase = (await git(["merge-base", `refs/heads/${base}`, snap.head], { cwd: repo.root })).trim();
    return await git(["diff", "--no-color", "--no-ext-diff", "--no-textconv", mergeBase, snap.workTree, "--"], { cwd: repo.root });
  });
}

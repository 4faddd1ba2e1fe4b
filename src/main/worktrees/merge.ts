// Merging a worktree's HEAD into its base branch: a fast-forward when possible, else a merge
// commit; a conflict is reported with its files and nothing is left half-done. Never forced.
// Where the base is checked out, git merges in that worktree (its files must follow). Where it is
// not, the merge is made from objects alone (`git merge-tree --write-tree`, git 2.38+) and the
// branch moved only from the commit it was read at, so no worktree is touched.
import type { WorktreeMerge } from "../../shared/worktrees.js";
import { git, gitRun } from "./git.js";
import { baseOf, dirtOf } from "./inspect.js";
import { findWorktree, identityArgs, openRepository, refuseFolderGone, worktreeAction, WorktreeActionError } from "./repository.js";

export function mergeWorktree(repoDir: string, target: string, options: { readonly base?: string } = {}): Promise<WorktreeMerge> {
  return worktreeAction(() => merge(repoDir, target, options.base));
}

async function isAncestor(cwd: string, a: string, b: string): Promise<boolean> {
  return (await gitRun(["merge-base", "--is-ancestor", a, b], { cwd })).code === 0;
}

async function merge(repoDir: string, target: string, wantedBase: string | undefined): Promise<WorktreeMerge> {
  const repo = await openRepository(repoDir);
  const w = await findWorktree(repo, target);
  refuseFolderGone(w);
  const base = wantedBase ?? (await baseOf(repo, w));
  if (base === undefined || w.head === undefined) throw new WorktreeActionError("no-base", `${w.realPath} has no base branch to merge into`);
  const dirt = await dirtOf(w.realPath);
  if (dirt.files.length > 0) {
    const files = dirt.files.map((f) => f.path);
    throw new WorktreeActionError("dirty", `${w.realPath} has uncommitted changes (${files.join(", ")}): commit them first, a merge takes commits only`, files);
  }
  const baseRef = `refs/heads/${base}`;
  const before = (await git(["rev-parse", "--verify", baseRef], { cwd: repo.root })).trim();
  const source = w.head;
  if (await isAncestor(repo.root, source, before)) return { kind: "up-to-date", base };
  const label = w.branch ?? source.slice(0, 12);
  const into = repo.worktrees.find((o) => o.branch === base && o.exists && !o.prunable);
  if (into === undefined) return mergeByObjects(repo.root, base, before, source, label);
  const intoDirt = await dirtOf(into.realPath);
  const tracked = intoDirt.files.filter((f) => f.code !== "??").map((f) => f.path);
  if (tracked.length > 0) throw new WorktreeActionError("base-dirty", `${into.realPath} (on ${base}) has uncommitted changes: ${tracked.join(", ")}`, tracked);
  const cwd = into.realPath;
  if (await isAncestor(repo.root, before, source)) {
    await git(["merge", "--ff-only", "--no-edit", source], { cwd });
    return { kind: "fast-forward", base, from: before, to: source };
  }
  const result = await gitRun([...(await identityArgs(cwd)), "merge", "--no-ff", "--no-edit", "-m", `Merge ${label} into ${base}`, source], { cwd });
  if (result.code === 0) return { kind: "merge-commit", base, commit: (await git(["rev-parse", "--verify", baseRef], { cwd })).trim() };
  const conflicted = (await gitRun(["diff", "--name-only", "-z", "--diff-filter=U", "--ignore-submodules=dirty"], { cwd })).stdout.split("\0").filter((f) => f !== "");
  const inProgress = (await gitRun(["rev-parse", "-q", "--verify", "MERGE_HEAD"], { cwd })).code === 0;
  if (inProgress) await git(["merge", "--abort"], { cwd });
  const after = (await git(["rev-parse", "--verify", baseRef], { cwd })).trim();
  if (after !== before) throw new WorktreeActionError("git-failed", `the merge into ${base} failed and ${base} moved from ${before} to ${after}`);
  if (conflicted.length === 0) throw new WorktreeActionError("git-failed", `git merge into ${base} failed: ${result.stderr.trim() || result.stdout.trim()}`);
  return { kind: "conflict", base, files: conflicted };
}

/** A base branch no worktree has checked out: moved by `update-ref` with its old value, so a branch that moved meanwhile is left alone. */
async function mergeByObjects(cwd: string, base: string, before: string, source: string, label: string): Promise<WorktreeMerge> {
  const baseRef = `refs/heads/${base}`;
  if (await isAncestor(cwd, before, source)) {
    await git(["update-ref", "-m", `baton: fast-forward ${base} to ${label}`, baseRef, source, before], { cwd });
    return { kind: "fast-forward", base, from: before, to: source };
  }
  const tree = await gitRun(["merge-tree", "--write-tree", "--name-only", "-z", "--no-messages", before, source], { cwd });
  // 0: merged cleanly; 1: conflicts; anything else: this git cannot merge without a checkout.
  if (tree.code !== 0 && tree.code !== 1) {
    const why = tree.stderr.trim().split("\n")[0] ?? "";
    throw new WorktreeActionError("base-not-checked-out", `the base branch ${base} is not checked out in any worktree, and git could not merge into it without one (${why}; it takes git 2.38 or later): check it out to merge into it`);
  }
  const [treeId = "", ...conflicted] = tree.stdout.split("\0");
  if (tree.code === 1) return { kind: "conflict", base, files: [...new Set(conflicted.filter((f) => f !== ""))] };
  const message = `Merge ${label} into ${base}`;
  const commit = (await git([...(await identityArgs(cwd)), "commit-tree", treeId.trim(), "-p", before, "-p", source, "-m", message], { cwd })).trim();
  await git(["update-ref", "-m", `baton: ${message}`, baseRef, commit, before], { cwd });
  return { kind: "merge-commit", base, commit };
}

// A worktree's uncommitted state as commits, without touching its index, HEAD or files: a copy of
// its index gives the staged tree, `git add -A` on that copy the whole working tree (untracked
// files included, ignored ones not).
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { git } from "./git.js";

export interface Snapshot {
  readonly head: string;
  readonly stagedTree: string;
  readonly workTree: string;
}

export async function snapshotWorktree(worktreePath: string): Promise<Snapshot> {
  const cwd = worktreePath;
  const head = (await git(["rev-parse", "--verify", "HEAD^{commit}"], { cwd })).trim();
  const indexPath = path.resolve(cwd, (await git(["rev-parse", "--git-path", "index"], { cwd })).trim());
  const dir = await mkdtemp(path.join(os.tmpdir(), "baton-rescue-"));
  const tempIndex = path.join(dir, "index");
  try {
    await copyFile(indexPath, tempIndex).catch(async () => {
      await git(["read-tree", "HEAD"], { cwd, indexFile: tempIndex });
    });
    const stagedTree = (await git(["write-tree"], { cwd, indexFile: tempIndex })).trim();
    await git(["add", "-A", "--", "."], { cwd, indexFile: tempIndex });
    const workTree = (await git(["write-tree"], { cwd, indexFile: tempIndex })).trim();
    return { head, stagedTree, workTree };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Commits the snapshot on top of HEAD (staged state first, then the rest); the last commit's id. */
export async function commitSnapshot(cwd: string, snap: Snapshot, identity: readonly string[], label: string): Promise<string> {
  const headTree = (await git(["rev-parse", `${snap.head}^{tree}`], { cwd })).trim();
  let tip = snap.head;
  let tipTree = headTree;
  if (snap.stagedTree !== tipTree) {
    tip = (await git([...identity, "commit-tree", snap.stagedTree, "-p", tip, "-m", `Baton rescue of ${label}: staged changes`], { cwd })).trim();
    tipTree = snap.stagedTree;
  }
  if (snap.workTree !== tipTree) {
    tip = (await git([...identity, "commit-tree", snap.workTree, "-p", tip, "-m", `Baton rescue of ${label}: every uncommitted change, untracked files included`], { cwd })).trim();
  }
  return tip;
}

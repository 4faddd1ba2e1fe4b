// A worktree is locked while a Baton tab runs a session in it (issue 37): `git worktree lock` with
// Baton's reason, so `git worktree remove`, `baton worktrees remove` in a terminal and any other
// tool that honours git's locks refuse it, not only this window (liveFolders.ts). Held per tab and
// counted per worktree: a fork in the same worktree holds it too, and the lock goes with the last.
// A lock someone else holds (2.1.332 locks the worktrees its own `--worktree` makes; the person may
// lock one) is left as it is and never undone. A lock whose Baton is gone (its process died with
// the tab open) is stale: Baton's own remove undoes it first (remove.ts).
import { isLockHolderAlive, processStartTime } from "./agentHistory.js";
import { git, gitRun } from "./git.js";
import { openRepository } from "./repository.js";

const ReasonPattern = /^baton: a session runs here \(pid (\d+)(?:, start (\d+))?\)$/;

let ownReason: Promise<string> | undefined;

/**
 * The lock reason this Baton process writes: its pid and, where /proc tells it, its start time
 * (field 22 of /proc/<pid>/stat, as Claude Code's own locks carry), so a reused pid is not taken for it.
 */
export function batonLockReason(): Promise<string> {
  ownReason ??= processStartTime(process.pid).then((start) => `baton: a session runs here (pid ${process.pid}${start === undefined ? "" : `, start ${start}`})`);
  return ownReason;
}

/** What a worktree's lock reason says of Baton: none of its, held by a running Baton, or left by one that is gone. */
export async function batonLock(reason: string | undefined): Promise<"none" | "held" | "stale"> {
  const found = ReasonPattern.exec(reason ?? "");
  if (found === null) return "none";
  const start = found[2];
  return (await isLockHolderAlive({ pid: Number(found[1]), ...(start !== undefined ? { start } : {}) })) ? "held" : "stale";
}

/** Undoes a lock only while it is still Baton's (with `reason`); a lock changed since is someone else's. */
export async function unlockIfBatons(worktreePath: string, reason: string): Promise<void> {
  const repo = await openRepository(worktreePath);
  const w = repo.worktrees.find((x) => x.realPath === worktreePath);
  if (w?.locked !== true || w.lockReason !== reason) return;
  await git(["worktree", "unlock", w.realPath], { cwd: repo.root });
}

export class WorktreeLocks {
  /** Worktree folder → the tabs holding it, and whether the lock is Baton's to undo. */
  private readonly held = new Map<string, { count: number; ours: Promise<boolean> }>();
  /** Lock and unlock one at a time: a hold while the last one's unlock runs must not lose its lock. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly onError: (what: string, error: unknown) => void) {}

  /** Holds the worktree at `worktreePath` (its real path) locked until the returned release is called (once). */
  async hold(worktreePath: string): Promise<() => Promise<void>> {
    let entry = this.held.get(worktreePath);
    if (entry === undefined) {
      entry = { count: 0, ours: this.serial(() => this.lock(worktreePath)) };
      this.held.set(worktreePath, entry);
    }
    entry.count++;
    await entry.ours;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      const current = this.held.get(worktreePath);
      if (current === undefined || --current.count > 0) return;
      this.held.delete(worktreePath);
      if (await current.ours) await this.serial(async () => unlockIfBatons(worktreePath, await batonLockReason()).catch((error: unknown) => this.onError(`unlocking ${worktreePath}`, error)));
    };
  }

  /** Locks with Baton's reason; false when it was locked already (someone else's lock) or git failed. A stale Baton lock is taken over. */
  private async lock(worktreePath: string): Promise<boolean> {
    const lock = async (): Promise<boolean> => (await gitRun(["worktree", "lock", "--reason", await batonLockReason(), worktreePath], { cwd: worktreePath })).code === 0;
    try {
      if (await lock()) return true;
      const repo = await openRepository(worktreePath);
      const w = repo.worktrees.find((x) => x.realPath === worktreePath);
      if (w?.locked !== true || w.lockReason === undefined || (await batonLock(w.lockReason)) !== "stale") return false;
      await unlockIfBatons(worktreePath, w.lockReason);
      return await lock();
    } catch (error) {
      this.onError(`locking ${worktreePath}`, error);
      return false;
    }
  }

  private serial<T>(step: () => Promise<T>): Promise<T> {
    const next = this.queue.then(step, step);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

// A worktree a Baton tab runs a session in is locked with git's own lock (issue 37), so every tool
// that honours it refuses to remove the folder, not only Baton's window: real git in temp
// repositories. Two tabs in one worktree hold one lock until both are gone; a lock someone else
// holds is never undone; a lock a Baton that is gone left is taken over (a new hold) or undone
// (Baton's remove); another running Baton's lock refuses removal as a running session.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeWorktree } from "../../src/main/worktrees/index.js";
import { batonLock, batonLockReason, WorktreeLocks } from "../../src/main/worktrees/sessionLock.js";
import { commitFile, git } from "../support/git.js";
import { tempDirs } from "../support/tempDirs.js";
import { refusal } from "../support/worktreeErrors.js";

const tempDir = tempDirs("baton-wt-lock-");
let repo: string;
let worktree: string;
const failures: string[] = [];
const locks = () => new WorktreeLocks((what, error) => failures.push(`${what}: ${String(error)}`));

/** The lock line `git worktree list --porcelain` gives the worktree: its reason, or undefined when unlocked. */
function lockOf(where: string): string | undefined {
  const block = git(repo, "worktree", "list", "--porcelain")
    .split("\n\n")
    .find((b) => b.startsWith(`worktree ${where}\n`));
  if (block === undefined) throw new Error(`${where} is not a worktree`);
  const line = block.split("\n").find((l) => l === "locked" || l.startsWith("locked "));
  return line === undefined ? undefined : line.slice("locked ".length);
}

/** A process that has run and ended: its pid names nobody (until the system hands it out again). */
async function endedPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.on("exit", resolve));
  return child.pid!;
}

let running: ChildProcess | undefined;
afterEach(() => {
  running?.kill("SIGKILL");
  running = undefined;
  expect(failures).toEqual([]);
  failures.length = 0;
});

beforeEach(() => {
  const root = tempDir();
  repo = path.join(root, "repo");
  fs.mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  commitFile(repo, "a.txt", "one\n", "First commit");
  git(repo, "worktree", "add", "-q", "-b", "worktree-notes", path.join(root, "notes"), "main");
  worktree = fs.realpathSync(path.join(root, "notes"));
});

describe("a session's worktree lock", () => {
  it("holds git's lock with Baton's reason until the last tab in the worktree lets go", async () => {
    const l = locks();
    const first = await l.hold(worktree);
    const reason = await batonLockReason();
    expect(reason).toMatch(new RegExp(`^baton: a session runs here \\(pid ${process.pid}(, start \\d+)?\\)$`));
    expect(lockOf(worktree)).toBe(reason);
    // git itself refuses to remove it now.
    expect(() => git(repo, "worktree", "remove", worktree)).toThrow(/locked/);

    const second = await l.hold(worktree);
    await first();
    await first(); // a release counts once
    expect(lockOf(worktree)).toBe(reason);
    await second();
    expect(lockOf(worktree)).toBeUndefined();
  });

  it("leaves a lock someone else holds as it is", async () => {
    git(repo, "worktree", "lock", "--reason", "kept for review", worktree);
    const release = await locks().hold(worktree);
    await release();
    expect(lockOf(worktree)).toBe("kept for review");
  });

  it("takes over a lock a Baton that is gone left, and Baton's remove undoes one", async () => {
    const gone = `baton: a session runs here (pid ${await endedPid()})`;
    expect(await batonLock(gone)).toBe("stale");
    git(repo, "worktree", "lock", "--reason", gone, worktree);
    const release = await locks().hold(worktree);
    expect(lockOf(worktree)).toBe(await batonLockReason());
    await release();
    expect(lockOf(worktree)).toBeUndefined();

    git(repo, "worktree", "lock", "--reason", gone, worktree);
    expect(await removeWorktree(repo, worktree)).toEqual({ kind: "removed", path: worktree });
    expect(fs.existsSync(worktree)).toBe(false);
  });

  it("refuses to remove a worktree another running Baton holds, as a running session, until that Baton is gone", async () => {
    running = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    await new Promise((resolve) => running!.on("spawn", resolve));
    const held = `baton: a session runs here (pid ${running.pid})`;
    expect(await batonLock(held)).toBe("held");
    git(repo, "worktree", "lock", "--reason", held, worktree);
    const refused = await refusal(removeWorktree(repo, worktree));
    expect([refused.code, refused.message]).toEqual(["session-running", `${worktree}: a session runs in it in another Baton (${held}); close its tab (or let it end) before removing it`]);
    expect(fs.existsSync(worktree)).toBe(true);

    running.kill("SIGKILL");
    await new Promise((resolve) => running!.on("exit", resolve));
    running = undefined;
    expect(await removeWorktree(repo, worktree)).toEqual({ kind: "removed", path: worktree });
    // Another tool's lock is a lock, whatever its words.
    expect(await batonLock("kept for review")).toBe("none");
  });
});

// A session asked for in a new worktree whose CLI cannot start (issue 37): the start fails with
// the CLI's reason, no tab is left, and the worktree and branch made for it are gone again. One
// that gained a change meanwhile is kept.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../src/main/core/sessionManager.js";
import { createSessionWorktree, discardSessionWorktree } from "../../src/main/worktrees/index.js";
import { git } from "../support/git.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-sessionwt-start-");
let repo: string;
let manager: SessionManager | undefined;

beforeEach(() => {
  repo = fs.realpathSync(tempDir());
  git(repo, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(repo, "a.txt"), "a\n");
  git(repo, "add", "a.txt");
  git(repo, "commit", "-q", "-m", "first");
});
afterEach(async () => {
  await manager?.shutdown();
  manager = undefined;
});

const worktreeBranches = (): string => git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/worktree-*").trim();

describe("a new worktree for a session that does not start", () => {
  it("is removed with its branch, and no tab is left", async () => {
    manager = new SessionManager({ claudePath: path.join(repo, "no-such-claude") });
    const made: unknown[] = [];
    manager.onLog((e) => {
      if (e.message === "worktree made for a new session") made.push(e.fields?.["branch"]);
    });
    await expect(manager.newSession({ cwd: repo, newWorktree: true, initialPrompt: "Fix the bug" })).rejects.toThrow(/no-such-claude/);
    // It was made, and the CLI then failed.
    expect(made).toEqual(["worktree-fix-the-bug"]);
    expect(manager.listTabs()).toEqual([]);
    expect(fs.existsSync(path.join(repo, ".claude", "worktrees", "fix-the-bug"))).toBe(false);
    expect(worktreeBranches()).toBe("");
    expect(git(repo, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
  });

  it("is kept once it holds a change", async () => {
    const made = await createSessionWorktree(repo, "Keep me", "1");
    fs.writeFileSync(path.join(made.path, "work.txt"), "work\n");
    expect(await discardSessionWorktree(made)).toBe(false);
    expect(fs.readFileSync(path.join(made.path, "work.txt"), "utf8")).toBe("work\n");
    expect(worktreeBranches()).toBe("worktree-keep-me");
  });
});

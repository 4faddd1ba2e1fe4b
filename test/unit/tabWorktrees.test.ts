// The API's worktree actions on a tab's repository (issue 25): the worktrees module's refusals
// reach the page as `worktree_<code>` errors that name the files, through BatonService's mapping.

import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { apiRefusal } from "../support/worktreeErrors.js";
import { listTabWorktrees, openTabWorktree, removeTabWorktree, tabWorktreeDiff, worktreeApiCode } from "../../src/main/core/tabWorktrees.js";
import { tempDirs } from "../support/tempDirs.js";
import { git } from "../support/git.js";

const tempDir = tempDirs("baton-tabwt-");
let root: string;
let repo: string;

beforeEach(() => {
  root = tempDir();
  repo = path.join(root, "repo");
  fs.mkdirSync(repo);
  git(repo, "init", "-q");
  fs.writeFileSync(path.join(repo, "a.txt"), "a\n");
  git(repo, "add", "a.txt");
  git(repo, "commit", "-q", "-m", "first");
});

describe("a tab's worktree actions", () => {
  it("names the module's codes in the API's namespace", () => {
    expect(worktreeApiCode("dirty")).toBe("worktree_dirty");
    expect(worktreeApiCode("base-not-checked-out")).toBe("worktree_base_not_checked_out");
  });

  it("lists the repository of the tab's cwd and refuses a dirty worktree's removal with its files in the message", async () => {
    const wt = path.join(root, "wt");
    git(repo, "worktree", "add", "-q", "-b", "work", wt);
    fs.writeFileSync(path.join(wt, "new file.txt"), "x\n");
    const tab = { cwd: repo, liveSessionIds: new Set<string>() };
    const listing = await listTabWorktrees(tab);
    expect(listing.worktrees.map((w) => w.path)).toEqual([repo, wt]);
    const refused = await apiRefusal(removeTabWorktree(tab, wt, false));
    expect(refused.code).toBe("worktree_dirty");
    expect(refused.message).toContain("new file.txt");
    expect(fs.existsSync(wt)).toBe(true);
  });

  it("refuses a path that is not a worktree of the repository, and a cwd outside any repository", async () => {
    const tab = { cwd: repo, liveSessionIds: new Set<string>() };
    expect((await apiRefusal(tabWorktreeDiff(tab, root))).code).toBe("worktree_not_a_worktree");
    expect((await apiRefusal(listTabWorktrees({ cwd: root, liveSessionIds: new Set() }))).code).toBe("worktree_not_a_repository");
  });

  it("opening a worktree with no file manager on PATH fails as worktree_open_failed naming what was tried; a path outside it is refused first", async () => {
    const wt = path.join(root, "wt");
    git(repo, "worktree", "add", "-q", "-b", "work", wt);
    const tab = { cwd: repo, liveSessionIds: new Set<string>() };
    const env = { PATH: path.join(root, "no-programs-here") };
    const failed = await apiRefusal(openTabWorktree(tab, wt, "folder", env));
    expect(failed.code).toBe("worktree_open_failed");
    expect(failed.message).toMatch(/xdg-open|open|explorer/);
    expect((await apiRefusal(openTabWorktree(tab, root, "terminal", env))).code).toBe("worktree_not_a_worktree");
  });
});

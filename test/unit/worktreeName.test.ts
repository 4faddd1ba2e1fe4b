// A session worktree's name (issue 37): only [a-z0-9-], bounded, never taken for an agent's, and
// unique among the repository's worktrees and branches; made with real git, where a prompt that
// looks like an option or a path reaches git only as its slug, and a subfolder's session runs in
// the same subfolder of the new worktree.
import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { MaxWorktreeNameLength, sessionWorktreeName, worktreeSlug } from "../../src/shared/worktreeName.js";
import { createSessionWorktree, linkedWorktreeOf, repositoryRoot } from "../../src/main/worktrees/index.js";
import { git } from "../support/git.js";
import { tempDirs } from "../support/tempDirs.js";

describe("a session worktree's name", () => {
  it("is a slug of the prompt: lower case words joined by dashes", () => {
    expect(worktreeSlug("Fix the login page!")).toBe("fix-the-login-page");
    expect(worktreeSlug("  Café -- naïve   résumé ")).toBe("cafe-naive-resume");
    expect(worktreeSlug("../../etc/passwd; rm -rf ~ --force")).toBe("etc-passwd-rm-rf-force");
    expect(worktreeSlug("日本語 ✓ !!!")).toBe("");
  });

  it("is cut at a word to its bounded length, a single long word cut inside", () => {
    const long = worktreeSlug("refactor the payment service so that retries are idempotent everywhere");
    expect(long).toBe("refactor-the-payment-service-so-that");
    expect(long.length).toBeLessThanOrEqual(MaxWorktreeNameLength);
    expect(worktreeSlug("x".repeat(100))).toBe("x".repeat(MaxWorktreeNameLength));
  });

  it("is never taken for an agent's worktree", () => {
    expect(worktreeSlug("agent 1234abcd")).toBe("session-agent-1234abcd");
  });

  it("falls back to a short id, and is made unique against worktrees and branches", () => {
    expect(sessionWorktreeName(undefined, "a1b2c3", new Set())).toBe("session-a1b2c3");
    expect(sessionWorktreeName("日本語", "a1b2c3", new Set())).toBe("session-a1b2c3");
    expect(sessionWorktreeName("Fix it", "x", new Set(["fix-it"]))).toBe("fix-it-2");
    expect(sessionWorktreeName("Fix it", "x", new Set(["worktree-fix-it", "fix-it-2"]))).toBe("fix-it-3");
    const long = "a".repeat(MaxWorktreeNameLength);
    expect(sessionWorktreeName(long, "x", new Set([long]))).toBe(`${"a".repeat(MaxWorktreeNameLength - 2)}-2`);
  });
});

const tempDir = tempDirs("baton-sessionwt-");
let repo: string;

beforeEach(() => {
  repo = fs.realpathSync(tempDir());
  git(repo, "init", "-q", "-b", "main");
  fs.mkdirSync(path.join(repo, "web"));
  fs.writeFileSync(path.join(repo, "web", "index.html"), "<p>hi</p>\n");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "first");
});

describe("a session worktree made with git", () => {
  it("goes under .claude/worktrees on a new branch from HEAD, named uniquely, a hostile prompt only as its slug", async () => {
    git(repo, "branch", "worktree-fix-it");
    fs.mkdirSync(path.join(repo, ".claude", "worktrees", "fix-it-3"), { recursive: true });
    const made = await createSessionWorktree(repo, "--fix it", "abc123");
    const folder = path.join(repo, ".claude", "worktrees", "fix-it-2");
    expect(made).toEqual({ cwd: folder, path: folder, branch: "worktree-fix-it-2" });
    // A folder git does not know takes its name too.
    expect((await createSessionWorktree(repo, "Fix it", "abc123")).branch).toBe("worktree-fix-it-4");
    expect(git(folder, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("worktree-fix-it-2");
    expect(git(folder, "rev-parse", "HEAD")).toBe(git(repo, "rev-parse", "HEAD"));
    expect(await linkedWorktreeOf(folder)).toEqual({ path: folder, branch: "worktree-fix-it-2" });
    expect(await linkedWorktreeOf(repo)).toBeUndefined();
    expect(await repositoryRoot(folder)).toBe(repo);
  });

  it("runs a subfolder's session in the same subfolder of the worktree; two asked at once get two names", async () => {
    const [a, b] = await Promise.all([createSessionWorktree(path.join(repo, "web"), "Same task", "1"), createSessionWorktree(repo, "Same task", "2")]);
    expect(a?.cwd).toBe(path.join(repo, ".claude", "worktrees", "same-task", "web"));
    expect(b?.branch).toBe("worktree-same-task-2");
  });

  it("refuses a repository without a commit, and a folder outside git", async () => {
    const empty = fs.realpathSync(tempDir());
    git(empty, "init", "-q");
    await expect(createSessionWorktree(empty, "x", "1")).rejects.toMatchObject({ code: "no-base" });
    const outside = fs.realpathSync(tempDir());
    await expect(createSessionWorktree(outside, "x", "1")).rejects.toMatchObject({ code: "not-a-repository" });
    expect(await repositoryRoot(outside)).toBeUndefined();
  });
});

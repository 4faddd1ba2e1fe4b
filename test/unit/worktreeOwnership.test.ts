// A repository someone else owns is refused before any git runs in it (issue 31; git's own
// safe.directory rule, applied by Baton even where the person's config says `safe.directory=*`):
// the whole repository, its .git alone, a folder of the person's inside another's repository (a
// history file's cwd), and one linked worktree. The refusal is `worktree_not_owned` for the app
// and exit 1 with the message for `baton worktrees`. A git on PATH that logs where it runs shows
// none ran. Needs root to hand files to `nobody` (the CI runs as root); Linux/macOS only.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { apiRefusal } from "../support/worktreeErrors.js";
import { listTabWorktrees, removeTabWorktree, type TabRepository } from "../../src/main/core/tabWorktrees.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run } from "../../src/main/commands/worktrees.js";
import { chownTree } from "../support/armedRepository.js";
import { git } from "../support/git.js";
import { tempDirs } from "../support/tempDirs.js";

const Nobody = 65534;
const asRoot = process.getuid?.() === 0;

const tempDir = tempDirs("baton-owner-");
let root: string;
let repo: string;
let gitLog: string;
const savedEnv = { ...process.env };

const tab = (cwd: string): TabRepository => ({ cwd, liveSessionIds: new Set<string>() });

/** The folders git was started in since the last call. */
function gitRanIn(): string[] {
  const lines = fs.existsSync(gitLog) ? fs.readFileSync(gitLog, "utf8").split("\n").filter((l) => l !== "") : [];
  fs.rmSync(gitLog, { force: true });
  return lines;
}

beforeEach(() => {
  root = tempDir();
  repo = path.join(root, "repo");
  fs.mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(repo, "a.txt"), "a\n");
  git(repo, "add", "a.txt");
  git(repo, "commit", "-q", "-m", "First");
  // The person trusts every folder in their own git config: git alone would work in any of them.
  const xdg = path.join(root, "xdg");
  fs.mkdirSync(path.join(xdg, "git"), { recursive: true });
  fs.writeFileSync(path.join(xdg, "git", "config"), "[safe]\n\tdirectory = *\n");
  // A git first on PATH that notes the folder it starts in, then runs the real one.
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  const bin = path.join(root, "bin");
  gitLog = path.join(root, "git-ran-in.log");
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, "git"), `#!/bin/sh\nprintf '%s\\n' "$PWD" >> '${gitLog}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
  process.env["XDG_CONFIG_HOME"] = xdg;
  process.env["PATH"] = `${bin}${path.delimiter}${savedEnv["PATH"] ?? ""}`;
});
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
  Object.assign(process.env, savedEnv);
});

describe.skipIf(!asRoot)("a repository someone else owns", () => {
  it("is listed while it is the person's, and refused once it is another user's, with no git started in it, in the app and in baton worktrees", async () => {
    expect((await listTabWorktrees(tab(repo))).repository).toBe(repo);
    expect(gitRanIn()).toContain(repo);

    chownTree(repo, Nobody, Nobody);
    // git itself would work there: the person's safe.directory=* lets it.
    expect(execFileSync("git", ["-C", repo, "log", "-1", "--format=%s"], { encoding: "utf8" }).trim()).toBe("First");
    gitRanIn();

    const refused = await apiRefusal(listTabWorktrees(tab(repo)));
    expect(refused.code).toBe("worktree_not_owned");
    expect(refused.message).toBe(`${repo} is owned by another user (uid ${Nobody}), not by you (uid 0): Baton runs no git in a repository someone else owns (git's safe.directory rule)`);

    const io = bufferIO();
    expect(await run(["--repo", repo, "--projects-dir", path.join(root, "projects")], io)).toBe(1);
    expect(io.err()).toBe(`baton worktrees: ${refused.message}\n`);
    expect(io.out()).toBe("");
    expect(gitRanIn()).toEqual([]);
  });

  it("is refused when only its .git is another user's", async () => {
    chownTree(path.join(repo, ".git"), Nobody, Nobody);
    const refused = await apiRefusal(listTabWorktrees(tab(repo)));
    expect(refused.code).toBe("worktree_not_owned");
    expect(refused.message).toContain(`${path.join(repo, ".git")} is owned by another user (uid ${Nobody})`);
    expect(gitRanIn()).toEqual([]);
  });

  it("is refused for a folder of the person's inside it: a .git planted above a folder a history file names", async () => {
    const sub = path.join(repo, "mine");
    fs.mkdirSync(sub);
    chownTree(path.join(repo, ".git"), Nobody, Nobody);
    fs.lchownSync(repo, Nobody, Nobody);
    expect(fs.statSync(sub).uid).toBe(0);
    const refused = await apiRefusal(listTabWorktrees(tab(sub)));
    expect(refused.code).toBe("worktree_not_owned");
    expect(refused.message).toContain(`${repo} is owned by another user`);
    expect(gitRanIn()).toEqual([]);
  });

  it("a linked worktree another user owns is listed with the reason and never acted on; the rest of the repository works", async () => {
    const wt = path.join(root, "theirs");
    git(repo, "worktree", "add", "-q", "-b", "theirs", wt);
    fs.writeFileSync(path.join(wt, "note.txt"), "keep\n");
    chownTree(wt, Nobody, Nobody);
    gitRanIn();

    const listing = await listTabWorktrees(tab(repo));
    const theirs = listing.worktrees.find((w) => w.path === wt);
    expect(theirs?.problem).toContain(`${wt} is owned by another user (uid ${Nobody})`);
    expect(listing.worktrees.find((w) => w.isMain)?.head?.subject).toBe("First");
    expect(gitRanIn()).not.toContain(wt);

    const refused = await apiRefusal(removeTabWorktree(tab(repo), wt, true));
    expect(refused.code).toBe("worktree_not_owned");
    expect(fs.readFileSync(path.join(wt, "note.txt"), "utf8")).toBe("keep\n");
    expect(gitRanIn()).not.toContain(wt);
  });
});

// `baton worktrees` on a real repository: the table and --json, escaping of what a branch subject
// or file name could smuggle to the terminal, removal refused with the files named (exit 1) then
// rescued, usage errors, and `baton help worktrees`.

import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/main/commands/baton.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run } from "../../src/main/commands/worktrees.js";
import type { WorktreeListing } from "../../src/shared/worktrees.js";
import { tempDirs } from "../support/tempDirs.js";
import { git } from "../support/git.js";

const tempDir = tempDirs("baton-wt-cmd-", "all");
let root: string;
let repo: string;
let dirty: string;
let projectsDir: string;

async function baton(...args: string[]) {
  const io = bufferIO();
  const code = await run([...args, "--repo", repo, "--projects-dir", projectsDir], io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(() => {
  root = tempDir();
  repo = path.join(root, "repo");
  projectsDir = path.join(root, "projects");
  fs.mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(repo, "a.txt"), "a\n");
  git(repo, "add", "a.txt");
  // A subject that would clear the screen and set the window title if printed raw.
  git(repo, "commit", "-q", "-m", "First \u001b[2J\u001b]0;pwned\u0007 commit");
  dirty = path.join(root, "dirty");
  git(repo, "worktree", "add", "-q", "-b", "dirty", dirty);
  dirty = fs.realpathSync(dirty);
  fs.writeFileSync(path.join(dirty, "evil\u001b[31m.txt"), "x\n");
  fs.writeFileSync(path.join(dirty, "notes.txt"), "keep me\n");
});

describe("baton worktrees", () => {
  it("prints a table of the worktrees and the uncommitted files, with control characters neutralised", async () => {
    const { code, out, err } = await baton();
    expect(err).toBe("");
    expect(code).toBe(0);
    const lines = out.split("\n");
    expect(lines[0]).toBe(`Repository ${repo}`);
    expect(lines[1]).toMatch(/^PATH\s+BRANCH\s+HEAD\s+BASE\s+CHANGES\s+LOCK\s+STATE\s+AGENT$/);
    expect(out).toMatch(new RegExp(`${dirty}\\s+dirty\\s+[0-9a-f]{7,} \\d+s First <U\\+001B>\\[2J<U\\+001B>\\]0;pwned<U\\+0007> commit\\s+main \\+0/-0\\s+0S 0U 2\\?`));
    expect(out).toContain(`Uncommitted in ${dirty}:\n  ?? evil<U+001B>[31m.txt\n  ?? notes.txt\n`);
    expect(out).not.toContain("\u001b");
  });

  it("--json prints the listing's objects", async () => {
    const { code, out } = await baton("--json");
    expect(code).toBe(0);
    const listing = JSON.parse(out) as WorktreeListing;
    expect(listing.repository).toBe(repo);
    expect(listing.worktrees.map((w) => w.path)).toEqual([repo, dirty]);
    expect(listing.worktrees[1]).toMatchObject({ branch: "dirty", base: "main", ahead: 0, behind: 0, locked: false, dirt: { staged: 0, unstaged: 0, untracked: 2 } });
    expect(listing.worktrees[1]!.dirt!.files.map((f) => f.path)).toContain("evil\u001b[31m.txt");
  });

  it("remove refuses a dirty worktree naming its files (exit 1); --rescue keeps them on a branch and removes it", async () => {
    const refused = await baton("remove", dirty);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("has uncommitted changes");
    expect(refused.err).toContain("\n  notes.txt\n");
    expect(refused.err).toContain("evil<U+001B>[31m.txt");
    expect(fs.existsSync(dirty)).toBe(true);

    const rescued = await baton("remove", dirty, "--rescue", "--json");
    expect(rescued.err).toBe("");
    expect(rescued.code).toBe(0);
    const removal = JSON.parse(rescued.out) as { kind: string; rescueBranch: string };
    expect(removal.kind).toBe("rescued-and-removed");
    expect(removal.rescueBranch).toMatch(/^baton\/rescue\/dirty-\d{8}T\d{6}Z$/);
    expect(git(repo, "show", `refs/heads/${removal.rescueBranch}:notes.txt`)).toBe("keep me\n");
    expect(fs.existsSync(dirty)).toBe(false);
  });

  it("merge reports a conflict with its files and exits 1; diff prints the change", async () => {
    const topic = path.join(root, "topic");
    git(repo, "worktree", "add", "-q", "-b", "topic", topic);
    fs.writeFileSync(path.join(topic, "a.txt"), "theirs\n");
    git(topic, "commit", "-q", "-am", "Theirs");
    const diff = await baton("diff", topic);
    expect(diff.code).toBe(0);
    expect(diff.out).toContain("+theirs");
    fs.writeFileSync(path.join(repo, "a.txt"), "ours\n");
    git(repo, "commit", "-q", "-am", "Ours");
    const merged = await baton("merge", topic);
    expect(merged.code).toBe(1);
    expect(merged.out).toBe("Merge into main conflicts; it was aborted and main is unchanged. Conflicting files:\n  a.txt\n");
    expect(git(repo, "status", "--porcelain", "--untracked-files=no")).toBe("");
  });

  it("refuses a path outside the repository, and bad arguments with usage", async () => {
    const outside = await baton("remove", root);
    expect(outside.code).toBe(1);
    expect(outside.err).toContain(`${root} is not a worktree of the repository at ${repo}`);
    expect((await baton("remove")).code).toBe(2);
    expect((await baton("frobnicate", "x")).err).toContain('unknown action "frobnicate"');
    expect((await baton("--rescue")).code).toBe(2);
    const notRepo = bufferIO();
    expect(await run(["--repo", root], notRepo)).toBe(1);
    expect(notRepo.err()).toContain("is not in a git repository");
  });

  it("has help, listed by `baton --help`", async () => {
    const io = bufferIO();
    expect(await main(["help", "worktrees"], io)).toBe(0);
    expect(io.out()).toContain("Usage: baton worktrees [--repo <dir>]");
    const all = bufferIO();
    await main(["--help"], all);
    expect(all.out()).toMatch(/\n {2}worktrees +List the repository's git worktrees/);
  });

  it("names the commits only a worktree holds below the table", async () => {
    const ahead = path.join(root, "ahead");
    git(repo, "worktree", "add", "-q", "-b", "ahead", ahead);
    fs.writeFileSync(path.join(ahead, "b.txt"), "b\n");
    git(ahead, "add", "b.txt");
    git(ahead, "commit", "-q", "-m", "Only \u001b[1mhere\u001b[0m");
    const sha = git(ahead, "rev-parse", "--short", "HEAD").trim();
    const { code, out } = await baton();
    expect(code).toBe(0);
    expect(out).toContain(`Commits no other branch holds in ${fs.realpathSync(ahead)}:\n  ${sha} Only <U+001B>[1mhere<U+001B>[0m\n`);
    // An ignored file in it is named too: removing the worktree deletes it.
    fs.writeFileSync(path.join(ahead, ".git-info-exclude-me"), "x\n");
    fs.appendFileSync(path.join(git(ahead, "rev-parse", "--git-common-dir").trim(), "info", "exclude"), ".git-info-exclude-me\n");
    const again = await baton();
    expect(again.out).toContain(`Ignored in ${fs.realpathSync(ahead)} (removing it deletes them; no rescue keeps them):\n  .git-info-exclude-me\n`);
  });
});

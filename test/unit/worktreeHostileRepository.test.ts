// Git runs nothing a repository configures (issue 31): on a repository whose config, included
// config files, the person's own config and .gitattributes name a program for every mechanism git
// has (test/support/armedRepository.ts), Baton's list, diff, merges, rescue and removal, through
// the functions the app (tabWorktrees.ts) and `baton worktrees` use, still do their job and leave
// no marker. The same repository run plainly shows the programs do run, so these tests can fail.
// A partial clone's missing object starts no ssh; Baton's own GIT_* environment steers nothing;
// the same repository with an ordinary config works the same. Real git, real files.

import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { apiRefusal } from "../support/worktreeErrors.js";
import { listTabWorktrees, mergeTabWorktree, removeTabWorktree, tabWorktreeDiff, type TabRepository } from "../../src/main/core/tabWorktrees.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run } from "../../src/main/commands/worktrees.js";
import type { WorktreeInfo } from "../../src/shared/worktrees.js";
import { FirstChanged, LastChanged, makeRepository, Original, Tracked, type ArmedRepository } from "../support/armedRepository.js";
import { git, TestGitConfig } from "../support/git.js";
import { createSessionWorktree, linkedWorktreeOf, WorktreeLocks } from "../../src/main/worktrees/index.js";

const made: ArmedRepository[] = [];
const savedEnv = { ...process.env };

function repository(arm: boolean): ArmedRepository {
  const r = makeRepository({ arm });
  made.push(r);
  // The person's own config, where the `glob` drivers are defined: git (the test's and Baton's) reads it.
  process.env["XDG_CONFIG_HOME"] = r.xdg;
  return r;
}

beforeEach(() => {
  made.length = 0;
});
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
  Object.assign(process.env, savedEnv);
  for (const r of made) fs.rmSync(r.root, { recursive: true, force: true });
});

const tab = (r: ArmedRepository): TabRepository => ({ cwd: r.repo, liveSessionIds: new Set<string>() });

/** git run plainly, as a person's terminal would; fails are fine, the markers are what count. */
function plainly(cwd: string, ...args: string[]): void {
  spawnSync("git", [...TestGitConfig, ...args], { cwd, encoding: "utf8", timeout: 30_000, stdio: ["ignore", "pipe", "pipe"] });
}

const blob = (r: ArmedRepository, rev: string, file: string): string => git(r.repo, "cat-file", "blob", `${rev}:${file}`);

function entry(listing: { worktrees: readonly WorktreeInfo[] }, where: string): WorktreeInfo {
  const found = listing.worktrees.find((w) => w.path === where);
  if (found === undefined) throw new Error(`${where} not listed`);
  return found;
}

describe("the armed repository, run plainly", () => {
  it("starts its programs: fsmonitor, filters (its own, an included file's, an agent branch's, the person's), diff and textconv drivers, diff.external, hooks, gpg, merge drivers, a process filter", () => {
    const r = repository(true);
    const ran = (run: () => void): string[] => {
      r.clearMarkers();
      run();
      return r.markers();
    };
    const cleans = ["filter-branchy-clean", "filter-evil-clean", "filter-glob-clean", "filter-inc-clean"];
    expect(ran(() => plainly(r.clean, "status", "--porcelain"))).toEqual(expect.arrayContaining(["fsmonitor", ...cleans, "hook-post-index-change"]));
    expect(ran(() => plainly(r.dirty, "diff"))).toEqual(expect.arrayContaining(["diff-external", "diff-command-evil", "diff-command-inc", "diff-command-glob", "diff-command-branchy"]));
    expect(ran(() => plainly(r.dirty, "diff", "--no-ext-diff"))).toEqual(expect.arrayContaining(["textconv-evil", "textconv-inc", "textconv-glob", "textconv-branchy"]));
    expect(ran(() => plainly(r.repo, "merge", "--ff-only", "agent-ff"))).toEqual(expect.arrayContaining(["hook-post-merge", "hook-reference-transaction", "filter-evil-smudge"]));
    expect(ran(() => plainly(r.repo, "merge", "--no-ff", "--no-edit", "agent-mc"))).toEqual(expect.arrayContaining(["gpg-program", "hook-pre-merge-commit", "hook-prepare-commit-msg", "hook-commit-msg"]));
    plainly(r.repo, "merge", "--abort");
    expect(ran(() => plainly(r.repo, "-c", "commit.gpgSign=false", "merge", "--no-edit", "agent-both"))).toContain("merge-driver-evil");
    // `worktree remove` checks the worktree's status with git started in it: the agent branch's drivers.
    expect(ran(() => plainly(r.repo, "worktree", "remove", r.clean))).toEqual(expect.arrayContaining(["filter-branchy-clean"]));
    expect(ran(() => plainly(r.dirty, "add", "-A"))).toContain("filter-proc-process");
  });
});

describe.each([
  { arm: true, config: "every program set to write a marker" },
  { arm: false, config: "an ordinary config" },
])("Baton's worktree actions on a repository with $config", ({ arm }) => {
  it("a session's worktree (issue 37): found from a folder a history file names, made for a new session or a fork, locked while its tab runs: each starts no program of the repository's", async () => {
    const r = repository(arm);
    const noneRan = (after: string): void => expect(r.markers(), `programs that ran during ${after}`).toEqual([]);
    expect(await linkedWorktreeOf(r.dirty)).toMatchObject({ path: r.dirty });
    noneRan("finding the worktree a restored session ran in");
    const made = await createSessionWorktree(r.dirty, "Fork it", "abc123");
    noneRan("making a fork's worktree from it");
    expect(made).toMatchObject({ branch: "worktree-fork-it", path: path.join(r.repo, ".claude", "worktrees", "fork-it") });
    expect(git(made.path, "rev-parse", "HEAD")).toBe(git(r.dirty, "rev-parse", "HEAD"));
    const failures: string[] = [];
    const release = await new WorktreeLocks((what, error) => failures.push(`${what}: ${String(error)}`)).hold(made.path);
    expect(git(r.repo, "worktree", "list", "--porcelain")).toContain("locked baton: a session runs here");
    await release();
    noneRan("locking and unlocking it");
    expect(failures).toEqual([]);
  });

  it("list, diff, merge (fast-forward, merge commit, by objects), rescue and remove do their job and start no program of the repository's", async () => {
    const r = repository(arm);
    const t = tab(r);
    const noneRan = (after: string): void => expect(r.markers(), `programs that ran during ${after}`).toEqual([]);

    const listing = await listTabWorktrees(t);
    noneRan("the listing");
    expect(listing.worktrees.map((w) => w.path).sort()).toEqual([r.repo, r.mc, r.both, r.obj, r.ff, r.dirty, r.clean].sort());
    expect(entry(listing, r.dirty).dirt?.files.map((f) => f.path).sort()).toEqual([...Tracked, "new.proc", "new.txt", "plain.md"].sort());
    expect(entry(listing, r.clean).dirt?.files).toEqual([]);
    expect(entry(listing, r.ff)).toMatchObject({ base: "main", ahead: 1, behind: 0 });
    expect(entry(listing, r.obj)).toMatchObject({ base: "side", ahead: 1, behind: 1 });

    const io = bufferIO();
    expect(await run(["--repo", r.repo, "--projects-dir", path.join(r.root, "projects")], io)).toBe(0);
    noneRan("baton worktrees");
    expect(io.out()).toContain(`Uncommitted in ${r.dirty}:`);

    const diff = await tabWorktreeDiff(t, r.dirty);
    noneRan("the diff");
    for (const f of [...Tracked, "plain.md"]) expect(diff).toContain(`+changed ${f}\n`);
    expect(diff).toContain("+++ b/new.proc\n");

    expect(await mergeTabWorktree(t, r.ff)).toMatchObject({ kind: "fast-forward", base: "main" });
    noneRan("the fast-forward");
    expect(fs.readFileSync(path.join(r.repo, "a.txt"), "utf8")).toBe(FirstChanged);

    const mc = await mergeTabWorktree(t, r.mc);
    noneRan("the merge commit");
    expect(mc.kind).toBe("merge-commit");
    const commit = git(r.repo, "cat-file", "commit", "HEAD");
    expect(commit.match(/^parent /gm)).toHaveLength(2);
    expect(commit).not.toContain("gpgsig");
    expect(fs.readFileSync(path.join(r.repo, "b.inc"), "utf8")).toBe(FirstChanged);

    expect(await mergeTabWorktree(t, r.obj)).toMatchObject({ kind: "merge-commit", base: "side" });
    noneRan("the merge by objects");
    expect(blob(r, "side", "b.inc")).toBe(FirstChanged);
    expect(blob(r, "side", "c.glob")).toBe(LastChanged);

    const rescued = await removeTabWorktree(t, r.dirty, true);
    noneRan("the rescue");
    if (rescued.kind !== "rescued-and-removed") throw new Error(`not rescued: ${rescued.kind}`);
    expect(fs.existsSync(r.dirty)).toBe(false);
    for (const f of [...Tracked, "plain.md"]) expect(blob(r, rescued.rescueBranch, f)).toBe(`${Original}changed ${f}\n`);
    expect(blob(r, rescued.rescueBranch, "new.proc")).toBe("new\n");

    expect(await removeTabWorktree(t, r.clean, false)).toEqual({ kind: "removed", path: r.clean });
    noneRan("the removal");
    expect(fs.existsSync(r.clean)).toBe(false);
  });

  it("a file both sides changed is merged by git's own text merge, or, where the repository names a merge driver, reported as a conflict with nothing changed", async () => {
    const r = repository(arm);
    const t = tab(r);
    await mergeTabWorktree(t, r.ff);
    const before = git(r.repo, "rev-parse", "main").trim();
    const merged = await mergeTabWorktree(t, r.both);
    expect(r.markers()).toEqual([]);
    if (!arm) {
      expect(merged.kind).toBe("merge-commit");
      expect(fs.readFileSync(path.join(r.repo, "a.txt"), "utf8")).toBe(FirstChanged.replace("line 10\n", "line 10 (main)\n"));
      return;
    }
    expect(merged).toEqual({ kind: "conflict", base: "main", files: ["a.txt"] });
    expect(git(r.repo, "rev-parse", "main").trim()).toBe(before);
    expect(fs.readFileSync(path.join(r.repo, "a.txt"), "utf8")).toBe(FirstChanged);
    // With main checked out nowhere, the merge is made from objects alone (merge-tree): the same.
    git(r.repo, "-c", "core.hooksPath=/dev/null", "checkout", "-q", "--detach");
    r.clearMarkers();
    expect(await mergeTabWorktree(t, r.both)).toEqual({ kind: "conflict", base: "main", files: ["a.txt"] });
    expect(r.markers()).toEqual([]);
    expect(git(r.repo, "rev-parse", "main").trim()).toBe(before);
  });
});

describe("what reaches git besides the repository", () => {
  it("a submodule's own config: plain git status starts its filter to look inside it, Baton looks with its own git and still sees the change", async () => {
    const r = repository(false);
    const source = path.join(r.root, "sub-source");
    fs.mkdirSync(source);
    git(source, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(source, ".gitattributes"), "*.sub filter=subf\n");
    fs.writeFileSync(path.join(source, "x.sub"), Original);
    git(source, "add", "-A");
    git(source, "commit", "-q", "-m", "sub");
    git(r.repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", source, "sub");
    git(r.repo, "commit", "-q", "-m", "Add sub");
    const sub = path.join(r.repo, "sub");
    const filter = path.join(r.root, "programs", "filter-subf-clean");
    fs.mkdirSync(path.dirname(filter), { recursive: true });
    fs.writeFileSync(filter, `#!/bin/sh\n: > '${path.join(r.root, "markers", "filter-subf-clean")}'\nexec cat\n`, { mode: 0o755 });
    // Only the submodule's own config (.git/modules/sub/config) names the program.
    git(sub, "config", "filter.subf.clean", filter);
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(sub, "x.sub"), later, later);
    fs.writeFileSync(path.join(sub, "new.txt"), "new\n");
    plainly(r.repo, "status", "--porcelain");
    expect(r.markers()).toEqual(["filter-subf-clean"]);
    r.clearMarkers();
    fs.utimesSync(path.join(sub, "x.sub"), later, new Date(Date.now() + 10_000));

    const main = (await listTabWorktrees(tab(r))).worktrees.find((w) => w.isMain);
    expect(r.markers()).toEqual([]);
    expect(main?.dirt?.files).toEqual([{ code: " M", path: "sub" }]);
    fs.rmSync(path.join(sub, "new.txt"));
    expect((await listTabWorktrees(tab(r))).worktrees.find((w) => w.isMain)?.dirt?.files).toEqual([]);
    expect(r.markers()).toEqual([]);
  });

  it("a partial clone's missing object is never fetched: plain git starts the repository's ssh and ext:: command for it, Baton's diff fails without", async () => {
    const r = repository(true);
    const ext = path.join(r.root, "programs", "ext-transport");
    fs.writeFileSync(ext, `#!/bin/sh\n: > '${path.join(r.root, "markers", "ext-transport")}'\nexit 1\n`, { mode: 0o755 });
    for (const [key, value] of [
      ["core.repositoryFormatVersion", "1"],
      ["extensions.partialClone", "origin"],
      ["remote.origin.url", "ssh://example.invalid/repo"],
      ["remote.origin.promisor", "true"],
      // A second promisor remote whose URL is a command (the ext:: transport, allowed by the config).
      ["remote.helper.url", `ext::${ext}`],
      ["remote.helper.promisor", "true"],
    ] as const) {
      git(r.repo, "config", key, value);
    }
    // Every file starts as Original: its blob goes missing, as in a partial clone.
    const missing = execFileSync("git", ["hash-object", "--no-filters", "--stdin"], { input: Original, encoding: "utf8" }).trim();
    fs.rmSync(path.join(r.repo, ".git", "objects", missing.slice(0, 2), missing.slice(2)));
    plainly(r.dirty, "diff", "--no-ext-diff", "--no-textconv", "--", "plain.md");
    expect(r.markers()).toEqual(expect.arrayContaining(["ssh-command", "ext-transport"]));
    r.clearMarkers();
    const refused = await apiRefusal(tabWorktreeDiff(tab(r), r.dirty));
    expect(refused.code).toBe("worktree_git_failed");
    expect(r.markers()).toEqual([]);
  });

  it("a repository's core.worktree does not move where Baton looks or merges: plain git works in the folder it names", async () => {
    const r = repository(false);
    const decoy = path.join(r.root, "decoy");
    fs.mkdirSync(decoy);
    git(r.repo, "config", "core.worktree", decoy);
    expect(git(r.repo, "status", "--porcelain")).toContain(" D a.txt");

    const listing = await listTabWorktrees(tab(r));
    expect(entry(listing, r.repo).dirt?.files).toEqual([]);
    expect(entry(listing, r.ff).dirt?.files).toEqual([]);
    expect(await mergeTabWorktree(tab(r), r.ff)).toMatchObject({ kind: "fast-forward", base: "main" });
    expect(fs.readFileSync(path.join(r.repo, "a.txt"), "utf8")).toBe(FirstChanged);
    expect(await mergeTabWorktree(tab(r), r.mc)).toMatchObject({ kind: "merge-commit", base: "main" });
    expect(fs.readFileSync(path.join(r.repo, "b.inc"), "utf8")).toBe(FirstChanged);
    expect(fs.readdirSync(decoy)).toEqual([]);
  });

  it("Baton's own GIT_* environment steers nothing: not GIT_DIR, GIT_EXTERNAL_DIFF, GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT or GIT_INDEX_FILE", async () => {
    const other = repository(false);
    const r = repository(true);
    const script = path.join(r.root, "programs", "diff-external");
    Object.assign(process.env, {
      GIT_DIR: path.join(other.repo, ".git"),
      GIT_WORK_TREE: other.repo,
      GIT_INDEX_FILE: path.join(r.root, "no-index"),
      GIT_EXTERNAL_DIFF: script,
      GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='${path.join(r.root, "programs", "fsmonitor")}'`,
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "diff.external",
      GIT_CONFIG_VALUE_0: script,
      GIT_PAGER: path.join(r.root, "programs", "core-pager"),
    });
    const listing = await listTabWorktrees(tab(r));
    expect(listing.repository).toBe(r.repo);
    expect(entry(listing, r.dirty).dirt?.files).toHaveLength(7);
    expect(await tabWorktreeDiff(tab(r), r.dirty)).toContain("+changed plain.md\n");
    expect(r.markers()).toEqual([]);
  });
});

// Worktrees with real git in temp repositories (issue 25): the listing (clean, dirty, locked,
// ahead/behind, orphaned, agent-made), removal that never loses a change (refused, rescued,
// clean), merge (fast-forward, merge commit, conflict aborted), and the path checks.

import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { listWorktrees, mergeWorktree, removeWorktree } from "../../src/main/worktrees/index.js";
import { diffWorktree } from "../../src/main/worktrees/diff.js";
import type { WorktreeInfo } from "../../src/shared/worktrees.js";
import { refusal } from "../support/worktreeErrors.js";
import { tempDirs } from "../support/tempDirs.js";
import { git, commitFile, writeFileIn } from "../support/git.js";

const tempDir = tempDirs("baton-wt-");
let root: string;
let repo: string;

function addWorktree(name: string, branch: string): string {
  const where = path.join(root, name);
  git(repo, "worktree", "add", "-q", "-b", branch, where, "main");
  return fs.realpathSync(where);
}

async function entry(where: string, options?: Parameters<typeof listWorktrees>[1]): Promise<WorktreeInfo> {
  const listing = await listWorktrees(repo, options);
  const found = listing.worktrees.find((w) => w.path === where);
  if (found === undefined) throw new Error(`${where} not listed: ${listing.worktrees.map((w) => w.path).join(", ")}`);
  return found;
}

/** This process's start time as the CLI writes it in its locks (field 22 of /proc/<pid>/stat). */
function ownStart(): string {
  const stat = fs.readFileSync(`/proc/${process.pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
}

function registered(): string {
  return git(repo, "worktree", "list", "--porcelain");
}

beforeEach(() => {
  root = tempDir();
  repo = path.join(root, "repo");
  fs.mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  commitFile(repo, "a.txt", "one\n", "First commit");
});

describe("listing", () => {
  it("shows a clean, a dirty (staged, unstaged, untracked) and a locked worktree with branch, HEAD, base and counts", async () => {
    const clean = addWorktree("clean", "feature/clean");
    const dirty = addWorktree("dirty", "dirty");
    const locked = addWorktree("locked", "locked");
    writeFileIn(dirty, "staged.txt", "staged\n");
    git(dirty, "add", "staged.txt");
    writeFileIn(dirty, "a.txt", "changed\n");
    writeFileIn(dirty, "new/untracked.txt", "new\n");
    git(repo, "worktree", "lock", "--reason", "kept for review", locked);

    const listing = await listWorktrees(repo);
    expect(listing.repository).toBe(repo);
    expect(listing.worktrees.map((w) => w.path)).toEqual([repo, clean, dirty, locked]);
    const [main, c, d, l] = listing.worktrees as [WorktreeInfo, WorktreeInfo, WorktreeInfo, WorktreeInfo];
    expect(main).toMatchObject({ isMain: true, branch: "main" });
    expect(main.base).toBeUndefined();
    expect(c).toMatchObject({ isMain: false, branch: "feature/clean", base: "main", ahead: 0, behind: 0, unmerged: 0, locked: false, prunable: false });
    expect(c.head).toMatchObject({ subject: "First commit", sha: git(repo, "rev-parse", "main").trim() });
    expect(c.head!.shortSha.length).toBeGreaterThanOrEqual(7);
    expect(Date.now() - c.head!.time).toBeLessThan(600_000);
    expect(c.dirt).toEqual({ staged: 0, unstaged: 0, untracked: 0, files: [] });
    expect(c.orphaned).toBeUndefined();
    expect(d.dirt).toMatchObject({ staged: 1, unstaged: 1, untracked: 1 });
    expect(d.dirt!.files).toEqual(
      expect.arrayContaining([
        { code: "A ", path: "staged.txt" },
        { code: " M", path: "a.txt" },
        { code: "??", path: "new/untracked.txt" },
      ]),
    );
    expect(l).toMatchObject({ locked: true, lockReason: "kept for review" });
    expect(l.orphaned).toBeUndefined();
  });

  it("counts commits ahead of and behind the base branch, the one the branch was made from", async () => {
    git(repo, "branch", "develop");
    const where = path.join(root, "topic");
    git(repo, "worktree", "add", "-q", "-b", "topic", where, "develop");
    commitFile(where, "b.txt", "b\n", "Topic one");
    commitFile(where, "c.txt", "c\n", "Topic two");
    git(repo, "checkout", "-q", "develop");
    commitFile(repo, "d.txt", "d\n", "Develop moved on");
    git(repo, "checkout", "-q", "main");
    const w = await entry(fs.realpathSync(where));
    expect(w).toMatchObject({ base: "develop", ahead: 2, behind: 1, unmerged: 2 });
    expect(w.unmergedCommits?.map((c) => c.subject)).toEqual(["Topic two", "Topic one"]);
    expect(w.head?.subject).toBe("Topic two");
  });

  it("names the ignored files a removal would delete, a folder ignored as a whole once, and nothing for the main worktree", async () => {
    commitFile(repo, ".gitignore", ".env\nnode_modules/\n", "Ignore secrets and packages");
    const where = addWorktree("with-ignored", "with-ignored");
    writeFileIn(where, ".env", "TOKEN=secret\n");
    for (let i = 0; i < 50; i++) writeFileIn(where, `node_modules/pkg${i}/index.js`, "x\n");
    writeFileIn(repo, ".env", "MAIN=1\n");
    const w = await entry(where);
    expect(w.ignored).toEqual({ count: 2, paths: [".env", "node_modules/"] });
    expect(w.dirt?.files).toEqual([]);
    expect((await entry(repo)).ignored).toBeUndefined();
    // The removal of a clean worktree goes ahead: git counts ignored files as disposable, and the person was told.
    await removeWorktree(repo, where);
    expect(fs.existsSync(where)).toBe(false);
  });

  it("lists a worktree whose folder was deleted as orphaned, and leaves git's record of it alone", async () => {
    const gone = addWorktree("gone", "gone");
    fs.rmSync(gone, { recursive: true, force: true });
    const w = await entry(gone);
    expect(w).toMatchObject({ prunable: true, orphaned: "folder-gone", branch: "gone" });
    expect(w.dirt).toBeUndefined();
    expect(registered()).toContain(`worktree ${gone}`);
    const error = await refusal(removeWorktree(repo, gone));
    expect(error.code).toBe("folder-gone");
    expect(registered()).toContain(`worktree ${gone}`);
  });

  it("names the agent that made a Claude Code worktree from its meta.json, and says when its lock holder or session is gone", async () => {
    // What the CLI does for isolation: "worktree" (docs/protocol-notes.md, "Agent worktrees").
    const agentId = "a0123456789abcdef";
    const where = path.join(repo, ".claude", "worktrees", `agent-${agentId}`);
    git(repo, "worktree", "add", "-q", "-b", `worktree-agent-${agentId}`, where, "HEAD");
    const projectsDir = path.join(root, "config", "projects");
    const sessionId = "11111111-2222-3333-4444-555555555555";
    // The session was started in a folder inside the repository: its own project folder.
    const subagents = path.join(projectsDir, path.join(repo, "src").replace(/[^a-zA-Z0-9]/g, "-"), sessionId, "subagents");
    fs.mkdirSync(subagents, { recursive: true });
    const meta = { agentType: "general-purpose", worktreePath: where, worktreeBranch: `worktree-agent-${agentId}`, description: "Work apart", toolUseId: "toolu_1" };
    fs.writeFileSync(path.join(subagents, `agent-${agentId}.meta.json`), JSON.stringify(meta));

    // Its agent still runs: the CLI's lock names a live pid, and the session is live.
    git(repo, "worktree", "lock", "--reason", `claude agent agent-${agentId} (pid ${process.pid} start ${ownStart()})`, where);
    const running = await entry(where, { projectsDir, liveSessionIds: new Set([sessionId]) });
    expect(running.agent).toEqual({ sessionId, agentId, toolUseId: "toolu_1", agentType: "general-purpose", description: "Work apart", sessionLive: true });
    expect(running.orphaned).toBeUndefined();

    // A lock whose pid now belongs to another process (started at another time), and one whose process is gone.
    git(repo, "worktree", "unlock", where);
    git(repo, "worktree", "lock", "--reason", `claude agent agent-${agentId} (pid ${process.pid} start 1)`, where);
    expect((await entry(where, { projectsDir, liveSessionIds: new Set([sessionId]) })).orphaned).toBe("lock-holder-gone");
    git(repo, "worktree", "unlock", where);
    git(repo, "worktree", "lock", "--reason", `claude agent agent-${agentId} (pid 2147483646 start 1)`, where);
    expect((await entry(where, { projectsDir, liveSessionIds: new Set([sessionId]) })).orphaned).toBe("lock-holder-gone");

    // Unlocked, its session over.
    git(repo, "worktree", "unlock", where);
    const ended = await entry(where, { projectsDir });
    expect(ended.orphaned).toBe("session-ended");
    expect(ended.agent?.sessionLive).toBe(false);

    // The CLI's own record of a running session (sessions/<pid>.json beside projects/), and one whose pid was reused.
    const sessions = path.join(root, "config", "sessions");
    fs.mkdirSync(sessions);
    const record = path.join(sessions, `${process.pid}.json`);
    fs.writeFileSync(record, JSON.stringify({ pid: process.pid, sessionId, procStart: ownStart(), status: "busy" }));
    expect((await entry(where, { projectsDir })).agent?.sessionLive).toBe(true);
    fs.writeFileSync(record, JSON.stringify({ pid: process.pid, sessionId, procStart: "1", status: "busy" }));
    expect((await entry(where, { projectsDir })).orphaned).toBe("session-ended");

    // A folder in .claude/worktrees/ that git does not know: listed, untouched.
    const stray = path.join(repo, ".claude", "worktrees", "agent-fffffffffffffffff");
    fs.mkdirSync(stray);
    const listing = await listWorktrees(repo, { projectsDir });
    expect(listing.worktrees.find((w) => w.path === stray)).toMatchObject({ orphaned: "unregistered", agentIdFromName: "fffffffffffffffff" });
    expect(fs.existsSync(stray)).toBe(true);
  });
});

describe("removal", () => {
  it("refuses a dirty worktree, naming the files; with rescue commits everything to a rescue branch, then removes it", async () => {
    const dirty = addWorktree("dirty ünïcode", "dirty");
    writeFileIn(dirty, "staged.txt", "staged version\n");
    git(dirty, "add", "staged.txt");
    writeFileIn(dirty, "staged.txt", "working version\n");
    writeFileIn(dirty, "a.txt", "edited\n");
    writeFileIn(dirty, "deep/untracked.txt", "untracked\n");

    const error = await refusal(removeWorktree(repo, dirty));
    expect(error.code).toBe("dirty");
    expect([...error.files].sort()).toEqual(["a.txt", "deep/untracked.txt", "staged.txt"]);
    expect(error.message).toContain("deep/untracked.txt");
    expect(fs.readFileSync(path.join(dirty, "a.txt"), "utf8")).toBe("edited\n");
    expect(registered()).toContain(dirty);

    const removal = await removeWorktree(repo, dirty, { rescue: true, now: new Date("2026-12-03T09:10:11.123Z") });
    expect(removal.kind).toBe("rescued-and-removed");
    if (removal.kind !== "rescued-and-removed") return;
    expect(removal.rescueBranch).toBe("baton/rescue/dirty-n-code-20261203T091011Z");
    expect(fs.existsSync(dirty)).toBe(false);
    expect(registered()).not.toContain(dirty);
    // The branch's tree is the worktree as it was, untracked files included.
    const branch = `refs/heads/${removal.rescueBranch}`;
    expect(git(repo, "rev-parse", branch).trim()).toBe(removal.rescueCommit);
    expect(git(repo, "ls-tree", "-r", "--name-only", branch).trim().split("\n").sort()).toEqual(["a.txt", "deep/untracked.txt", "staged.txt"]);
    const checkout = path.join(root, "checkout");
    git(repo, "worktree", "add", "-q", "--detach", checkout, removal.rescueBranch);
    expect(fs.readFileSync(path.join(checkout, "a.txt"), "utf8")).toBe("edited\n");
    expect(fs.readFileSync(path.join(checkout, "staged.txt"), "utf8")).toBe("working version\n");
    expect(fs.readFileSync(path.join(checkout, "deep", "untracked.txt"), "utf8")).toBe("untracked\n");
    // The staged state is its parent commit, so no version is lost.
    expect(git(repo, "show", `${branch}~1:staged.txt`)).toBe("staged version\n");
    expect(git(repo, "rev-parse", `${branch}~2`).trim()).toBe(git(repo, "rev-parse", "dirty").trim());
    // The worktree's own branch is kept.
    expect(git(repo, "branch", "--list", "dirty")).toContain("dirty");
  });

  it("removes a clean worktree and keeps its branch", async () => {
    const clean = addWorktree("clean", "clean");
    expect(await removeWorktree(repo, clean)).toEqual({ kind: "removed", path: clean });
    expect(fs.existsSync(clean)).toBe(false);
    expect(registered()).not.toContain(clean);
    expect(git(repo, "branch", "--list", "clean")).toContain("clean");
  });

  it("refuses a worktree whose commits no other branch holds, naming them (and its files once it is dirty too); a rescue keeps both on a branch", async () => {
    const where = path.join(root, "detached");
    git(repo, "worktree", "add", "-q", "--detach", where, "main");
    commitFile(where, "only-here.txt", "x\n", "Only here");
    const head = git(where, "rev-parse", "HEAD").trim();
    const error = await refusal(removeWorktree(repo, where));
    expect(error.code).toBe("unmerged");
    expect(error.message).toContain(`1 commit(s) no other branch holds: ${head.slice(0, 7)} Only here`);
    // Uncommitted files as well: the refusal names both.
    writeFileIn(where, "draft.txt", "draft\n");
    const both = await refusal(removeWorktree(repo, where));
    expect(both.code).toBe("dirty");
    expect(both.message).toMatch(/draft\.txt.*and 1 commit\(s\) no other branch holds: [0-9a-f]{7,} Only here/);
    const removal = await removeWorktree(repo, where, { rescue: true });
    if (removal.kind !== "rescued-and-removed") throw new Error(`expected a rescue, got ${removal.kind}`);
    // The rescue commit holds the draft, on top of the commit only the worktree had.
    expect(git(repo, "rev-parse", `refs/heads/${removal.rescueBranch}^`).trim()).toBe(head);
    expect(git(repo, "show", `refs/heads/${removal.rescueBranch}:draft.txt`)).toBe("draft\n");
    expect(fs.existsSync(where)).toBe(false);
  });

  it("refuses a locked worktree, the main worktree and a path that is not a worktree of the repository", async () => {
    const locked = addWorktree("locked", "locked");
    git(repo, "worktree", "lock", locked);
    expect((await refusal(removeWorktree(repo, locked, { rescue: true }))).code).toBe("locked");
    expect(fs.existsSync(locked)).toBe(true);
    expect((await refusal(removeWorktree(repo, repo, { rescue: true }))).code).toBe("main-worktree");
    const outside = path.join(root, "outside");
    fs.mkdirSync(outside);
    writeFileIn(outside, "keep.txt", "keep\n");
    expect((await refusal(removeWorktree(repo, outside, { rescue: true }))).code).toBe("not-a-worktree");
    expect((await refusal(removeWorktree(repo, path.join(locked, "..", "outside")))).code).toBe("not-a-worktree");
    expect(fs.readFileSync(path.join(outside, "keep.txt"), "utf8")).toBe("keep\n");
    // Another repository's worktree is not this one's.
    const other = path.join(root, "other");
    fs.mkdirSync(other);
    git(other, "init", "-q", "-b", "main");
    commitFile(other, "o.txt", "o\n", "Other");
    const theirs = path.join(root, "theirs");
    git(other, "worktree", "add", "-q", "-b", "theirs", theirs);
    expect((await refusal(removeWorktree(repo, theirs))).code).toBe("not-a-worktree");
    expect(fs.existsSync(theirs)).toBe(true);
    // A symlink to a worktree is that worktree (real paths compared).
    const clean = addWorktree("clean", "clean");
    const link = path.join(root, "link");
    fs.symlinkSync(clean, link);
    expect(await removeWorktree(repo, link)).toEqual({ kind: "removed", path: clean });
  });

  it("handles hostile names: a branch with a leading dash, a path with spaces, a newline and unicode", async () => {
    // git's porcelain commands refuse such a branch name; plumbing makes one.
    git(repo, "update-ref", "refs/heads/-dash-branch", "main");
    const where = path.join(root, "we ird\nnäme -x");
    git(repo, "worktree", "add", "-q", "--detach", "--", where, "main");
    const real = fs.realpathSync(where);
    git(real, "symbolic-ref", "HEAD", "refs/heads/-dash-branch");
    writeFileIn(real, "--help", "not an option\n");
    const w = await entry(real);
    expect(w).toMatchObject({ branch: "-dash-branch", base: "main" });
    expect(w.dirt?.files).toEqual([{ code: "??", path: "--help" }]);
    const refused = await refusal(removeWorktree(repo, real));
    expect(refused.files).toEqual(["--help"]);
    const removal = await removeWorktree(repo, real, { rescue: true });
    expect(removal.kind).toBe("rescued-and-removed");
    if (removal.kind !== "rescued-and-removed") return;
    expect(removal.rescueBranch).toMatch(/^baton\/rescue\/we-ird-n-me-x-\d{8}T\d{6}Z$/);
    expect(git(repo, "show", `refs/heads/${removal.rescueBranch}:--help`)).toBe("not an option\n");
    expect(fs.existsSync(real)).toBe(false);
  });
});

describe("merge and diff", () => {
  it("fast-forwards the base branch when it can", async () => {
    const where = addWorktree("ff", "ff");
    commitFile(where, "b.txt", "b\n", "Add b");
    const merged = await mergeWorktree(repo, where);
    expect(merged).toMatchObject({ kind: "fast-forward", base: "main", to: git(where, "rev-parse", "HEAD").trim() });
    expect(fs.readFileSync(path.join(repo, "b.txt"), "utf8")).toBe("b\n");
    expect(await mergeWorktree(repo, where)).toEqual({ kind: "up-to-date", base: "main" });
  });

  it("makes a merge commit when the base moved on", async () => {
    const where = addWorktree("mc", "mc");
    commitFile(where, "b.txt", "b\n", "Add b");
    commitFile(repo, "c.txt", "c\n", "Add c on main");
    const merged = await mergeWorktree(repo, where);
    expect(merged.kind).toBe("merge-commit");
    const parents = git(repo, "rev-list", "--parents", "-n", "1", "main").trim().split(" ");
    expect(parents).toHaveLength(3);
    expect(fs.existsSync(path.join(repo, "b.txt")) && fs.existsSync(path.join(repo, "c.txt"))).toBe(true);
  });

  it("reports a conflict with its files, aborts it and leaves the base branch as it was", async () => {
    const where = addWorktree("conflict", "conflict");
    commitFile(where, "a.txt", "theirs\n", "Change a in the worktree");
    commitFile(repo, "a.txt", "ours\n", "Change a on main");
    const before = git(repo, "rev-parse", "main").trim();
    const merged = await mergeWorktree(repo, where);
    expect(merged).toEqual({ kind: "conflict", base: "main", files: ["a.txt"] });
    expect(git(repo, "rev-parse", "main").trim()).toBe(before);
    expect(() => git(repo, "rev-parse", "-q", "--verify", "MERGE_HEAD")).toThrow();
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(fs.readFileSync(path.join(repo, "a.txt"), "utf8")).toBe("ours\n");
  });

  describe("into a base branch no worktree has checked out", () => {
    let where: string;
    beforeEach(() => {
      git(repo, "branch", "develop");
      where = path.join(root, "topic");
      git(repo, "worktree", "add", "-q", "-b", "topic", where, "develop");
      commitFile(where, "b.txt", "b\n", "Add b");
    });
    const worktreesUntouched = (): void => {
      expect(git(repo, "status", "--porcelain")).toBe("");
      expect(git(where, "status", "--porcelain")).toBe("");
      expect(git(repo, "branch", "--show-current").trim()).toBe("main");
    };

    it("fast-forwards it by moving the branch alone", async () => {
      const before = git(repo, "rev-parse", "develop").trim();
      const head = git(where, "rev-parse", "HEAD").trim();
      expect(await mergeWorktree(repo, where)).toEqual({ kind: "fast-forward", base: "develop", from: before, to: head });
      expect(git(repo, "rev-parse", "develop").trim()).toBe(head);
      worktreesUntouched();
    });

    it("makes the merge commit from objects alone when the branch moved on", async () => {
      git(repo, "checkout", "-q", "develop");
      commitFile(repo, "c.txt", "c\n", "Develop moved on");
      git(repo, "checkout", "-q", "main");
      const before = git(repo, "rev-parse", "develop").trim();
      const merged = await mergeWorktree(repo, where);
      expect(merged.kind).toBe("merge-commit");
      if (merged.kind !== "merge-commit") return;
      expect(git(repo, "rev-parse", "develop").trim()).toBe(merged.commit);
      expect(git(repo, "rev-list", "--parents", "-n", "1", "develop").trim().split(" ").slice(1)).toEqual([before, git(where, "rev-parse", "HEAD").trim()]);
      expect(git(repo, "show", "develop:b.txt")).toBe("b\n");
      expect(git(repo, "show", "develop:c.txt")).toBe("c\n");
      expect(git(repo, "log", "-1", "--format=%s", "develop").trim()).toBe("Merge topic into develop");
      worktreesUntouched();
    });

    it("reports a conflict with its files and leaves the branch where it was", async () => {
      commitFile(where, "a.txt", "theirs\n", "Change a in the topic");
      git(repo, "checkout", "-q", "develop");
      commitFile(repo, "a.txt", "ours\n", "Change a on develop");
      git(repo, "checkout", "-q", "main");
      const before = git(repo, "rev-parse", "develop").trim();
      expect(await mergeWorktree(repo, where)).toEqual({ kind: "conflict", base: "develop", files: ["a.txt"] });
      expect(git(repo, "rev-parse", "develop").trim()).toBe(before);
      worktreesUntouched();
    });
  });

  it("refuses to merge uncommitted changes", async () => {
    const where = addWorktree("uncommitted", "uncommitted");
    writeFileIn(where, "b.txt", "b\n");
    const error = await refusal(mergeWorktree(repo, where));
    expect(error.code).toBe("dirty");
    expect(error.files).toEqual(["b.txt"]);
  });

  it("diffs commits and uncommitted changes, untracked files included, against the base", async () => {
    const where = addWorktree("diff", "diff");
    commitFile(where, "b.txt", "committed\n", "Add b");
    writeFileIn(where, "a.txt", "edited\n");
    writeFileIn(where, "u.txt", "untracked\n");
    const diff = await diffWorktree(repo, where);
    expect(diff).toContain("+committed");
    expect(diff).toContain("+edited");
    expect(diff).toContain("+untracked");
    // Reading the diff changed nothing.
    expect(git(where, "status", "--porcelain")).toBe(" M a.txt\n?? u.txt\n");
  });
});

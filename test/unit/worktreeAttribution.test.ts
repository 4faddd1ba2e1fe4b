// The pure part of the worktree listing: git's NUL-separated output parsed (any path survives),
// the CLI's lock read, and the history's facts mapped to worktrees (which agent, orphaned or not).

import { describe, expect, it } from "vitest";
import { attributeWorktree, type AgentWorktreeFact, type LiveFacts } from "../../src/main/worktrees/attribution.js";
import { agentIdFromName, parseClaudeLock, parseStatus, parseWorktreeList } from "../../src/main/worktrees/porcelain.js";
import { rescueBranchName } from "../../src/main/worktrees/remove.js";

const repo = "/home/user/code/app";
const agentPath = `${repo}/.claude/worktrees/agent-a5381943b340baa97`;
const fact: AgentWorktreeFact = {
  sessionId: "9ca218b0-0113-444e-9220-362522a18070",
  agentId: "a5381943b340baa97",
  worktreePath: agentPath,
  worktreeBranch: "worktree-agent-a5381943b340baa97",
  toolUseId: "toolu_main_t0_0",
  agentType: "general-purpose",
  description: "Work in a worktree",
};
const none: LiveFacts = { sessionIds: new Set(), lockHoldersAlive: new Set() };
const worktree = { path: agentPath, branch: "worktree-agent-a5381943b340baa97", isMain: false, locked: false, prunable: false };

describe("git's porcelain output", () => {
  it("reads worktree records with hostile paths, locks with and without reasons, prunable and detached ones", () => {
    const out = [
      `worktree ${repo}`, "HEAD 7bb948585df6c26874b1a6a9ab73b3796cc60969", "branch refs/heads/main", "",
      `worktree ${agentPath}`, "HEAD 7bb948585df6c26874b1a6a9ab73b3796cc60969", "branch refs/heads/worktree-agent-a5381943b340baa97", "locked claude agent agent-a5381943b340baa97 (pid 31481 start 407525)", "",
      "worktree /tmp/we ird\nnäme", "HEAD 1111111111111111111111111111111111111111", "detached", "locked", "",
      "worktree /tmp/gone", "HEAD 2222222222222222222222222222222222222222", "branch refs/heads/-dash", "prunable gitdir file points to non-existent location", "",
    ].join("\0");
    const records = parseWorktreeList(out);
    expect(records).toHaveLength(4);
    expect(records[1]).toMatchObject({ branchRef: "refs/heads/worktree-agent-a5381943b340baa97", locked: true, lockReason: "claude agent agent-a5381943b340baa97 (pid 31481 start 407525)" });
    expect(records[2]).toMatchObject({ path: "/tmp/we ird\nnäme", detached: true, locked: true, prunable: false });
    expect(records[2]!.lockReason).toBeUndefined();
    expect(records[3]).toMatchObject({ branchRef: "refs/heads/-dash", prunable: true, prunableReason: "gitdir file points to non-existent location" });
  });

  it("counts staged, unstaged and untracked changes; a rename's source is not a file of its own", () => {
    const dirt = parseStatus(["R  new name.txt", "old name.txt", "MM both.txt", " D gone.txt", "?? -x\nnewline", ""].join("\0"));
    expect(dirt).toEqual({
      staged: 2,
      unstaged: 2,
      untracked: 1,
      files: [
        { code: "R ", path: "new name.txt" },
        { code: "MM", path: "both.txt" },
        { code: " D", path: "gone.txt" },
        { code: "??", path: "-x\nnewline" },
      ],
    });
  });

  it("reads the lock the CLI holds while its agent runs, and agent ids in folder and branch names", () => {
    expect(parseClaudeLock("claude agent agent-a1 (pid 31481 start 407525)")).toEqual({ name: "agent-a1", pid: 31481, start: "407525" });
    expect(parseClaudeLock("claude agent agent-a1 (pid 31481)")).toEqual({ name: "agent-a1", pid: 31481 });
    expect(parseClaudeLock("kept for review")).toBeUndefined();
    expect(agentIdFromName("agent-a5381943b340baa97")).toBe("a5381943b340baa97");
    expect(agentIdFromName("worktree-agent-a5381943b340baa97")).toBe("a5381943b340baa97");
    expect(agentIdFromName("feature/x")).toBeUndefined();
  });

  it("makes rescue branch names git accepts from any folder name", () => {
    const at = new Date("2026-12-03T08:58:14.500Z");
    expect(rescueBranchName("/r/.claude/worktrees/agent-a1", at)).toBe("baton/rescue/agent-a1-20261203T085814Z");
    expect(rescueBranchName("/r/--x y\nz.lock", at)).toBe("baton/rescue/x-y-z-lock-20261203T085814Z");
    expect(rescueBranchName("/r/ёж ü", at)).toBe("baton/rescue/worktree-20261203T085814Z");
    expect(rescueBranchName("/r/a..b", at)).toBe("baton/rescue/a.b-20261203T085814Z");
  });
});

describe("which agent made a worktree", () => {
  it("names the session and agent from meta.json by path, and says whether the session still runs", () => {
    expect(attributeWorktree(worktree, [fact], { sessionIds: new Set([fact.sessionId]), lockHoldersAlive: new Set() })).toEqual({
      agent: { sessionId: fact.sessionId, agentId: fact.agentId, toolUseId: "toolu_main_t0_0", agentType: "general-purpose", description: "Work in a worktree", sessionLive: true },
    });
  });

  it("matches by branch when the path differs (a moved repository), and by the folder's agent id when meta has no path", () => {
    const moved = { ...worktree, path: "/elsewhere/.claude/worktrees/agent-a5381943b340baa97" };
    expect(attributeWorktree(moved, [fact], none).agent?.agentId).toBe(fact.agentId);
    const { worktreePath: _p, worktreeBranch: _b, ...bare } = fact;
    expect(attributeWorktree({ ...moved, branch: "renamed" }, [bare], none).agent?.agentId).toBe(fact.agentId);
  });

  it("keeps the agent id from the name when the history has nothing", () => {
    expect(attributeWorktree(worktree, [], none)).toEqual({ agentIdFromName: "a5381943b340baa97" });
  });

  it("an orphan: folder gone, lock holder gone, or the agent's session ended; a running agent's is not", () => {
    expect(attributeWorktree({ ...worktree, prunable: true }, [fact], none).orphaned).toBe("folder-gone");
    const lock = { locked: true, lockReason: "claude agent agent-a5381943b340baa97 (pid 4242 start 1)" };
    expect(attributeWorktree({ ...worktree, ...lock }, [fact], { sessionIds: new Set([fact.sessionId]), lockHoldersAlive: new Set() }).orphaned).toBe("lock-holder-gone");
    expect(attributeWorktree({ ...worktree, ...lock }, [fact], { sessionIds: new Set(), lockHoldersAlive: new Set(["4242:1"]) }).orphaned).toBeUndefined();
    // The same pid started at another time is another process.
    expect(attributeWorktree({ ...worktree, ...lock }, [fact], { sessionIds: new Set(), lockHoldersAlive: new Set(["4242:2"]) }).orphaned).toBe("lock-holder-gone");
    expect(attributeWorktree(worktree, [fact], none).orphaned).toBe("session-ended");
    expect(attributeWorktree(worktree, [fact], { sessionIds: new Set([fact.sessionId]), lockHoldersAlive: new Set() }).orphaned).toBeUndefined();
    // A person's own worktree, with a lock of their own: not an orphan.
    expect(attributeWorktree({ path: "/r/feature", branch: "feature", isMain: false, locked: true, lockReason: "mine", prunable: false }, [fact], none)).toEqual({});
    expect(attributeWorktree({ path: repo, branch: "main", isMain: true, locked: false, prunable: false }, [fact], none)).toEqual({});
  });
});

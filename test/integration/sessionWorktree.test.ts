// A session in its own worktree (issue 37), on the real CLI: "New session in a new worktree" makes
// `<repo>/.claude/worktrees/<slug>` on `worktree-<slug>` and starts the CLI there, so a Write
// lands in the worktree and not in the main checkout. Two run at once, each in its own (the model
// answers neither until both asked). The Worktrees view lists them as running sessions', refuses
// to remove one while its tab runs and rescues it once the tab is closed; resuming the session
// from the list opens it in its worktree again. A folder outside git is refused with the reason.
// While its tab runs the worktree is locked with git's own lock, so `baton worktrees remove` in a
// terminal (another process) refuses it too; closing the tab lets the lock go.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TabInfo } from "../../src/shared/api.js";
import { text } from "../support/scenarios/types.js";
import { git, initRepository } from "../support/git.js";
import { startFaultApp, value, type FaultApp } from "../support/faults/faultApp.js";
import { watchTab } from "../support/tabWatch.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run as runWorktreesCommand } from "../../src/main/commands/worktrees.js";

/** The `locked …` line git gives a worktree, or undefined when it is not locked. */
function lockLine(repo: string, where: string): string | undefined {
  const block = git(repo, "worktree", "list", "--porcelain")
    .split("\n\n")
    .find((b) => b.startsWith(`worktree ${where}\n`));
  return block?.split("\n").find((l) => l === "locked" || l.startsWith("locked "));
}

/** The folder the CLI told the model it works in. */
function cwdOf(request: Readonly<Record<string, unknown>>): string {
  const found = /Primary working directory: ([^\\\s]+)/.exec(JSON.stringify(request));
  if (found?.[1] === undefined) throw new Error("the request names no working directory");
  return found[1];
}

describe("a session in its own worktree", () => {
  let app: FaultApp;
  let repo: string;
  let bothAsked: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => (bothAsked = resolve));
  let firstTurns = 0;

  beforeAll(async () => {
    app = await startFaultApp(
      {
        main: [
          {
            // Neither session is answered before both have asked: they run at the same time.
            waitFor: () => {
              if (++firstTurns === 2) bothAsked();
              return asked;
            },
            blocks: (request) => [{ type: "tool_use", name: "Write", input: { file_path: path.join(cwdOf(request), "made-here.txt"), content: `written in ${path.basename(cwdOf(request))}\n` } }],
          },
          { blocks: [text("Wrote made-here.txt.")] },
          { blocks: [text("Still here, in the same worktree.")] },
        ],
      },
      { cwdName: "wt-sessions" },
    );
    repo = initRepository(app.env.cwd);
  }, 60_000);
  afterAll(() => app?.close());

  let tabs: TabInfo[] = [];
  const sessionIds: string[] = [];

  it("starts two sessions at once, each in a new worktree named from its first prompt, writing there only", async () => {
    const { service } = app;
    expect(value(await service.repositoryOf(repo))).toBe(repo);
    const started = await Promise.all(
      ["Fix the login page!", "Add a dark theme"].map((prompt) => service.newSession({ cwd: repo, newWorktree: true, initialPrompt: prompt, permissionMode: "bypassPermissions" })),
    );
    tabs = started.map(value);
    const folders = [path.join(repo, ".claude", "worktrees", "fix-the-login-page"), path.join(repo, ".claude", "worktrees", "add-a-dark-theme")];
    expect(tabs.map((t) => t.cwd)).toEqual(folders);
    expect(tabs.map((t) => t.worktree)).toEqual([
      { path: folders[0], branch: "worktree-fix-the-login-page" },
      { path: folders[1], branch: "worktree-add-a-dark-theme" },
    ]);
    for (const [i, tab] of tabs.entries()) {
      const watch = watchTab(service, tab.tabId, 90_000);
      const done = await watch.idleWith("Wrote made-here.txt.");
      watch.stop();
      // The CLI's own init says where it runs.
      expect(done.cwd).toBe(folders[i]);
      sessionIds.push(done.sessionId);
      expect(fs.readFileSync(path.join(folders[i]!, "made-here.txt"), "utf8")).toBe(`written in ${path.basename(folders[i]!)}\n`);
    }
    expect(fs.existsSync(path.join(repo, "made-here.txt"))).toBe(false);
    expect(git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/worktree-*").trim().split("\n")).toEqual(["worktree-add-a-dark-theme", "worktree-fix-the-login-page"]);
  }, 120_000);

  it("lists them as running sessions' worktrees and refuses to remove one while its tab runs", async () => {
    const { service } = app;
    const listing = value(await service.listWorktrees(tabs[0]!.tabId));
    const mine = listing.worktrees.filter((w) => !w.isMain);
    // Sessions' worktrees, not agents': no agent named, nothing orphaned.
    expect(mine.map((w) => [path.basename(w.path), w.branch, w.sessionRunning, w.agent, w.agentIdFromName, w.orphaned])).toEqual([
      ["add-a-dark-theme", "worktree-add-a-dark-theme", true, undefined, undefined, undefined],
      ["fix-the-login-page", "worktree-fix-the-login-page", true, undefined, undefined, undefined],
    ]);
    const refused = await service.removeWorktree(tabs[1]!.tabId, tabs[0]!.cwd!, true);
    expect(refused.ok ? undefined : refused.error.code).toBe("worktree_session_running");
    // Every other tool is refused too: git's own lock holds it, with Baton's reason.
    const lock = `baton: a session runs here (pid ${process.pid}`;
    expect(lockLine(repo, tabs[0]!.cwd!)).toContain(lock);
    const io = bufferIO();
    expect(await runWorktreesCommand(["remove", tabs[0]!.cwd!, "--rescue", "--repo", repo], io)).toBe(1);
    expect(io.err()).toContain("a session runs in it in another Baton");
    expect(fs.existsSync(path.join(tabs[0]!.cwd!, "made-here.txt"))).toBe(true);

    // Its tab closed, the lock goes and the usual rules apply: the new file is rescued onto a branch, then it goes.
    value(await service.closeTab(tabs[0]!.tabId));
    expect(lockLine(repo, tabs[0]!.cwd!)).toBeUndefined();
    const removed = value(await service.removeWorktree(tabs[1]!.tabId, tabs[0]!.cwd!, true));
    expect(removed.kind).toBe("rescued-and-removed");
    expect(fs.existsSync(tabs[0]!.cwd!)).toBe(false);
    const again = value(await service.listWorktrees(tabs[1]!.tabId)).worktrees.filter((w) => !w.isMain);
    expect(again.map((w) => [path.basename(w.path), w.sessionRunning])).toEqual([["add-a-dark-theme", true]]);
  }, 60_000);

  it("resumes a worktree session from the list in its worktree, on its branch", async () => {
    const { service } = app;
    const sessionId = sessionIds[1];
    value(await service.closeTab(tabs[1]!.tabId));
    const listed = value(await service.listSessions()).find((s) => s.sessionId === sessionId);
    expect([listed?.cwd, listed?.gitBranch]).toEqual([tabs[1]!.cwd, "worktree-add-a-dark-theme"]);
    const resumed = value(await service.newSession({ cwd: listed!.cwd!, resumeSessionId: sessionId!, permissionMode: "bypassPermissions" }));
    expect(resumed.worktree).toEqual(tabs[1]!.worktree);
    const watch = watchTab(service, resumed.tabId, 90_000);
    value(await service.sendPrompt(resumed.tabId, "are you still there?"));
    const back = await watch.idleWith("Still here, in the same worktree.");
    watch.stop();
    expect(back.sessionId).toBe(sessionId);
    // The same conversation, run where it ran: the model sees the earlier turn and the worktree.
    const request = app.model.requests.find((r) => r.agent === "main" && JSON.stringify(r.body["messages"]).includes("are you still there?"));
    expect(JSON.stringify(request?.body["messages"])).toContain("Wrote made-here.txt.");
    expect(cwdOf(request!.body)).toBe(tabs[1]!.cwd);
    value(await service.closeTab(resumed.tabId));
  }, 120_000);

  it("refuses a new worktree outside a git repository, saying why, and starts nothing", async () => {
    const { service } = app;
    const outside = fs.mkdtempSync(path.join(path.dirname(repo), "no-git-"));
    expect(value(await service.repositoryOf(outside))).toBeNull();
    const before = value(await service.listTabs()).length;
    const refused = await service.newSession({ cwd: outside, newWorktree: true });
    expect(refused.ok ? undefined : [refused.error.code, refused.error.message]).toEqual(["worktree_not_a_repository", `No new worktree: ${outside} is not in a git repository`]);
    expect(value(await service.listTabs())).toHaveLength(before);
  });
});

// A fork of a session that ran in a worktree, in a worktree of its own (issue 37), on the real CLI.
// A session started "in a new worktree" writes and commits a file there and answers a second
// prompt; "Fork from here" on that prompt, asked the moment its answer is shown (2.1.197 writes the
// turn's lines to the file tens of milliseconds later: the fork waits for them instead of being
// refused), with "in a new worktree": the fork runs in another new worktree made from the origin
// worktree's commit (so it has the committed file), named from its prompt; the CLI finds the
// original's history in the origin worktree's project folder, shows the model the earlier turn
// and the new folder, and the fork's Write lands there only. Both CLIs (vitest.config.ts onBothClis).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Transcript } from "../../src/shared/transcript.js";
import { text } from "../support/scenarios/types.js";
import { git, initRepository } from "../support/git.js";
import { startFaultApp, value, type FaultApp } from "../support/faults/faultApp.js";
import { watchTab } from "../support/tabWatch.js";

/**
 * The folder the CLI last told the model it works in: a fork's request repeats the original's
 * environment and 2.1.332 then adds an update naming the new folder.
 */
function cwdOf(request: Readonly<Record<string, unknown>>): string {
  const named = [...JSON.stringify(request).matchAll(/Primary working directory: ([^\\\s]+)/g)].map((m) => m[1]!);
  const last = named.at(-1);
  if (last === undefined) throw new Error("the request names no working directory");
  return last;
}

const write = (name: string) => ({ blocks: (request: Readonly<Record<string, unknown>>) => [{ type: "tool_use" as const, name: "Write", input: { file_path: path.join(cwdOf(request), name), content: `${name} in ${path.basename(cwdOf(request))}\n` } }] });

/** The conversation as the person reads it: each prompt and answer, in order. */
const said = (t: Transcript) => t.blocks.filter((b) => b.kind === "user" || b.kind === "text").map((b) => `${b.kind}: ${b.text ?? ""}`);

describe("a fork of a worktree session, in a new worktree", () => {
  let app: FaultApp;
  let repo: string;
  let origin: { tabId: string; folder: string; sessionId: string; second: string };

  beforeAll(async () => {
    app = await startFaultApp(
      {
        // A turn is picked by its number in the conversation: the fork's first turn is the third, as the original's second prompt's.
        main: [
          write("one.txt"),
          { blocks: [text("Wrote one.txt.")] },
          { blocks: (request) => (JSON.stringify(request).includes("on its own branch") ? write("forked.txt").blocks(request) : [text("Answer two.")]) },
          { blocks: [text("Wrote forked.txt.")] },
        ],
      },
      { cwdName: "wt-fork" },
    );
    repo = initRepository(app.env.cwd);
  }, 60_000);
  afterAll(() => app?.close());

  it("runs in another new worktree from the origin worktree's commit, with the turns before the prompt", async () => {
    const { service } = app;
    const originTab = value(await service.newSession({ cwd: repo, newWorktree: true, initialPrompt: "Start the notes", permissionMode: "bypassPermissions" }));
    const originFolder = path.join(repo, ".claude", "worktrees", "start-the-notes");
    expect(originTab.cwd).toBe(originFolder);
    const watch = watchTab(service, originTab.tabId, 90_000);
    let answered: Transcript;
    try {
      await watch.idleWith("Wrote one.txt.");
      // The origin's branch moves on: a fork's worktree starts from it, not from main.
      git(originFolder, "add", "one.txt");
      git(originFolder, "commit", "-q", "-m", "One");
      value(await service.sendPrompt(originTab.tabId, "second"));
      answered = await watch.idleWith("Answer two.");
    } finally {
      watch.stop();
    }
    const second = answered.blocks.filter((b) => b.kind === "user")[1]!.id;
    origin = { tabId: originTab.tabId, folder: originFolder, sessionId: answered.sessionId, second };

    // Asked at once: on 2.1.197 the second prompt may not be in the file yet.
    const fork = value(await service.forkSession(originTab.tabId, second, "second, on its own branch", true));
    const forkFolder = path.join(repo, ".claude", "worktrees", "second-on-its-own-branch");
    expect([fork.cwd, fork.worktree, fork.forkedFrom]).toEqual([forkFolder, { path: forkFolder, branch: "worktree-second-on-its-own-branch" }, { sessionId: answered.sessionId, promptUuid: second }]);
    const forkWatch = watchTab(service, fork.tabId, 90_000);
    try {
      const done = await forkWatch.idleWith("Wrote forked.txt.");
      expect(said(done)).toEqual(["user: Start the notes", "text: Wrote one.txt.", "user: second, on its own branch", "text: Wrote forked.txt."]);
      // The fork kept the original's permission mode: its Write needed no answer.
      expect(done.permissionMode).toBe("bypassPermissions");
      expect(done.cwd).toBe(forkFolder);
      expect(done.sessionId).not.toBe(answered.sessionId);
    } finally {
      forkWatch.stop();
    }
    // Made from the origin worktree's commit; the fork's file is in its worktree only.
    expect(git(forkFolder, "rev-parse", "HEAD")).toBe(git(originFolder, "rev-parse", "HEAD"));
    expect(fs.readFileSync(path.join(forkFolder, "one.txt"), "utf8")).toBe("one.txt in start-the-notes\n");
    expect(fs.readFileSync(path.join(forkFolder, "forked.txt"), "utf8")).toBe("forked.txt in second-on-its-own-branch\n");
    expect(fs.existsSync(path.join(originFolder, "forked.txt"))).toBe(false);
    expect(fs.existsSync(path.join(repo, "forked.txt"))).toBe(false);
  }, 180_000);

  it("offers the same from the session reopened from history, which shows its worktree", async () => {
    const { service } = app;
    value(await service.closeTab(origin.tabId));
    const restored = value(await service.openSession(origin.sessionId));
    expect([restored.kind, restored.worktree]).toEqual(["restored", { path: origin.folder, branch: "worktree-start-the-notes" }]);
    const fork = value(await service.forkSession(restored.tabId, origin.second, "second again, on its own branch", true));
    const forkFolder = path.join(repo, ".claude", "worktrees", "second-again-on-its-own-branch");
    expect(fork.worktree).toEqual({ path: forkFolder, branch: "worktree-second-again-on-its-own-branch" });
    const watch = watchTab(service, fork.tabId, 90_000);
    try {
      // A fork of a session read from history starts in the default mode (the file's mode is not taken on trust): its Write asks.
      const asked = await watch.waitFor("the Write's permission request", () => watch.pending().find((p) => p.toolName === "Write"));
      expect(watch.transcript().permissionMode).toBe("default");
      value(await service.answerPermission(fork.tabId, asked.requestId, { behavior: "allow" }));
      const done = await watch.idleWith("Wrote forked.txt.");
      expect(said(done)).toEqual(["user: Start the notes", "text: Wrote one.txt.", "user: second again, on its own branch", "text: Wrote forked.txt."]);
    } finally {
      watch.stop();
    }
    expect(fs.readFileSync(path.join(forkFolder, "forked.txt"), "utf8")).toBe("forked.txt in second-again-on-its-own-branch\n");
  }, 180_000);
});

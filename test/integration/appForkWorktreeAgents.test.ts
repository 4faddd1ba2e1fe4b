// The agents a fork made in a new worktree copied (issue 37), through the real app core (its
// store and audit trail) and the real CLI. A session in a repository's main checkout sends an
// agent that sends a nested one, then answers a second prompt; "Fork from here" on that prompt,
// in a new worktree: the fork's file is in the worktree's project folder, its copied agents'
// files stay in the origin's. Reopened from history, the fork finds them through the fork Baton
// recorded: its total counts both agents and their cards open. A fork of that fork, in another
// new worktree, finds them through the chain of recorded origins, live. Both CLIs
// (vitest.config.ts onBothClis).
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppCore } from "../../src/main/app/createAppCore.js";
import { appCoreFor } from "../support/appManager.js";
import { value } from "../support/apiValue.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { initRepository } from "../support/git.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { sharesScript } from "../support/scenarios/sharesScript.js";
import { forkAnswered, opensNestedCard, sharesOnDisk, shareWhen } from "../support/sessionShares.js";

describe("a fork in a new worktree, reopened from history, and a fork of it: the agents it copied (real CLI)", () => {
  let model: ModelServer;
  let env: CliEnv;
  let core: AppCore;
  let repo: string;

  beforeAll(async () => {
    model = await startModelServer(sharesScript("Look around"));
    env = await createCliEnv({ baseUrl: model.url, cwdName: "fork-worktree-agents" });
    repo = initRepository(env.cwd);
    core = await appCoreFor(env);
  });

  afterAll(async () => {
    await core?.close();
    await model?.close();
    await env?.cleanup();
  });

  it("counts the origin's agents and opens their cards, reopened and in a fork of the fork", async () => {
    const { service } = core;
    const when = (tabId: string, done: Parameters<typeof shareWhen>[2]) => shareWhen(service, tabId, done);
    const origin = value(await service.newSession({ cwd: repo, permissionMode: "bypassPermissions" }));
    const looked = when(origin.tabId, (t) => t.status === "idle" && t.blocks.some((b) => b.text === "The agents looked."));
    value(await service.sendPrompt(origin.tabId, "look around with agents"));
    const originId = (await looked).sessionId!;
    const answered = when(origin.tabId, (t) => t.status === "idle" && t.blocks.some((b) => b.text === "Second answer."));
    value(await service.sendPrompt(origin.tabId, "and a second question"));

    const fork = await forkAnswered(service, model, origin.tabId, await answered, "and a second question", "a forked question", true);
    expect(fork.transcript.cwd).toBe(path.join(repo, ".claude", "worktrees", "a-forked-question"));
    const forkId = fork.transcript.sessionId!;
    value(await service.closeTab(fork.tabId));
    value(await service.closeTab(origin.tabId));
    // Read once the CLIs have stopped: 2.1.197 writes a turn's lines to the files late.
    const { outer, inner } = sharesOnDisk(env.projectsDir, originId);
    expect(fork.transcript.sessionInputTokens).toBe(200 + outer.tokens + inner.tokens + 100 * fork.ownCalls);

    // Reopened: its file is in the worktree's project folder, the agents' files in the origin's.
    const reopened = value(await service.openSession(forkId));
    expect(reopened.forkedFrom?.sessionId).toBe(originId);
    const counted = await when(reopened.tabId, (t) => t.sessionInputTokens !== undefined);
    expect(counted.sessionInputTokens).toBe(200 + outer.tokens + inner.tokens + 100 * fork.ownCalls);
    await opensNestedCard(service, reopened.tabId, outer.tokens);

    // A fork of the fork, in another new worktree: live, its copied turns' agents are two records back.
    const again = await forkAnswered(service, model, reopened.tabId, counted, "a forked question", "the fork's forked question", true);
    expect(again.transcript.sessionInputTokens).toBe(200 + outer.tokens + inner.tokens + 100 * again.ownCalls);
    await opensNestedCard(service, again.tabId, outer.tokens);
    value(await service.closeTab(again.tabId));
    value(await service.closeTab(reopened.tabId));
  }, 240_000);
});

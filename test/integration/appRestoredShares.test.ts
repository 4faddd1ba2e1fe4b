// Each agent card's share in a restored session (issue 37), through the app core and the real
// CLI: a session whose agent starts a nested agent runs in one app core; a new app core opens it
// from history. Its files keep no turn results, so the session's total is what they record: the
// main file's calls and every subagent file's, read in the background after the restore without
// loading any card's steps. Each card's record holds its own file's calls; opening the cards
// counts nothing twice. A fork of it from its second prompt: the turns it continues are counted
// from the original's lines, so its total is known from its first answer on, and the card of an
// agent it copied opens on that agent's steps, read from the original's files.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BatonService } from "../../src/main/core/batonService.js";
import type { SessionManager } from "../../src/main/core/sessionManager.js";
import { managerFor } from "../support/appManager.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { sharesScript } from "../support/scenarios/sharesScript.js";
import { value } from "../support/apiValue.js";
import { forkAnswered, opensNestedCard, records, sharesOnDisk, shareWhen } from "../support/sessionShares.js";


describe("a restored session's token shares, from its files (real CLI)", () => {
  let model: ModelServer;
  let env: CliEnv;
  let first: SessionManager;
  let second: SessionManager | undefined;
  let sessionId: string;
  /** The fork the second test makes, with the calls the model answered for its own run. */
  let forkMade: { readonly sessionId: string; readonly ownCalls: number } | undefined;

  beforeAll(async () => {
    model = await startModelServer(sharesScript("Look around"));
    env = await createCliEnv({ baseUrl: model.url, cwdName: "restored-shares" });
    first = managerFor(env, { withHistory: true });
    const service = new BatonService(first);
    const tab = value(await service.newSession({ cwd: env.cwd, permissionMode: "bypassPermissions" }));
    const done = shareWhen(service, tab.tabId, (t) => t.status === "idle" && t.blocks.some((b) => b.text === "The agents looked."));
    value(await service.sendPrompt(tab.tabId, "look around with agents"));
    sessionId = (await done).sessionId;
    const second = shareWhen(service, tab.tabId, (t) => t.status === "idle" && t.blocks.some((b) => b.text === "Second answer."));
    value(await service.sendPrompt(tab.tabId, "and a second question"));
    await second;
    value(await service.closeTab(tab.tabId));
    await first.shutdown();
  }, 120_000);

  afterAll(async () => {
    await second?.shutdown();
    await model?.close();
    await env?.cleanup();
  });

  /** What the original session's files record: its main file's calls, the outer agent's and the nested one's. */
  const originalFiles = () => sharesOnDisk(env.projectsDir, sessionId);

  it("a new app core opens it: each card holds its own file's calls and the total is every file's", async () => {
    const { main, outer, inner } = originalFiles();
    // The files record every call the model answered for the main thread and the two agents (100 input tokens each); the CLI's side calls are not in them.
    expect([main.calls, outer.calls, inner.calls]).toEqual([3, 3, 2]);
    const answered = model.requests.filter((r) => r.kind === "agent" && ["main", "SUB-A", "SUB-B"].includes(r.agent));
    expect(main.tokens + outer.tokens + inner.tokens).toBe(answered.length * 100);

    second = managerFor(env, { withHistory: true });
    const service = new BatonService(second);
    const tab = value(await service.openSession(sessionId));
    const counted = await shareWhen(service, tab.tabId, (t) => t.sessionInputTokens !== undefined);
    expect(counted.sessionInputTokens).toBe(main.tokens + outer.tokens + inner.tokens);
    const card = records(counted.blocks).find((r) => r.prompt.includes("[[SUB-A]]"))!;
    expect(card.inputTokens).toBe(outer.tokens);
    // Still lazy: the card's steps were not read into the tab.
    expect(card.blocks).toEqual([]);
    expect(card.sidechainPath).toBeDefined();

    // Opening the card shows the nested agent's card, with what its own file recorded; nothing counts twice.
    const opened = shareWhen(service, tab.tabId, (t) => records(t.blocks).some((r) => r.prompt.includes("[[SUB-B]]")));
    value(await service.loadSubagentBlocks(tab.tabId, card.toolUseId));
    const withNested = await opened;
    const nested = records(withNested.blocks).find((r) => r.prompt.includes("[[SUB-B]]"))!;
    expect(nested.inputTokens).toBe(inner.tokens);
    expect(records(withNested.blocks).find((r) => r.toolUseId === card.toolUseId)?.inputTokens).toBe(outer.tokens);
    value(await service.loadSubagentBlocks(tab.tabId, nested.toolUseId));
    const all = await shareWhen(service, tab.tabId, (t) => records(t.blocks).find((r) => r.toolUseId === nested.toolUseId)?.blocks.some((b) => b.call?.name === "Bash") === true);
    expect(all.sessionInputTokens).toBe(main.tokens + outer.tokens + inner.tokens);
    expect(records(all.blocks).map((r) => r.inputTokens)).toEqual([outer.tokens, inner.tokens]);
  });

  it("a fork from its second prompt knows its total: the first turn's calls from the original's files, then its own run's", async () => {
    const { outer, inner } = originalFiles();
    const service = new BatonService(second!);
    const tab = value(await service.openSession(sessionId));
    const restored = await shareWhen(service, tab.tabId, (t) => t.blocks.some((b) => b.kind === "user" && b.text === "and a second question"));
    const fork = await forkAnswered(service, model, tab.tabId, restored, "and a second question", "a forked question");
    // The first turn's two main-thread calls (100 input tokens each, read from the original's
    // file) and its agents' (their files stay in the original's folder), then the fork's run: the
    // calls the model answered for it (2.1.332's modelUsage also carries the original's whole session: not counted twice).
    expect(fork.transcript.sessionInputTokens).toBe(200 + outer.tokens + inner.tokens + 100 * fork.ownCalls);
    // The earlier agent's card in the fork's tab holds its calls. Its steps are in the original's
    // files (the CLI copies the main lines only): the card is offered its file there, opening it
    // reads them, and its nested agent's card is offered and opens too.
    await opensNestedCard(service, fork.tabId, outer.tokens);
    forkMade = { sessionId: fork.transcript.sessionId!, ownCalls: fork.ownCalls };
    value(await service.closeTab(fork.tabId));
  });

  it("the fork reopened from history, and a fork of it, count the nested agent's calls too and open its card", async () => {
    const { outer, inner } = originalFiles();
    const { sessionId: forkId, ownCalls } = forkMade!;
    const service = new BatonService(second!);
    // Reopened: its file copied the first turn's lines; both agents' files are in the original's folder.
    const tab = value(await service.openSession(forkId));
    const reopened = await shareWhen(service, tab.tabId, (t) => t.sessionInputTokens !== undefined);
    expect(reopened.sessionInputTokens).toBe(200 + outer.tokens + inner.tokens + 100 * ownCalls);
    await opensNestedCard(service, tab.tabId, outer.tokens);

    // A fork of the fork from its own prompt: the turns before it, counted from the fork's lines and the original's files.
    const again = await forkAnswered(service, model, tab.tabId, reopened, "a forked question", "the fork's forked question");
    expect(again.transcript.sessionInputTokens).toBe(200 + outer.tokens + inner.tokens + 100 * again.ownCalls);
    await opensNestedCard(service, again.tabId, outer.tokens);
    value(await service.closeTab(again.tabId));
    value(await service.closeTab(tab.tabId));
  });
});

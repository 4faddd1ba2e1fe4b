// A fork's copied Workflow card (issue 37), through the app core and the real CLI: a session runs
// a Workflow of two agents in the background, then answers a second prompt; "Fork from here" on
// that prompt. Neither CLI copies the run's folder into the fork, so the fork's live tab offers
// the card its origin's run and opening it shows the run's agents; so does the fork reopened from
// history. Both CLIs (vitest.config.ts onBothClis).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BatonService } from "../../src/main/core/batonService.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { value } from "../support/apiValue.js";
import { serviceAppFor, type ServiceApp } from "../support/appManager.js";
import { workflow } from "../support/scenarios/workflow.js";
import { text } from "../support/scenarios/types.js";
import { records, shareWhen } from "../support/sessionShares.js";

describe("a fork's copied Workflow card (real CLI)", () => {
  let app: ServiceApp;
  let service: BatonService;

  beforeAll(async () => {
    // The Workflow's turn, its notification's turn, then the second prompt's answer (also the fork's: the server answers by the conversation's turn).
    app = await serviceAppFor({ ...workflow.script, main: [...workflow.script["main"]!, { blocks: [text("Second answer.")] }] }, "fork-workflow");
    service = app.service;
  });
  afterAll(() => app?.close());

  const when = (tabId: string, done: (t: Transcript) => boolean) => shareWhen(service, tabId, done);
  const workflowCard = (t: Transcript) => records(t.blocks).find((r) => r.subagentType === "workflow");

  /** Opens the tab's Workflow card, offered its run's folder, and gives its agents' names. */
  async function runAgents(tabId: string): Promise<string[]> {
    const card = workflowCard(await when(tabId, (t) => workflowCard(t)?.sidechainPath !== undefined))!;
    expect(card.sidechainPath).toMatch(/subagents[/\\]workflows[/\\]/);
    value(await service.loadSubagentBlocks(tabId, card.toolUseId));
    const opened = await when(tabId, (t) => (workflowCard(t)?.blocks.length ?? 0) >= 2);
    return workflowCard(opened)!.blocks.map((b) => b.call?.subagent?.description ?? "").sort();
  }

  it("the fork's live tab and the fork reopened from history open the run's agents", async () => {
    const tab = value(await service.newSession({ cwd: app.env.cwd, permissionMode: "bypassPermissions" }));
    const finished = when(tab.tabId, (t) => t.status === "idle" && t.blocks.some((b) => b.text === "Workflow finished."));
    value(await service.sendPrompt(tab.tabId, "use a workflow to read both parts"));
    await finished;
    const answered = when(tab.tabId, (t) => t.status === "idle" && t.blocks.some((b) => b.text === "Second answer."));
    value(await service.sendPrompt(tab.tabId, "and a second question"));
    const shown = await answered;
    // The run's agents, as the origin's own card opens them.
    const names = await runAgents(tab.tabId);
    expect(names).toHaveLength(2);

    const prompt = shown.blocks.find((b) => b.kind === "user" && b.text === "and a second question")!;
    const fork = value(await service.forkSession(tab.tabId, prompt.id, "a forked question"));
    const forked = await when(fork.tabId, (t) => t.status === "idle" && t.blocks.at(-1)?.text === "Second answer." && t.blocks.some((b) => b.text === "a forked question"));
    expect(await runAgents(fork.tabId)).toEqual(names);
    value(await service.closeTab(fork.tabId));

    const reopened = value(await service.openSession(forked.sessionId!));
    expect(await runAgents(reopened.tabId)).toEqual(names);
    value(await service.closeTab(reopened.tabId));
    value(await service.closeTab(tab.tabId));
  }, 180_000);
});

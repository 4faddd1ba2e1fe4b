// Browser tests of subagent cards through web mode: the real CLI against the scripted model
// server, the real app core and web server, the built renderer in Chromium.
import fsp from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { sendMessageContinue } from "../support/scenarios/sendMessageContinue.js";
import { workflow } from "../support/scenarios/workflow.js";
import { testCliVersion } from "../support/cliEnv.js";
import { gate } from "../support/gate.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiSubagents: /usr/bin/chromium not found, skipping browser tests");

/** All that the CLI has written so far of Workflow runs' agents (their transcripts and journals). */
async function workflowAgentFiles(projectsDir: string): Promise<string> {
  const files = (await fsp.readdir(projectsDir, { recursive: true })).filter((f) => /subagents[/\\]workflows[/\\].*\.jsonl$/.test(f));
  return (await Promise.all(files.map((f) => fsp.readFile(path.join(projectsDir, f), "utf8").catch(() => "")))).join("\n");
}

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("subagent cards in the browser", () => {
  it("shows a running subagent live, then its summary, with its steps only inside the card", async () => {
    // Each step stays the running one until the test has seen it.
    const firstStepSeen = gate();
    const secondStepSeen = gate();
    app = await startWebApp(
      {
        main: [
          { blocks: [agentCall("Echo via subagent", "[[SUB-A]] run three commands and report")] },
          { blocks: [text("All done. The subagent reported back.")] },
        ],
        "SUB-A": [
          { blocks: [bashCall("echo hello-from-sub", "Echo a greeting")] },
          { blocks: [bashCall("echo second-step", "Second step")], waitFor: () => firstStepSeen.opened },
          { blocks: [bashCall("echo third-step", "Third step")], waitFor: () => secondStepSeen.opened },
          { blocks: [text("Three commands ran: **hello-from-sub**, second-step, third-step.")] },
        ],
      },
      { cwdName: "subagent-ui" },
    );
    const { baton } = app;
    await baton.newSession();
    await baton.send("please delegate this");

    const card = baton.subagentCard("general-purpose", "Echo via subagent");
    await pw(card).toHaveAttribute("data-status", "running", { timeout: 30_000 });
    const progress = baton.progressOf(card);
    await pw(progress).toContainText("Running Echo a greeting", { timeout: 30_000 });
    // The figures come with the CLI's progress: the tokens (2.1.332 counts the agent's context, which
    // the scripted model keeps the same size) and the tool calls so far, which go up live.
    await expect.poll(async () => (await progress.getByLabel("Tokens").textContent()) ?? "").toMatch(/^\d[\d.]*[kM]? tokens$/);
    await pw(progress).toContainText("1 tools");
    firstStepSeen.open();
    await pw(progress).toContainText("Running Second step", { timeout: 30_000 });
    await pw(progress).toContainText("2 tools");
    await baton.screenshot("subagent-running");
    secondStepSeen.open();

    await pw(card).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
    await pw(card.locator(":scope > .summary-md")).toContainText("Three commands ran");
    await pw(card.locator(":scope > .summary-md strong")).toHaveText("hello-from-sub");
    await pw(baton.transcript).toContainText("All done. The subagent reported back.", { timeout: 30_000 });

    // Nothing of the subagent leaks to the top level.
    await pw(baton.toolCards("Bash")).toHaveCount(0);
    await baton.expand(card);
    const bash = baton.toolCards("Bash", card);
    await pw(bash).toHaveCount(3);
    await pw(bash.first().getByLabel("Command")).toContainText("echo hello-from-sub");
    await pw(bash.first().getByLabel("Output")).toContainText("hello-from-sub");
    await baton.screenshot("subagent-expanded");
    expect(app.pageErrors).toEqual([]);
  });

  it("gives parallel subagents their own cards and shows a depth-2 agent inside its parent", async () => {
    app = await startWebApp(
      {
        main: [
          // In the foreground (2.1.332 backgrounds an Agent call by default), so the next turn comes
          // once both have finished.
          {
            blocks: [
              agentCall("Alpha task", "[[SUB-A]] do two steps", { run_in_background: false }),
              agentCall("Outer task", "[[SUB-B]] delegate further", { run_in_background: false }),
            ],
          },
          { blocks: [text("Both subagents finished.")] },
        ],
        "SUB-A": [
          { blocks: [bashCall("echo alpha-1", "Alpha step one")], delayMs: 300 },
          { blocks: [bashCall("echo alpha-2", "Alpha step two")] },
          { blocks: [text("Alpha done.")] },
        ],
        "SUB-B": [
          { blocks: [text("Delegating to an inner agent."), agentCall("Inner task", "[[SUB-C]] run echo")] },
          { blocks: [text("Inner agent reported back.")] },
        ],
        "SUB-C": [{ blocks: [bashCall("echo from-depth-two", "Echo from the inner agent")] }, { blocks: [text("Inner done.")] }],
      },
      { cwdName: "parallel-ui" },
    );
    const { baton } = app;
    await baton.newSession();
    await baton.send("run things in parallel");
    const alpha = baton.subagentCard("general-purpose", "Alpha task");
    const outer = baton.subagentCard("general-purpose", "Outer task");
    await pw(alpha).toBeVisible({ timeout: 30_000 });
    await pw(outer).toBeVisible();
    await pw(baton.transcript).toContainText("Both subagents finished.", { timeout: 90_000 });
    await pw(alpha).toHaveAttribute("data-status", "completed");
    await pw(outer).toHaveAttribute("data-status", "completed");

    await baton.expand(alpha);
    await pw(baton.toolCards("Bash", alpha)).toHaveCount(2);
    await pw(alpha).toContainText("echo alpha-1");
    await pw(alpha).not.toContainText("from-depth-two");

    await baton.expand(outer);
    const inner = baton.subagentCard("general-purpose", "Inner task", outer);
    await pw(inner).toBeVisible({ timeout: 30_000 });
    await pw(inner).toHaveAttribute("data-status", "completed");
    await pw(inner.locator(":scope > .summary-md")).toContainText("Inner done.");
    // Expanding the card shows its steps: streamed on 2.1.332; on 2.1.197, which never streams
    // depth-2 steps (docs/protocol-notes.md "Subagents"), read from its sidechain.
    await baton.expand(inner);
    await pw(baton.toolCards("Bash", inner).getByLabel("Output")).toContainText("from-depth-two", { timeout: 30_000 });
    // The inner agent's card is inside the outer one only.
    await pw(baton.subagentCard("general-purpose", "Inner task")).toHaveCount(1);
    await pw(baton.agentInHierarchy("general-purpose", "Inner task")).toBeVisible();
    await baton.screenshot("parallel-and-nested");
    expect(app.pageErrors).toEqual([]);
  });

  it("shows a depth-3 agent live inside its caller's card, before any card is expanded, and once only after its caller's sidechain is read", async () => {
    const deepestSeen = gate();
    app = await startWebApp(
      {
        // In the foreground (2.1.332 backgrounds an Agent call by default): the last line comes once all three are done.
        main: [{ blocks: [agentCall("Top agent", "[[SUB-A]] delegate twice", { run_in_background: false })] }, { blocks: [text("Three levels finished.")] }],
        "SUB-A": [{ blocks: [agentCall("Middle agent", "[[SUB-B]] delegate once more")] }, { blocks: [text("Middle agent reported back.")] }],
        "SUB-B": [{ blocks: [text("Handing the work to the deepest agent."), agentCall("Deepest agent", "[[SUB-C]] run echo")] }, { blocks: [text("Deepest agent reported back.")] }],
        // The deepest agent stays busy until the test has seen it running.
        "SUB-C": [{ blocks: [bashCall("echo from-depth-three", "Echo from the deepest agent")] }, { blocks: [text("Depth three done.")], waitFor: () => deepestSeen.opened }],
      },
      { cwdName: "deep-ui" },
    );
    const { baton } = app;
    await baton.newSession();
    await baton.send("nest three agents");
    // Nothing the deepest agent does reaches stdout but its task events: the Hierarchy shows it
    // running, placed under the middle agent, with no card expanded (no sidechain read yet).
    const deepest = baton.agentInHierarchy("general-purpose", "Deepest agent");
    await pw(deepest).toBeVisible({ timeout: 30_000 });
    await pw(baton.agentInHierarchy("general-purpose", "Deepest agent", baton.agentInHierarchy("general-purpose", "Middle agent"))).toBeVisible();
    deepestSeen.open();
    await pw(baton.transcript).toContainText("Three levels finished.", { timeout: 90_000 });

    const top = baton.subagentCard("general-purpose", "Top agent");
    await baton.expand(top);
    const middle = baton.subagentCard("general-purpose", "Middle agent", top);
    await baton.expand(middle);
    const deep = baton.subagentCard("general-purpose", "Deepest agent", middle);
    await pw(deep).toHaveAttribute("data-status", "completed");
    // Expanding the middle card read its sidechain, whose real Agent call took the stand-in's place.
    await pw(middle).toContainText("Handing the work");
    await pw(baton.subagentCard("general-purpose", "Deepest agent")).toHaveCount(1);
    await baton.expand(deep);
    await pw(baton.toolCards("Bash", deep).getByLabel("Output")).toContainText("from-depth-three", { timeout: 30_000 });
    expect(app.pageErrors).toEqual([]);
  });

  it("shows a Workflow run as one card whose agents, each with its own steps, appear inside it when it is expanded and keep up while it runs", async () => {
    // Reader one waits after its Bash until the test has seen the run mid-way.
    const midwaySeen = gate();
    const slowReader = [workflow.script["SUB-A"]![0]!, { ...workflow.script["SUB-A"]![1]!, waitFor: () => midwaySeen.opened }];
    app = await startWebApp({ ...workflow.script, "SUB-A": slowReader }, { cwdName: "workflow-ui" });
    const { baton } = app;
    await baton.newSession();
    await baton.send("use a workflow to read both parts");
    // The CLI asks before it runs a Workflow (default mode).
    const ask = baton.permissionOn(baton.toolCards("Workflow"));
    await pw(ask).toContainText("Two agents in parallel", { timeout: 30_000 });
    await ask.getByRole("button", { name: "Allow once", exact: true }).click();
    const run = baton.subagentCard("workflow", "Two agents in parallel");
    await pw(run).toBeVisible({ timeout: 30_000 });
    // Nothing of the agents streams: expanding the card reads the run's transcripts, as far as they
    // go: once the CLI has written reader one's step (reader one then waits for the test).
    await expect.poll(() => workflowAgentFiles(app!.env.projectsDir), { timeout: 30_000 }).toContain('"content":"part-one"');
    // 2.1.197 writes the labels only in the run's record, at its end: until then, each agent's
    // prompt names it. 2.1.332 writes them in the run's journal as each agent starts.
    await baton.expand(run);
    const labelsEarly = testCliVersion() !== "2.1.197";
    const one = baton.subagentCard("workflow-subagent", labelsEarly ? "Reader one" : "[[SUB-A]] read part one", run);
    const two = baton.subagentCard("workflow-subagent", labelsEarly ? "Reader two" : "[[SUB-B]] read part two", run);
    await pw(two).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    await pw(one).toHaveAttribute("data-status", "running");
    await baton.expand(one);
    await pw(baton.toolCards("Bash", one).getByLabel("Output")).toContainText("part-one");
    midwaySeen.open();
    // The run's progress brings the rest in, with no further click, and its end the labels.
    await pw(baton.transcript).toContainText("Workflow finished.", { timeout: 90_000 });
    await pw(run).toHaveAttribute("data-status", "completed");
    const labelled = baton.subagentCard("workflow-subagent", "Reader one", run);
    await pw(labelled).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    await pw(labelled).toContainText("Part one read.");
    await pw(baton.subagentCard("workflow-subagent", "Reader two", run)).toHaveAttribute("data-status", "completed");
    await pw(run.getByRole("article", { name: /^Subagent workflow-subagent: / })).toHaveCount(2);
    expect(app.pageErrors).toEqual([]);
  });

  it("keeps a card expanded through progress ticks and scrolling it away and back", async () => {
    // Many blocks after the card, so scrolling to the end unmounts its row.
    const filler = Array.from({ length: 16 }, (_, i) => text(`Paragraph ${i}: ${"lorem ipsum ".repeat(60)}`));
    const expandedAtTickOne = gate();
    const twoTicksSeen = gate();
    app = await startWebApp(
      {
        // Foreground on purpose: in the background (2.1.332's default) the filler would come at
        // once and scroll the card away while it ticks.
        main: [{ blocks: [agentCall("Ticking task", "[[SUB-A]] tick", { run_in_background: false })] }, { blocks: [text("Finished."), ...filler] }],
        // Each tick waits until the test has seen the one before on the card.
        "SUB-A": [
          { blocks: [bashCall("echo tick-1", "Tick one")] },
          { blocks: [bashCall("echo tick-2", "Tick two")], waitFor: () => expandedAtTickOne.opened },
          { blocks: [bashCall("echo tick-3", "Tick three")], waitFor: () => twoTicksSeen.opened },
          { blocks: [text("Ticked.")] },
        ],
      },
      { cwdName: "expand-ui", viewport: { width: 1280, height: 700 } },
    );
    const { baton } = app;
    await baton.newSession();
    await baton.send("tick please");
    const card = baton.subagentCard("general-purpose", "Ticking task");
    await pw(baton.progressOf(card)).toContainText("Tick one", { timeout: 30_000 });
    await baton.expand(card);
    expandedAtTickOne.open();
    await pw(baton.progressOf(card)).toContainText("Tick two", { timeout: 30_000 });
    await pw(baton.expandButton(card)).toHaveAttribute("aria-expanded", "true");
    await pw(baton.toolCards("Bash", card)).toHaveCount(2, { timeout: 30_000 });
    twoTicksSeen.open();

    // The answer that follows the card pushes it out of view (the list follows the end while the
    // reader is there), so look at it again from the top once the turn is over.
    await pw(baton.transcript).toContainText("Paragraph 15", { timeout: 60_000 });
    await baton.conversation.evaluate((el) => (el.scrollTop = 0));
    await pw(card).toHaveAttribute("data-status", "completed", { timeout: 10_000 });
    await pw(baton.expandButton(card)).toHaveAttribute("aria-expanded", "true");

    // Scroll far enough that the card's row unmounts, then come back.
    await baton.conversation.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await pw(card).toHaveCount(0, { timeout: 10_000 });
    await baton.conversation.evaluate((el) => (el.scrollTop = 0));
    await pw(baton.expandButton(card)).toHaveAttribute("aria-expanded", "true", { timeout: 10_000 });
    await pw(baton.toolCards("Bash", card)).toHaveCount(3);
    expect(app.pageErrors).toEqual([]);
  });

  it("resumes a finished subagent with SendMessage: one card, both runs' steps, the newer answer, and the message names the agent", async () => {
    app = await startWebApp(sendMessageContinue.script, { cwdName: "sendmessage-ui" });
    const { baton } = app;
    await baton.newSession();
    await baton.send("split the work in two");
    await pw(baton.transcript).toContainText("The helper finished the second part.", { timeout: 90_000 });
    await pw(baton.toolCards("SendMessage")).toContainText("→ Two-part helper: second part");
    const helper = baton.subagentCard("general-purpose", "Two-part helper");
    await pw(helper).toHaveCount(1);
    await pw(helper).toHaveAttribute("data-status", "completed");
    await pw(helper.locator(":scope > .summary-md")).toContainText("Second part done.");
    await baton.expand(helper);
    await pw(baton.toolCards("Bash", helper)).toHaveCount(2);
    expect(app.pageErrors).toEqual([]);
  });
});

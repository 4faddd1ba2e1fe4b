// Browser test of a subagent with more steps than a card keeps (MaxNestedBlocks): the card says
// how many earlier steps it does not show and loads them on request from the subagent's own
// transcript, then keeps following the live agent without repeating a step.
import fsp from "node:fs/promises";
import path from "node:path";
import type { Locator } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { MaxNestedBlocks } from "../../src/shared/transcript.js";
import type { ScriptTurn } from "../support/modelServer.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { gate } from "../support/gate.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiSteps: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const PerTurn = 10;
const Turns = 13;
const Early = PerTurn * Turns;

/** Turns of ten cheap Bash calls each: `echo step-1` … `echo step-130`. */
function manySteps(): ScriptTurn[] {
  return Array.from({ length: Turns }, (_, t) => ({
    blocks: Array.from({ length: PerTurn }, (_, i) => {
      const n = t * PerTurn + i + 1;
      return bashCall(`echo step-${n}`, `Step ${n}`);
    }),
  }));
}

describe.skipIf(!hasChromium)("a subagent with more steps than its card keeps", () => {
  it("shows the earlier steps on request and keeps adding live ones once each", async () => {
    expect(Early).toBeGreaterThan(MaxNestedBlocks);
    // The agent waits after step 130 until the test has loaded the earlier steps while it still runs.
    const earlierStepsLoaded = gate();
    app = await startWebApp(
      {
        main: [{ blocks: [agentCall("Many steps", "[[SUB-A]] run many commands")] }, { blocks: [text("The long job is done.")] }],
        "SUB-A": [
          ...manySteps(),
          { blocks: [bashCall("echo late-1", "Late one"), bashCall("echo late-2", "Late two")], waitFor: () => earlierStepsLoaded.opened },
          { blocks: [text("Ran every step.")] },
        ],
      },
      { cwdName: "many-steps-ui" },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("run a long job");
    const card = baton.subagentCard("general-purpose", "Many steps");
    await pw(card).toHaveAttribute("data-status", "running", { timeout: 30_000 });
    await baton.expand(card);
    const steps = baton.toolCards("Bash", card);
    await pw(steps.getByLabel("Command").filter({ hasText: `echo step-${Early}` })).toHaveCount(1, { timeout: 90_000 });

    // The card keeps the newest steps and says how many it leaves out.
    const show = card.getByRole("button", { name: /^Show \d+ earlier steps?$/ });
    await pw(show).toBeVisible({ timeout: 10_000 });
    const note = card.locator(".earlier-steps");
    await pw(note).toContainText("earlier steps not shown");
    expect(await steps.count()).toBeLessThanOrEqual(MaxNestedBlocks);
    await pw(steps.getByLabel("Command").filter({ hasText: /^\$?\s*echo step-1$/ })).toHaveCount(0);

    // Without the subagent's transcript file the load fails visibly, and says why in the Console.
    // The file is moved away once it holds step 130's result, which the CLI writes a little later.
    const sidechain = await findSidechain(app.env.projectsDir);
    await expect.poll(() => fsp.readFile(sidechain, "utf8"), { timeout: 30_000 }).toContain(`"content":"step-${Early}"`);
    await fsp.rename(sidechain, `${sidechain}.away`);
    await show.click();
    await pw(note).toContainText("could not be loaded (see Console)");
    await pw(baton.console).toContainText("Show earlier steps");
    expect(await steps.count()).toBeLessThanOrEqual(MaxNestedBlocks);
    await fsp.rename(`${sidechain}.away`, sidechain);

    // Keyboard: focus the button and press Enter.
    const retry = card.getByRole("button", { name: "Try again" });
    await retry.focus();
    await page.keyboard.press("Enter");
    await pw(steps).toHaveCount(Early, { timeout: 20_000 });
    await pw(note).toHaveCount(0);
    await pw(card).toHaveAttribute("data-status", "running");
    const early = await commands(card);
    expect(early).toEqual(Array.from({ length: Early }, (_, i) => `echo step-${i + 1}`));
    earlierStepsLoaded.open();

    // The agent goes on: new steps appear after the loaded ones, each once, and the card stays open.
    await pw(card).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
    await pw(steps).toHaveCount(Early + 2, { timeout: 20_000 });
    const all = await commands(card);
    expect(all).toEqual([...early, "echo late-1", "echo late-2"]);
    await pw(baton.expandButton(card)).toHaveAttribute("aria-expanded", "true");
    await pw(baton.transcript).toContainText("The long job is done.", { timeout: 30_000 });

    // A session with usage knows its context figure (the scripted model reports a few tokens).
    const ctx = page.getByRole("toolbar", { name: "Session controls" }).getByLabel("Context used");
    expect(await ctx.textContent()).toMatch(/^ctx (<1|\d+)%$/);

    // Reopened from history, the card again shows the newest steps first and the rest on request.
    await baton.sessionTabs.getByRole("button", { name: /^Close / }).click();
    await pw(card).toHaveCount(0, { timeout: 20_000 });
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    await baton.project.getByRole("button", { name: /^Open session / }).first().click();
    await pw(card).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
    await baton.expand(card);
    await pw(card.getByRole("button", { name: /^Show \d+ earlier steps?$/ })).toBeVisible({ timeout: 20_000 });
    expect(await steps.count()).toBeLessThanOrEqual(MaxNestedBlocks);
    await card.getByRole("button", { name: /^Show \d+ earlier steps?$/ }).click();
    await pw(steps).toHaveCount(Early + 2, { timeout: 20_000 });
    expect(await commands(card)).toEqual(all);
    expect(app.pageErrors.filter((e) => !e.includes("favicon"))).toEqual([]);
  });
});

/** The Bash commands of the card's steps, in order. */
async function commands(card: Locator): Promise<string[]> {
  const texts = await card.getByRole("article", { name: "Tool Bash", exact: true }).getByLabel("Command").allTextContents();
  return texts.map((t) => t.replace(/^\$\s*/, "").trim());
}

/** The one subagent transcript the CLI wrote under `projectsDir` (it may be writing its first rows). */
async function findSidechain(projectsDir: string): Promise<string> {
  const sidechains = async (): Promise<string[]> =>
    (await fsp.readdir(projectsDir, { recursive: true })).filter((e) => /subagents[/\\]agent-[^/\\]+\.jsonl$/.test(e));
  await expect.poll(sidechains, { timeout: 30_000 }).toHaveLength(1);
  return path.join(projectsDir, (await sidechains())[0]!);
}

// Browser test (issue 37): the plan's limits in the toolbar. A subscription session's responses
// carry the plan's headers; the real CLI reports them and the toolbar's meter shows the five-hour
// and weekly windows, moving with each report, in the warning colour from 80 % and the danger
// colour from 95 %; a response without the headers leaves the meter as it was. Nothing shows
// before the CLI reported anything (2.1.197 reports no utilization: the deciding window's state
// shows instead). Each agent card shows its share of the session's tokens.
import { afterEach, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { planHeaders, SubscriptionEnv } from "../support/planHeaders.js";
import { agentCall, text } from "../support/scenarios/types.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiPlanLimits: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const now = Math.floor(Date.now() / 1000);
const resets = { fiveHour: now + 2 * 3600 + 30 * 60, sevenDay: now + 3 * 86400 };

/** The colour a theme variable resolves to, as computed styles write it. */
function themeColour(page: Page, variable: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement("span");
    probe.style.backgroundColor = `var(${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return colour;
  }, variable);
}

function fillColour(meter: Locator): Promise<string> {
  return meter.locator(".plan-fill").evaluate((el) => getComputedStyle(el).backgroundColor);
}

describe.skipIf(!hasChromium)("the plan's limits, live: the toolbar's meter and the cards' shares", () => {
  it("a scripted report moves the meter, warns near the limit, and a report without windows keeps it", async () => {
    app = await startWebApp(
      {
        main: [
          { blocks: [text("First answer.")], headers: planHeaders(0.82, 0.41, resets) },
          { blocks: [text("Second answer.")], headers: planHeaders(0.97, 0.43, resets) },
          { blocks: [text("Third answer, no headers.")] },
        ],
      },
      { cwdName: "plan-limits-ui", extraEnv: { ...SubscriptionEnv } },
    );
    const { baton, page } = app;
    const toolbar = page.getByRole("toolbar", { name: "Session controls" });
    const usage = toolbar.getByRole("group", { name: "Plan usage" });
    await baton.newSession();
    // Nothing reported yet: no empty meter.
    await pw(usage).toHaveCount(0);

    await baton.send("one");
    await pw(baton.transcript).toContainText("First answer.", { timeout: 60_000 });
    if (app.env.cliVersion === "2.1.197") {
      // No utilization from this CLI: the deciding window's state and reset, and no meter to guess.
      const state = usage.getByLabel(/^Five-hour limit: within the limit, resets in 2 h (29|30) min \(.+\)$/);
      await pw(state).toHaveCount(1);
      expect((await state.textContent())?.replace(/\s+/g, " ")).toMatch(/^5h ok · in 2 h (29|30) min$/);
      await pw(usage.getByRole("meter")).toHaveCount(0);
      return;
    }
    const fiveHour = usage.getByRole("meter", { name: "Five-hour limit" });
    const weekly = usage.getByRole("meter", { name: "Weekly limit" });
    await pw(fiveHour).toHaveAttribute("aria-valuenow", "82");
    await pw(weekly).toHaveAttribute("aria-valuenow", "41");
    // Each window's reset, relative and absolute, in its words and tooltip; on screen near the limit only.
    expect(await fiveHour.getAttribute("aria-valuetext")).toMatch(/^Five-hour limit: 82 % used, resets in 2 h (29|30) min \(.+\)$/);
    expect(await weekly.getAttribute("aria-valuetext")).toMatch(/^Weekly limit: 41 % used, resets in (2 d 23 h|3 d) \(.+\)$/);
    expect(await usage.locator(".plan-window").first().getAttribute("title")).toBe(await fiveHour.getAttribute("aria-valuetext"));
    expect((await usage.textContent())?.replace(/\s+/g, " ")).toMatch(/^5h ?82% ?in 2 h (29|30) min ?7d ?41%$/);
    expect(await fillColour(fiveHour)).toBe(await themeColour(page, "--warn"));
    expect(await fillColour(weekly)).toBe(await themeColour(page, "--ok"));

    await baton.send("two");
    await pw(baton.transcript).toContainText("Second answer.", { timeout: 60_000 });
    await pw(fiveHour).toHaveAttribute("aria-valuenow", "97");
    await pw(weekly).toHaveAttribute("aria-valuenow", "43");
    expect(await fillColour(fiveHour)).toBe(await themeColour(page, "--err"));

    await baton.send("three");
    await pw(baton.transcript).toContainText("Third answer, no headers.", { timeout: 60_000 });
    await pw(baton.transcript).not.toContainText("working", { timeout: 60_000 });
    await pw(fiveHour).toHaveAttribute("aria-valuenow", "97");
    await pw(weekly).toHaveAttribute("aria-valuenow", "43");
    expect(app.pageErrors.filter((e) => !e.includes("favicon"))).toEqual([]);
  });

  it("an agent card shows its share of the session's tokens once the turn has ended", async () => {
    app = await startWebApp(
      {
        main: [
          { blocks: [agentCall("Look for notes", "[[SUB-A]] find the notes", { run_in_background: false })], headers: planHeaders(0.3, 0.1, resets) },
          { blocks: [text("The agent looked.")] },
        ],
        "SUB-A": [{ blocks: [{ type: "tool_use", name: "Glob", input: { pattern: "*.md" } }] }, { blocks: [text("No notes here.")] }],
      },
      { cwdName: "token-share-ui", extraEnv: { ...SubscriptionEnv } },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("look for notes");
    await pw(baton.transcript).toContainText("The agent looked.", { timeout: 60_000 });
    const card = baton.subagentCard("general-purpose", "Look for notes");
    // Every call of the scripted model reads 100 tokens: the agent made two of the process's four
    // (modelUsage counts them all: the main thread's two, the agent's two; 2.1.197's preflight request is not in it).
    expect(app.model.requests.map((r) => r.agent).filter((a) => a !== "side:preflight")).toEqual(["main", "SUB-A", "SUB-A", "main"]);
    const share = card.getByLabel(/^Share of the session's tokens/);
    await pw(share).toHaveText("50% of session");
    expect(await share.getAttribute("title")).toMatch(/^200 of the session's 400 tokens: input, cache read and cache write tokens of this agent's own model calls/);
    const usage = page.getByRole("toolbar", { name: "Session controls" }).getByRole("group", { name: "Plan usage" });
    if (app.env.cliVersion === "2.1.197") await pw(usage.getByLabel(/^Five-hour limit: within the limit/)).toHaveCount(1);
    else await pw(usage.getByRole("meter", { name: "Five-hour limit" })).toHaveAttribute("aria-valuenow", "30");
    expect(app.pageErrors.filter((e) => !e.includes("favicon"))).toEqual([]);
  });
});

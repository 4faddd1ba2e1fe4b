// Browser test of background agents on the real CLI 2.1.332, which runs Agent calls in the
// background by default: after the main turn has answered, the session still works (toolbar,
// tab, Hierarchy), Interrupt stays enabled and asks first, naming how many agents it will stop;
// confirmed, it stops them, and with no result to come (2.1.332 sends none) the session is idle.
import { afterEach, describe, expect, it } from "vitest";
import { testCliVersion } from "../support/cliEnv.js";
import { backgroundInterrupt } from "../support/scenarios/backgroundInterrupt.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import type { Locator } from "playwright-core";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiBackgroundAgents: /usr/bin/chromium not found, skipping browser tests");
// 2.1.197 runs these agents in the foreground: its turn would not end while they work.
const backgroundByDefault = testCliVersion() === "2.1.332";

const enabled = (l: Locator) => expect.poll(() => l.isEnabled({ timeout: 1000 }).catch(() => undefined), { timeout: 10_000, interval: 100 });
const focused = (l: Locator) => expect.poll(() => l.evaluate((el) => el === document.activeElement).catch(() => false), { timeout: 10_000, interval: 100 });

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium || !backgroundByDefault)("background agents in the browser (CLI 2.1.332)", () => {
  it("working while background agents outlive the turn; Interrupt names how many it stops, then the session is idle", async () => {
    app = await startWebApp(backgroundInterrupt.script, { cwdName: "background-ui" });
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("survey and audit in the background");

    const survey = baton.subagentCard("general-purpose", "Slow survey");
    const audit = baton.subagentCard("general-purpose", "Slow audit");
    // The main turn has answered; its agents are still at their Bash steps.
    await pw(baton.transcript).toContainText("Both agents are working in the background.", { timeout: 60_000 });
    await pw(baton.progressOf(survey)).toContainText("Survey step", { timeout: 30_000 });
    await pw(survey).toHaveAttribute("data-status", "running");
    await pw(audit).toHaveAttribute("data-status", "running");

    const status = page.getByLabel("Session status");
    await pw(status).toHaveText("working · 2 background agents", { timeout: 10_000 });
    const tabDot = baton.sessionTabs.getByRole("tab", { selected: true }).getByRole("img");
    await pw(tabDot).toHaveAttribute("aria-label", "working · 2 background agents");
    await baton.openLeftTab("Hierarchy");
    await pw(baton.hierarchy.locator(".node.conductor")).toHaveAttribute("data-status", "running");
    const interrupt = page.getByRole("button", { name: /Interrupt/ }).first();
    await enabled(interrupt).toBe(true);

    // The button asks first; Cancel leaves everything running.
    await interrupt.click();
    const confirm = page.getByRole("alertdialog", { name: "Confirm interrupt" });
    await pw(confirm).toContainText("Interrupt will stop 2 background agents.");
    await baton.screenshot("interrupt-confirm-background");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await pw(confirm).toHaveCount(0);
    await pw(survey).toHaveAttribute("data-status", "running");
    await pw(status).toHaveText("working · 2 background agents");

    // Esc twice: the first opens the confirm (its Interrupt button takes the focus), the second sends it.
    await page.locator("body").press("Escape");
    await pw(confirm).toBeVisible();
    await focused(confirm.getByRole("button", { name: "Interrupt", exact: true })).toBe(true);
    await page.keyboard.press("Escape");
    await pw(confirm).toHaveCount(0);

    await pw(survey).toHaveAttribute("data-status", "stopped", { timeout: 30_000 });
    await pw(audit).toHaveAttribute("data-status", "stopped", { timeout: 30_000 });
    await pw(status).toHaveText("idle", { timeout: 30_000 });
    // No result came, and nothing waits for one: the button is back, disabled because nothing runs.
    await pw(interrupt).toHaveText("■ Interrupt");
    await enabled(interrupt).toBe(false);
    await pw(tabDot).toHaveAttribute("aria-label", "idle");
    await pw(baton.hierarchy.locator(".node.conductor")).toHaveAttribute("data-status", "idle");

    // The session goes on: the next prompt runs a normal turn.
    await baton.send("are you still there?");
    await pw(baton.transcript).toContainText("Still here.", { timeout: 60_000 });
    await pw(status).toHaveText("idle", { timeout: 30_000 });
    expect(app.pageErrors).toEqual([]);
  });
});

// A fork's link after its tab is gone (issue 37), in Chromium through web mode with the real CLI:
// a fork is made from a prompt, its tab closed and the page reloaded; the Project panel still lists
// the fork right under the session it came from (the link Baton recorded in its audit trail, no
// open tab carrying it), and the fork opened from there shows that session above its conductor in
// the session graph. Runs on both CLIs (vitest.config.ts onBothClis).
import { describe, expect, it, afterEach } from "vitest";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { answerLastPrompt } from "../support/echoAnswer.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiForkRestart: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("a fork's link once its tab is closed", () => {
  it("after a reload, the Project panel lists the fork under its origin and the restored fork's graph draws the origin", async () => {
    app = await startWebApp({ main: [answerLastPrompt, answerLastPrompt, answerLastPrompt, answerLastPrompt] }, { cwdName: "fork-restart-ui", viewport: { width: 1400, height: 1000 }, withAudit: true });
    const { baton, page } = app;
    await baton.newSession();
    // Three turns: the second prompt's lines are on disk by the third's answer on both CLIs.
    for (const words of ["first", "second", "third"]) {
      await baton.send(words);
      await pw(baton.transcript).toContainText(`Answer to ${words}.`, { timeout: 60_000 });
    }
    const tabs = baton.sessionTabs.getByRole("tab");
    const originTitle = (await tabs.nth(0).locator(".dock-tab-title").textContent()) ?? "";
    const prompts = () => baton.transcript.getByLabel("Prompt", { exact: true });
    await prompts().filter({ hasText: "second" }).getByRole("group", { name: "Prompt actions" }).getByRole("button", { name: "Fork from here" }).click();
    await pw(tabs).toHaveCount(2, { timeout: 60_000 });
    await pw(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
    await pw(baton.transcript).toContainText("Answer to second.", { timeout: 60_000 });

    // The fork's tab closed: no tab carries its link any more; the list (read again as tabs change) does.
    await tabs.nth(1).getByRole("button", { name: /^Close / }).click();
    await pw(tabs).toHaveCount(1);
    await baton.openPanel("Project");
    const rows = baton.project.getByLabel("Sessions").getByRole("listitem");
    await pw(rows).toHaveCount(2, { timeout: 30_000 });
    const listedOrigin = (await rows.nth(0).locator(".title").textContent()) ?? "";
    expect(originTitle).toContain(listedOrigin);
    await pw(rows.nth(1).locator(".fork-of")).toHaveText(`forked from ${listedOrigin}`);

    await page.reload();
    await baton.waitReady();
    await pw(tabs).toHaveCount(1);
    await baton.openPanel("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    await pw(rows).toHaveCount(2, { timeout: 30_000 });
    await pw(rows.nth(0).locator(".title")).toHaveText(listedOrigin);
    await pw(rows.nth(0)).not.toContainText("forked from");
    await pw(rows.nth(1).locator(".fork-of")).toHaveText(`forked from ${listedOrigin}`);

    // Opened from the list, the fork is a restored tab whose graph shows where it came from.
    await rows.nth(1).getByRole("button", { name: /^Open session / }).click();
    await pw(tabs).toHaveCount(2, { timeout: 30_000 });
    await pw(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
    await pw(baton.transcript).toContainText("Answer to second.");
    await baton.openPanel("Graph");
    const graph = page.getByRole("region", { name: "Session graph" });
    const origin = graph.getByRole("button", { name: /^Forked from / });
    await pw(origin).toBeVisible({ timeout: 30_000 });
    expect(originTitle).toContain((await origin.locator(".gn-desc").textContent()) ?? "");
    await pw(graph.locator('.react-flow__edge[data-id="@fork-origin>@conductor"]')).toHaveCount(1);
    // A click brings the origin's tab forward.
    await origin.click();
    await pw(tabs.nth(0)).toHaveAttribute("aria-selected", "true");
    expect(app.pageErrors).toEqual([]);
  });
});

// "Fork from here" and "Edit and resend" in Chromium through web mode, with the real CLI (issue
// 37): the actions under a prompt open a new tab that holds the turns before that prompt and then
// the new answer, the original tab keeps its own turns, and the Project panel lists each fork
// under the session it came from; the session graph of a fork draws its origin above its conductor.
import { describe, expect, it, afterEach } from "vitest";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { answerLastPrompt } from "../support/echoAnswer.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiForkSession: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("fork from a prompt", () => {
  it("forks from a prompt and edits one before resending: new tabs with the earlier turns, the original kept, the origin in a fork's graph, the forks under it in the Project panel", async () => {
    app = await startWebApp({ main: [answerLastPrompt, answerLastPrompt, answerLastPrompt] }, { cwdName: "fork-ui", viewport: { width: 1400, height: 1000 } });
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("first");
    await pw(baton.transcript).toContainText("Answer to first.", { timeout: 60_000 });
    await baton.send("second");
    await pw(baton.transcript).toContainText("Answer to second.", { timeout: 60_000 });
    const tabs = baton.sessionTabs.getByRole("tab");
    await pw(tabs).toHaveCount(1);
    const prompts = () => baton.transcript.getByLabel("Prompt", { exact: true });

    // Fork from the first answer's end: the prompt "second" is sent again in a new tab.
    const second = prompts().filter({ hasText: "second" });
    const actions = second.getByRole("group", { name: "Prompt actions" });
    await pw(actions.getByRole("button", { name: "Fork from here" })).toBeVisible();
    await actions.getByRole("button", { name: "Fork from here" }).click();
    await pw(tabs).toHaveCount(2, { timeout: 60_000 });
    await pw(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
    await pw(baton.transcript).toContainText("Answer to second.", { timeout: 60_000 });
    expect(await prompts().locator(".user-text").allTextContents()).toEqual(["first", "second"]);

    // Edit and resend, from the keyboard: the dialog holds the prompt's words; the edited ones go to a new tab.
    await tabs.nth(0).click();
    await pw(tabs.nth(0)).toHaveAttribute("aria-selected", "true");
    const edit = prompts().filter({ hasText: "second" }).getByRole("button", { name: "Edit and resend" });
    await edit.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Edit and resend in a new tab" });
    const box = dialog.getByRole("textbox", { name: "Edited prompt" });
    expect(await box.inputValue()).toBe("second");
    await box.fill("second, edited");
    await dialog.getByRole("button", { name: "Fork and send" }).click();
    await pw(dialog).not.toBeVisible({ timeout: 60_000 });
    await pw(tabs).toHaveCount(3, { timeout: 60_000 });
    await pw(tabs.nth(2)).toHaveAttribute("aria-selected", "true");
    await pw(baton.transcript).toContainText("Answer to second, edited.", { timeout: 60_000 });
    expect(await prompts().locator(".user-text").allTextContents()).toEqual(["first", "second, edited"]);
    await pw(baton.transcript).not.toContainText("Answer to second.");

    // The original tab still holds its own two turns.
    await tabs.nth(0).click();
    await pw(baton.transcript).toContainText("Answer to second.");
    expect(await prompts().locator(".user-text").allTextContents()).toEqual(["first", "second"]);

    // The session graph of a fork: the session it came from above its conductor, an edge between; a click brings the origin forward.
    await tabs.nth(1).click();
    await baton.openPanel("Graph");
    const graph = page.getByRole("region", { name: "Session graph" });
    const originTitle0 = (await tabs.nth(0).textContent()) ?? "";
    const origin = graph.getByRole("button", { name: /^Forked from / });
    await pw(origin).toBeVisible({ timeout: 30_000 });
    const originName = (await origin.locator(".gn-desc").textContent()) ?? "";
    expect(originName).not.toBe("");
    expect(originTitle0).toContain(originName);
    await pw(graph.locator('.react-flow__edge[data-id="@fork-origin>@conductor"]')).toHaveCount(1);
    await origin.click();
    await pw(tabs.nth(0)).toHaveAttribute("aria-selected", "true");

    // The Project panel lists both forks under the session they came from, each naming it.
    await baton.openPanel("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    const rows = baton.project.getByLabel("Sessions").getByRole("listitem");
    await pw(rows).toHaveCount(3, { timeout: 30_000 });
    const forks = rows.filter({ hasText: "forked from" });
    await pw(forks).toHaveCount(2);
    // The origin comes first, its forks right under it, indented.
    const originTitle = (await rows.nth(0).locator(".title").textContent()) ?? "";
    await pw(rows.nth(0)).not.toContainText("forked from");
    await pw(rows.nth(1).locator(".fork-of")).toHaveText(`forked from ${originTitle}`);
    await pw(rows.nth(2).locator(".fork-of")).toHaveText(`forked from ${originTitle}`);
  });
});

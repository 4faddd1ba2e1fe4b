// Browser tests of the panels around the transcript: the main agent's permission on its tool
// card, Hierarchy → Transcript + Inspector, Console, Project search, composer keys, and what the
// window remembers across a reload (layout, draft, expanded cards).
import { afterEach, describe, expect, it } from "vitest";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiPanels: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("panels in the browser", () => {
  it("asks on the main agent's tool card, then Hierarchy selects a subagent into the Inspector", async () => {
    app = await startWebApp(
      {
        main: [
          { blocks: [bashCall("touch main-allow.txt", "Create main allow file")] },
          { blocks: [agentCall("Inspect me", "[[SUB-A]] echo")] },
          { blocks: [text("Finished everything.")] },
        ],
        "SUB-A": [{ blocks: [bashCall("echo inspected", "Echo for the inspector")] }, { blocks: [text("Inspected.")] }],
      },
      { cwdName: "panels-ui", withStore: true },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("do both");
    const mainBash = baton.toolCards("Bash").filter({ hasText: "touch main-allow.txt" });
    const prompt = baton.permissionOn(mainBash);
    await pw(prompt).toContainText("touch main-allow.txt", { timeout: 30_000 });
    await prompt.getByRole("button", { name: "Allow for this session" }).click();
    await pw(baton.transcript).toContainText("Finished everything.", { timeout: 60_000 });
    await pw(mainBash.locator(".perm-badge")).toContainText("allowed");

    // Hierarchy → Inspector.
    await pw(baton.agentInHierarchy("general-purpose", "Inspect me")).toBeVisible();
    await baton.selectInHierarchy("general-purpose", "Inspect me");
    await pw(baton.inspector).toContainText("Inspect me");
    await pw(baton.inspector).toContainText("[[SUB-A]] echo");
    await pw(baton.inspector).toContainText("completed");
    await pw(baton.subagentCard("general-purpose", "Inspect me")).toHaveAttribute("data-selected", "true");

    // Console: Baton's own log is there; raising the level to "error" hides info entries.
    await pw(baton.console).toContainText("session started");
    await baton.console.getByRole("combobox", { name: "Minimum level" }).selectOption("error");
    await pw(baton.console.getByRole("list", { name: "Log entries" })).not.toContainText("session started");

    // Project: full-text search over indexed history, with highlighted snippets.
    await app.store!.index(app.env.projectsDir);
    await baton.openLeftTab("Project");
    await baton.project.getByRole("searchbox", { name: "Search history" }).fill("inspected");
    const hits = baton.project.getByRole("list", { name: "Search results" });
    // Matching ignores case; which hit ranks first does not matter here.
    await pw(hits.locator("mark").filter({ hasText: /^inspected$/i })).toBeVisible({ timeout: 10_000 });
    await pw(hits).toContainText("echo inspected");
    await baton.screenshot("main-window");
    expect(app.pageErrors).toEqual([]);
    void page;
  });

  it("composer: Shift+Enter, ↑ recall, slash completion; layout, draft and expanded cards survive a reload", async () => {
    app = await startWebApp(
      {
        // Foreground (2.1.332 backgrounds an unset call): the second prompt must meet main turn 2, not a notification turn.
        main: [
          { blocks: [agentCall("Remember me", "[[SUB-A]] echo", { run_in_background: false })] },
          { blocks: [text("First answer.")] },
          { blocks: [text("Second answer.")] },
        ],
        "SUB-A": [{ blocks: [bashCall("echo remembered", "Echo once")] }, { blocks: [text("Done.")] }],
      },
      { cwdName: "composer-ui" },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.composer.fill("line one");
    await baton.composer.press("Shift+Enter");
    await baton.composer.pressSequentially("line two");
    expect(await baton.composer.inputValue()).toBe("line one\nline two");
    await baton.composer.press("Enter");
    await pw(baton.transcript).toContainText("First answer.", { timeout: 60_000 });
    expect(await baton.composer.inputValue()).toBe("");
    await baton.composer.press("ArrowUp");
    expect(await baton.composer.inputValue()).toBe("line one\nline two");
    await baton.composer.fill("");

    // Slash commands come from the CLI's init.
    await baton.composer.fill("/comp");
    const list = baton.transcript.getByRole("listbox", { name: "Slash commands" });
    await pw(list.getByRole("option").first()).toContainText("/compact", { timeout: 10_000 });
    await baton.composer.press("Tab");
    expect(await baton.composer.inputValue()).toBe("/compact ");

    // Expand the card, drag the Inspector wider with the keyboard, leave a draft; reload.
    const card = baton.subagentCard("general-purpose", "Remember me");
    await baton.expand(card);
    const splitter = page.getByRole("separator", { name: "Resize Inspector" });
    const before = Number(await splitter.getAttribute("aria-valuenow"));
    await splitter.focus();
    await splitter.press("ArrowLeft");
    await splitter.press("ArrowLeft");
    const after = Number(await splitter.getAttribute("aria-valuenow"));
    expect(after).toBe(before + 32);
    await baton.composer.fill("a draft I have not sent");
    await page.reload();
    await baton.waitReady();
    await pw(baton.expandButton(card)).toHaveAttribute("aria-expanded", "true", { timeout: 20_000 });
    await pw(baton.toolCards("Bash", card)).toHaveCount(1);
    expect(Number(await page.getByRole("separator", { name: "Resize Inspector" }).getAttribute("aria-valuenow"))).toBe(after);
    await pw(baton.composer).toHaveAttribute("aria-label", "Prompt");
    expect(await baton.composer.inputValue()).toBe("a draft I have not sent");

    // A pasted image goes to the model with the prompt.
    await baton.composer.evaluate((el) => {
      const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "dot.png", { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await pw(baton.transcript.getByRole("button", { name: "Remove image 1" })).toBeVisible();
    await baton.send("what is in this image?");
    await pw(baton.transcript).toContainText("Second answer.", { timeout: 60_000 });
    await pw(baton.transcript.getByRole("img", { name: "attached" })).toHaveCount(1);
    const sent = JSON.stringify(app.model.requests.find((r) => r.agent === "main" && r.turn === 2)?.body["messages"] ?? "");
    expect(sent).toContain('"media_type":"image/png"');
    expect(app.pageErrors).toEqual([]);
  });
});

// A search lands on the hit (issue 34), in Chromium through web mode, over real CLI history (the
// 2.1.332 deep-nesting recording with a word planted at the end of a 3 MB Bash output two agents
// deep): the result line says where the hit is; opening it opens the session with the Top and
// Middle agents' cards expanded and the word marked and in view; the find bar steps through the
// session's hits (CJK characters too). And each tab keeps its own selection: the Inspector shows
// the one of the session in front, or nothing.
import fs from "node:fs";
import path from "node:path";
import type { Locator } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { chromiumAvailable } from "../support/ui/browser.js";
import { describeProblems, textContrast } from "../support/ui/contrast.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { repoRoot } from "../support/ui/buildRenderer.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { CjkAnswer, Planted, plantHistory } from "../support/plantedHistory.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiSearchLands: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The planted deep-nesting history, and a second session with two agents (2.1.332's parallel-subagents). */
async function startApp(name: string): Promise<WebApp> {
  return startWebApp(
    {},
    {
      cwdName: name,
      withStore: true,
      viewport: { width: 1600, height: 1000 },
      prepare: async (env) => {
        plantHistory(env.projectsDir, "2.1.332");
        fs.cpSync(path.join(repoRoot, "fixtures/recordings-2.1.332/parallel-subagents/projects"), env.projectsDir, { recursive: true });
      },
    },
  );
}

/**
 * Whether the element is on screen: an IntersectionObserver's own answer, which clips it by every
 * scrolling box around it (the conversation, a long output's box) and the window.
 */
function onScreen(locator: Locator): Promise<boolean> {
  return locator
    .first()
    .evaluate(
      (el) =>
        new Promise<boolean>((resolve) => {
          const io = new IntersectionObserver((entries) => {
            io.disconnect();
            resolve(entries[0]!.isIntersecting && entries[0]!.intersectionRatio > 0.5);
          });
          io.observe(el);
        }),
      undefined,
      { timeout: 2000 },
    )
    .catch(() => false);
}

const inView = (locator: Locator, timeout = 15_000) => expect.poll(() => onScreen(locator), { timeout, interval: 100 }).toBe(true);

/** The block (its data-block-id) the current mark is in. */
async function currentBlock(conversation: Locator): Promise<string | null> {
  return conversation.locator("mark.find-hit.current").first().evaluate((el) => el.closest("[data-block-id]")?.getAttribute("data-block-id") ?? null);
}

describe.skipIf(!hasChromium)("search lands on the hit, in the browser", () => {
  it("opens a depth-2 tool output's session with its cards expanded and the word marked in view; next and previous walk the hits", async () => {
    app = await startApp("search-lands-ui");
    const { baton, page } = app;
    await app.store!.index(app.env.projectsDir);
    await baton.openLeftTab("Project");
    const box = baton.project.getByRole("searchbox", { name: "Search history" });
    const hits = baton.project.getByRole("list", { name: "Search results" }).getByRole("button");

    // The result line tells the hit apart without opening it: session, where, agent, project, date.
    await box.fill(Planted.deepOutput);
    await pw(hits).toHaveCount(1, { timeout: 15_000 });
    const hit = hits.first();
    await pw(hit.locator(".hit-title")).toHaveText("Quillwort migration plan");
    await pw(hit.locator(".hit-where")).toHaveText("Bash output · in agent “Middle agent” · deep-nesting");
    expect(await hit.locator("time").getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);
    await pw(hit.locator(".snippet mark")).toHaveText(Planted.deepOutput);

    await hit.click();
    const find = page.getByRole("search", { name: "Find in session" });
    await pw(find.getByRole("status", { name: "Matches" })).toHaveText("1 of 1", { timeout: 30_000 });
    const conversation = baton.conversation;
    const top = conversation.getByRole("article", { name: "Subagent general-purpose: Top agent", exact: true });
    const middle = top.getByRole("article", { name: "Subagent general-purpose: Middle agent", exact: true });
    await pw(baton.expandButton(top)).toHaveAttribute("aria-expanded", "true", { timeout: 30_000 });
    await pw(baton.expandButton(middle)).toHaveAttribute("aria-expanded", "true", { timeout: 30_000 });
    // The word, at the end of its 3 MB output, marked inside the Middle agent's Bash card, and on screen.
    const mark = middle.getByRole("article", { name: "Tool Bash" }).locator("mark.find-hit.current");
    await pw(mark).toHaveText(Planted.deepOutput, { timeout: 30_000 });
    await inView(mark);
    // The call is selected: the Inspector shows it, the word marked there too.
    await pw(baton.inspector.getByLabel("Tool call details").locator("mark.find-hit").first()).toHaveText(Planted.deepOutput);
    await baton.screenshot("search-lands");
    // The result lines, the find bar and the marks read well in both themes (WCAG AA), the pointer
    // off the clicked line (a hovered line's background is the theme's hover colour).
    const away = await baton.console.boundingBox();
    await page.mouse.move(away!.x + away!.width / 2, away!.y + away!.height - 4);
    for (const theme of ["light", "dark"] as const) {
      await page.getByRole("combobox", { name: "Theme" }).selectOption(theme);
      await pw(page.locator("html")).toHaveAttribute("data-theme", theme);
      const { problems } = await textContrast(page);
      const ours = problems.filter((p) => /find-|hit|snippet|mark/.test(p.where));
      expect(ours, `${theme}: ${describeProblems(ours)}`).toEqual([]);
    }

    // Find in the session: every hit of a word, first to last and round, each marked in view.
    const findBox = find.getByRole("searchbox", { name: "Find in session" });
    await findBox.fill("deepest");
    const status = find.getByRole("status", { name: "Matches" });
    // The word is in several agents' prompts, answers and calls (the earlier search's "1 of 1" is gone).
    const hitsOfQuery = async () => Number(/^1 of (\d+)$/.exec((await status.textContent()) ?? "")?.[1] ?? 0);
    await expect.poll(hitsOfQuery, { timeout: 30_000 }).toBeGreaterThan(2);
    const total = await hitsOfQuery();
    const current = conversation.locator("mark.find-hit.current");
    await inView(current);
    const first = await currentBlock(conversation);
    await findBox.press("Enter");
    await pw(status).toHaveText(`2 of ${total}`);
    await inView(current);
    const second = await currentBlock(conversation);
    expect(second).not.toBe(first);
    await findBox.press("Shift+Enter");
    await pw(status).toHaveText(`1 of ${total}`);
    await inView(current);
    expect(await currentBlock(conversation)).toBe(first);
    // Previous from the first is the last; F3 from anywhere goes on.
    await find.getByRole("button", { name: "Previous match" }).click();
    await pw(status).toHaveText(`${total} of ${total}`);
    await inView(current);
    await page.keyboard.press("F3");
    await pw(status).toHaveText(`1 of ${total}`);

    // Characters inside a CJK run: the run's answer, the two characters marked alone.
    await findBox.fill("分析");
    await pw(status).toHaveText("1 of 1", { timeout: 30_000 });
    await pw(current).toHaveText("分析");
    await inView(current);
    expect(await current.evaluate((el) => el.closest("[data-block-id]")?.textContent ?? "")).toContain(CjkAnswer.slice(0, 8));

    // Closed, nothing is marked any more.
    await findBox.press("Escape");
    await pw(find).toHaveCount(0);
    await pw(conversation.locator("mark.find-hit")).toHaveCount(0);

    // Ctrl+F opens it again, the box focused; a word in folded thinking opens the thinking.
    await conversation.click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("Control+F");
    await pw(findBox).toBeFocused();
    await page.keyboard.type(Planted.thinking);
    await pw(status).toHaveText("1 of 1", { timeout: 30_000 });
    const thinking = conversation.locator("details.thinking").filter({ has: page.locator("mark.find-hit.current") });
    await pw(thinking).toHaveAttribute("open", "");
    await pw(current).toHaveText(Planted.thinking);
    await inView(current);
    expect(app.pageErrors).toEqual([]);
  });

  it("each tab keeps its own selection; the Inspector follows the tab in front, and shows nothing with none", async () => {
    app = await startApp("selection-per-tab-ui");
    const { baton, page } = app;
    await baton.openLeftTab("Project");
    const sessions = baton.project.getByLabel("Sessions");
    const inspector = baton.inspector;
    const details = inspector.getByLabel("Subagent details");
    const tab = (title: string) => page.getByRole("tab").filter({ hasText: title });

    // Session A: the Top agent selected (clicking it also keeps the tab open, out of preview).
    await sessions.getByRole("button", { name: /^Open session Quillwort migration plan/ }).click();
    await pw(tab("Quillwort migration plan")).toHaveCount(1, { timeout: 30_000 });
    await baton.conversation.getByRole("button", { name: "Inspect Top agent" }).click();
    await pw(details).toContainText("Top agent");

    // Session B: the Alpha task selected.
    await baton.openLeftTab("Project");
    await sessions.getByRole("button", { name: /^Open session run two things in parallel/ }).click();
    await pw(tab("run two things in parallel")).toHaveCount(1, { timeout: 30_000 });
    await pw(inspector.getByText("Select a subagent or tool call.")).toBeVisible();
    await baton.conversation.getByRole("button", { name: "Inspect Alpha task" }).click();
    await pw(details).toContainText("Alpha task");

    // Switching tabs: the Inspector follows, each tab's card stays marked selected.
    await tab("Quillwort migration plan").click();
    await pw(details).toContainText("Top agent");
    await pw(details).not.toContainText("Alpha task");
    await pw(baton.conversation.getByRole("article", { name: "Subagent general-purpose: Top agent", exact: true })).toHaveAttribute("data-selected", "true");
    await tab("run two things in parallel").click();
    await pw(details).toContainText("Alpha task");

    // Closing the tab in front: the Inspector shows the selection of the tab now in front; none left, nothing.
    await page.getByRole("button", { name: "Close run two things in parallel" }).click();
    await pw(tab("run two things in parallel")).toHaveCount(0);
    await pw(details).toContainText("Top agent");
    await page.getByRole("button", { name: "Close Quillwort migration plan" }).click();
    await pw(tab("Quillwort migration plan")).toHaveCount(0);
    await pw(inspector.getByText("Select a subagent or tool call.")).toBeVisible();
    await pw(details).toHaveCount(0);
    expect(app.pageErrors).toEqual([]);
  });
});

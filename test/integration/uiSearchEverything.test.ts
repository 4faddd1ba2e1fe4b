// The Project panel's search in Chromium finds every word grep would (issue 33), over a real CLI
// history (the 2.1.332 deep-nesting recording) with words planted where search used to miss them:
// the end of a 3 MB Bash output in the depth-2 sidechain, a custom title, thinking, inside CJK runs.
// Its main file is copied into a second project folder: two sessions of one id, whose hits never
// mix, and each hit opens its own session. (Landing on the match inside it is issue 34's.)
import { afterEach, describe, expect, it } from "vitest";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { Planted, plantHistory, type PlantedHistory } from "../support/plantedHistory.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiSearchEverything: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("search finds everything, in the browser", () => {
  it("finds each planted word with its context, and opens each of two same-named sessions as its own", async () => {
    let planted: PlantedHistory | undefined;
    app = await startWebApp({}, { cwdName: "search-everything-ui", withStore: true, prepare: async (env) => void (planted = plantHistory(env.projectsDir, "2.1.332")) });
    const h = planted!;
    const { baton } = app;
    const report = await app.store!.index(app.env.projectsDir);
    expect(report.sessionsTotal).toBe(2);
    await baton.openLeftTab("Project");
    const box = baton.project.getByRole("searchbox", { name: "Search history" });
    const hits = baton.project.getByRole("list", { name: "Search results" });
    const hitButtons = hits.getByRole("button");

    // The end of a 3 MB output two agents deep: one hit, named by its session and agent, in its context.
    await box.fill(Planted.deepOutput);
    await pw(hits.locator("mark").filter({ hasText: Planted.deepOutput })).toBeVisible({ timeout: 15_000 });
    await pw(hitButtons).toHaveCount(1);
    await pw(hitButtons.first()).toContainText("Quillwort migration plan");
    await pw(hitButtons.first()).toContainText("Middle agent");
    await pw(hitButtons.first()).toContainText(`test_checkout_flow: ${Planted.deepOutput} mismatch`);

    // A custom title, thinking, and characters inside CJK runs (one character, too).
    for (const [query, marked] of [
      [Planted.title, "Quillwort"],
      [Planted.thinking, Planted.thinking],
      ["分析", "分析"],
      ["這個專案", "這個專案"],
      ["安装", "安装"],
      ["ベース", "ベース"],
      ["분석", "분석"],
      ["構", "構"],
    ] as const) {
      await box.fill(query);
      await pw(hits.locator("mark").filter({ hasText: new RegExp(`^${marked}$`, "i") }).first()).toBeVisible({ timeout: 15_000 });
    }

    // One id in two project folders: two hits, each its own session's, each opening its own tab.
    await box.fill(Planted.shared);
    await pw(hitButtons).toHaveCount(2, { timeout: 15_000 });
    const original = hitButtons.filter({ hasText: "Quillwort migration plan" });
    const copy = hitButtons.filter({ hasText: "Bramblecopy rehearsal" });
    await pw(original).toHaveCount(1);
    await pw(copy).toHaveCount(1);
    await original.click();
    const selectedTab = baton.sessionTabs.getByRole("tab", { selected: true });
    await pw(selectedTab).toContainText("Quillwort migration plan", { timeout: 20_000 });
    // Kept (a double-click on its tab): the next past session opened would take its preview tab.
    await selectedTab.dblclick();
    await copy.click();
    await pw(selectedTab).toContainText("Bramblecopy rehearsal", { timeout: 20_000 });
    await pw(baton.sessionTabs.getByRole("tab").filter({ hasText: /Quillwort migration plan|Bramblecopy rehearsal/ })).toHaveCount(2);
    const tabs = app.manager.listTabs();
    expect(tabs.map((t) => t.cwd).sort()).toEqual(["/home/user/code/deep-nesting", "/home/user/code/deep-nesting-copy"]);
    // Opened again from the other hit: the tab it has, not a third.
    await original.click();
    await pw(selectedTab).toContainText("Quillwort migration plan");
    expect(app.manager.listTabs()).toHaveLength(2);
    expect(h.sessionId).toBe(tabs[0]!.sessionId);
    await baton.screenshot("search-everything");
    expect(app.pageErrors).toEqual([]);
  });
});

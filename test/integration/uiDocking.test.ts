// Browser tests of the dock (issue 34): panels dragged to another dock stay there across a reload,
// Reset layout, maximise and restore by double-click, close and reopen from the View menu, a broken
// saved layout; a 760 px window (nothing overlaps, a readable transcript, side docks as icons, a
// one-line toolbar with its overflow); session tabs (the preview tab, the tab list, close others
// and to the right).
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { writePromptSession } from "../support/historyFiles.js";
import { text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiDocking: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  if (b === null) throw new Error(`${String(locator)} is not on screen`);
  return b;
}

/** The titles of the tabs in the same dock group as the named panel's tab. */
async function groupOf(page: Page, panel: string): Promise<string[]> {
  const list = page.getByRole("tab", { name: panel, exact: true }).locator("xpath=ancestor::*[@role='tablist'][1]");
  return list.getByRole("tab").evaluateAll((tabs) => tabs.map((t) => t.getAttribute("aria-label") ?? ""));
}

function overlaps(a: Box, b: Box): boolean {
  // One pixel of shared edge is the line between two docks.
  return a.x + 1 < b.x + b.width && b.x + 1 < a.x + a.width && a.y + 1 < b.y + b.height && b.y + 1 < a.y + a.height;
}

/** Drags a tab onto another panel's content, near the given edge (or its centre). */
async function dragTab(page: Page, tab: string, onto: Locator, where: "centre" | "right" | "bottom"): Promise<void> {
  const target = await box(onto);
  const x = where === "right" ? target.x + target.width - 8 : target.x + target.width / 2;
  const y = where === "bottom" ? target.y + target.height - 8 : target.y + target.height / 2;
  await page.getByRole("tab", { name: tab, exact: true }).dragTo(onto, { targetPosition: { x: x - target.x, y: y - target.y } });
}

describe.skipIf(!hasChromium)("the dock in the browser", () => {
  it("keeps a dragged panel across a reload, resets, maximises and restores, closes and reopens from the View menu", async () => {
    app = await startWebApp({}, { cwdName: "dock-ui", viewport: { width: 1600, height: 1000 } });
    const { page, baton } = app;
    // With no session open, the Project panel is in front of its dock.
    await pw(baton.panelTab("Project")).toHaveAttribute("aria-selected", "true");
    await pw(baton.project).toBeVisible();
    expect(await groupOf(page, "Console")).toEqual(["Console", "Graph", "Worktrees", "Changes"]);
    expect(await groupOf(page, "Inspector")).toEqual(["Inspector", "Rules"]);

    // Console dragged into the right dock, beside the Inspector.
    await dragTab(page, "Console", baton.inspector, "centre");
    await expect.poll(() => groupOf(page, "Console")).toEqual(["Inspector", "Rules", "Console"]);
    await pw(baton.console).toBeVisible();
    const consoleBox = await box(baton.console);
    expect(consoleBox.x).toBeGreaterThan(1200);

    // Reloaded: where it was left.
    await page.reload();
    await baton.waitReady();
    await expect.poll(() => groupOf(page, "Console")).toEqual(["Inspector", "Rules", "Console"]);
    expect((await box(baton.console)).x).toBeCloseTo(consoleBox.x, 0);

    // Reset layout puts it back below the sessions.
    await baton.resetLayout();
    await expect.poll(() => groupOf(page, "Console")).toEqual(["Console", "Graph", "Worktrees", "Changes"]);
    await page.reload();
    await baton.waitReady();
    await expect.poll(() => groupOf(page, "Console")).toEqual(["Console", "Graph", "Worktrees", "Changes"]);

    // The keyboard walks a tab strip and goes into the panel.
    await baton.panelTab("Console").focus();
    await page.keyboard.press("ArrowRight");
    await pw(baton.panelTab("Graph")).toHaveAttribute("aria-selected", "true");
    await pw(baton.panelTab("Graph")).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await pw(baton.panelTab("Console")).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Enter");
    await pw(baton.console.getByRole("searchbox", { name: "Filter log" })).toBeFocused();

    // A double-click on a tab maximises its dock over the whole window; another restores it.
    await baton.panelTab("Console").click();
    const normal = await box(baton.console);
    await baton.panelTab("Console").dblclick();
    await expect.poll(async () => (await box(baton.console)).width).toBeGreaterThan(1500);
    await expect.poll(() => baton.project.isVisible()).toBe(false);
    await baton.panelTab("Console").dblclick();
    await expect.poll(async () => (await box(baton.console)).width).toBeCloseTo(normal.width, 0);
    await pw(baton.project).toBeVisible();

    // Closed from its tab, reopened from the View menu, in the dock it was closed from.
    await baton.panelTab("Rules").hover();
    await page.getByRole("button", { name: "Close Rules" }).click();
    await pw(baton.panelTab("Rules")).toHaveCount(0);
    await pw(page.getByRole("region", { name: "Rules" })).toHaveCount(0);
    await baton.openPanel("Rules");
    await pw(page.getByRole("region", { name: "Rules" })).toBeVisible();
    expect(await groupOf(page, "Rules")).toEqual(["Inspector", "Rules"]);
    expect(app.pageErrors).toEqual([]);
  });

  it("falls back to the default layout with a Console notice when the saved one cannot be used", async () => {
    app = await startWebApp({}, { cwdName: "dock-bad-layout" });
    const { page, baton } = app;
    for (const [saved, reason] of [
      ["{not json", "it is not JSON"],
      [JSON.stringify({ version: 0, dock: {} }), "another version of Baton"],
      [
        JSON.stringify({
          version: 1,
          dock: { grid: { root: { type: "branch", data: [{ type: "leaf", data: { id: "1", views: ["terminal"] }, size: 100 }], size: 100 }, width: 100, height: 100, orientation: "HORIZONTAL" }, panels: { terminal: { id: "terminal" } } },
        }),
        "a panel this Baton does not have",
      ],
    ] as const) {
      await page.evaluate((value) => localStorage.setItem("baton.dock.main", value), saved);
      await page.reload();
      await baton.waitReady();
      await pw(baton.console).toContainText("The saved window layout could not be used");
      await pw(baton.console).toContainText(reason);
      expect(await groupOf(page, "Inspector")).toEqual(["Inspector", "Rules"]);
      await pw(page.getByRole("region", { name: "Transcript" })).toBeVisible();
    }
    // The grid's layout of an older Baton: said once, and forgotten.
    await page.evaluate(() => {
      localStorage.removeItem("baton.dock.main");
      localStorage.setItem("baton.layout", JSON.stringify({ left: 300, right: 320, bottom: 180, leftTab: "Project", rightTab: "Inspector", bottomTab: "Console" }));
    });
    await page.reload();
    await baton.waitReady();
    await pw(baton.console).toContainText("The window is now a dock");
    expect(await page.evaluate(() => localStorage.getItem("baton.layout"))).toBeNull();
    expect(app.pageErrors).toEqual([]);
  });

  it("at 760 px overlaps nothing, keeps the transcript readable, shows side docks as icons and the toolbar on one line", async () => {
    app = await startWebApp({ main: [{ blocks: [text("Narrow answer.")] }] }, { cwdName: "dock-narrow", viewport: { width: 1024, height: 800 } });
    const { page, baton } = app;
    await pw(baton.panelTab("Project")).toHaveAttribute("aria-selected", "true");
    await baton.newSession();
    // A session started here brings the Hierarchy forward, where its agents show.
    await pw(baton.panelTab("Hierarchy")).toHaveAttribute("aria-selected", "true");
    await baton.send("hello");
    await pw(baton.transcript).toContainText("Narrow answer.", { timeout: 60_000 });
    const toolbar = page.getByRole("toolbar", { name: "Session controls" });
    const oneLine = async (): Promise<void> => {
      const items = await toolbar.locator(":scope > *").evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0).map((r) => r.top + r.height / 2));
      expect(Math.max(...items) - Math.min(...items)).toBeLessThan(4);
      expect((await box(toolbar)).height).toBeLessThan(40);
    };
    await oneLine();

    await page.setViewportSize({ width: 760, height: 800 });
    const left = page.getByRole("navigation", { name: "Left docks" });
    const right = page.getByRole("navigation", { name: "Right docks" });
    await pw(left.getByRole("button", { name: "Project" })).toBeVisible();
    await pw(right.getByRole("button", { name: "Inspector" })).toBeVisible();
    await oneLine();
    // What did not fit is one click away.
    await toolbar.getByRole("button", { name: "More toolbar items" }).click();
    await pw(page.getByRole("dialog", { name: "More toolbar items" }).getByLabel("Context used")).toBeVisible();
    await page.keyboard.press("Escape");

    const check = async (): Promise<void> => {
      const regions = [toolbar, left, right, baton.transcript, baton.console, baton.hierarchy, baton.project, baton.inspector, page.getByRole("region", { name: "Rules" })];
      const boxes: Box[] = [];
      for (const r of regions) if ((await r.count()) > 0 && (await r.first().isVisible())) boxes.push(await box(r.first()));
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i]!, boxes[j]!), `${i} and ${j} overlap`).toBe(false);
      for (const b of boxes) expect(b.x + b.width).toBeLessThanOrEqual(761);
      expect((await box(baton.transcript)).width).toBeGreaterThanOrEqual(400);
    };
    await check();
    // An icon shows its dock with that panel in front; again hides it.
    await right.getByRole("button", { name: "Inspector" }).click();
    await pw(baton.inspector).toBeVisible();
    await pw(right.getByRole("button", { name: "Inspector" })).toHaveAttribute("aria-pressed", "true");
    await check();
    await right.getByRole("button", { name: "Inspector" }).click();
    await expect.poll(() => baton.inspector.isVisible()).toBe(false);
    // The View menu reaches a hidden dock's panel too.
    await expect.poll(() => baton.panelTab("Project").isVisible()).toBe(false);
    await baton.openPanel("Project");
    await pw(baton.project).toBeVisible();
    await check();
    await baton.screenshot("dock-narrow");

    // Wide again: the docks come back, and the icons go.
    await page.setViewportSize({ width: 1440, height: 900 });
    await pw(left).toHaveCount(0);
    await pw(baton.inspector).toBeVisible();
    expect(app.pageErrors).toEqual([]);
  });
});

describe.skipIf(!hasChromium)("session tabs in the browser", () => {
  const titles = ["Plan the Quillwort migration", "Rehearse the Bramblecopy release", "Audit the Fernhollow cache", "Draft the Mossgate notes"];

  it("opens past sessions in one preview tab until one is acted in, lists tabs that do not fit, closes others and to the right", async () => {
    app = await startWebApp(
      {},
      { cwdName: "dock-tabs", viewport: { width: 1440, height: 900 }, prepare: async (env) => titles.forEach((t) => writePromptSession(env.projectsDir, randomUUID(), t)) },
    );
    const { page, baton } = app;
    const tabs = baton.sessionTabs.getByRole("tab");
    const open = async (title: string): Promise<void> => {
      await baton.project.getByRole("button", { name: `Open session ${title}` }).click();
      await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toContainText(title, { timeout: 20_000 });
    };
    const shownTitles = () => tabs.evaluateAll((list) => list.map((t) => t.getAttribute("aria-label") ?? ""));
    const preview = baton.sessionTabs.locator("[data-preview=true]");

    await open(titles[0]!);
    await pw(preview).toContainText(titles[0]!);
    // The next one takes the preview tab.
    await open(titles[1]!);
    await expect.poll(shownTitles).toEqual([titles[1]]);
    await pw(preview).toContainText(titles[1]!);
    expect(app.manager.listTabs()).toHaveLength(1);

    // Acted in (a double-click on its tab): it stays, and the next one opens beside it.
    await baton.sessionTabs.getByRole("tab", { name: titles[1] }).dblclick();
    await pw(preview).toHaveCount(0);
    await open(titles[2]!);
    await expect.poll(shownTitles).toEqual([titles[1], titles[2]]);
    // Typing in the preview session keeps it too.
    await baton.composer.click();
    await page.keyboard.type("a thought");
    await pw(preview).toHaveCount(0);
    await open(titles[3]!);
    await expect.poll(shownTitles).toEqual([titles[1], titles[2], titles[3]]);
    await open(titles[0]!);
    await expect.poll(shownTitles).toEqual([titles[1], titles[2], titles[0]]);

    // Tabs that do not fit are listed; choosing one brings it forward.
    await page.setViewportSize({ width: 1000, height: 900 });
    const sessionsGroup = page.locator(".dv-groupview").filter({ has: baton.sessionTabs });
    await sessionsGroup.getByRole("button", { name: /^Tabs that do not fit/ }).click();
    const cut = page.getByRole("menu", { name: /^Tabs that do not fit/ }).getByRole("menuitem").first();
    const cutTitle = (await cut.textContent()) ?? "";
    expect(titles).toContain(cutTitle);
    await cut.click();
    await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toContainText(cutTitle);
    await page.setViewportSize({ width: 1440, height: 900 });

    // Close to the right of the first tab, then close the others of the remaining ones.
    await baton.sessionTabs.getByRole("tab", { name: titles[2] }).click({ button: "right" });
    await page.getByRole("menuitem", { name: "Close to the right" }).click();
    await expect.poll(shownTitles).toEqual([titles[1], titles[2]]);
    await baton.sessionTabs.getByRole("tab", { name: titles[2] }).click({ button: "right" });
    await page.getByRole("menuitem", { name: "Close others" }).click();
    await expect.poll(shownTitles).toEqual([titles[2]]);
    await expect.poll(() => app!.manager.listTabs().length).toBe(1);
    // The last one closed: the sessions' place stays, and the Project panel comes to the front.
    await baton.sessionTabs.getByRole("button", { name: `Close ${titles[2]}` }).click();
    await pw(page.getByRole("region", { name: "Transcript" })).toContainText("No session open");
    await pw(baton.panelTab("Project")).toHaveAttribute("aria-selected", "true");
    expect(app.pageErrors).toEqual([]);
  });
});

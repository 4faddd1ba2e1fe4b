// The window by keyboard (issue 34) in Chromium: the command palette (Ctrl+K) opens a past session
// and a panel, Ctrl+1…9 bring panels forward, the Hierarchy is one Tab stop walked with the arrow
// keys (Left folds, Enter selects and the Inspector shows it), `?` lists the shortcuts, and Esc
// closes each overlay back to where the focus was.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { writeAgentSession } from "../support/ui/agentHistory.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiKeyboard: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("the window by keyboard", () => {
  it("palette opens a session and panels, panel keys bring panels forward, the Hierarchy walks by arrows, ? lists the shortcuts", async () => {
    const sessionId = randomUUID();
    app = await startWebApp(
      {},
      {
        cwdName: "keyboard-ui",
        viewport: { width: 1600, height: 1000 },
        prepare: async (env) =>
          void (await writeAgentSession(
            env,
            sessionId,
            [
              { type: "planner", description: "Plan the release", agents: [{ type: "writer", description: "Write the notes" }, { type: "checker", description: "Check the links" }] },
              { type: "janitor", description: "Tidy the repository" },
            ],
            "Ship the quarterly release",
          )),
      },
    );
    const { baton, page } = app;

    // Ctrl+K: the palette, its text field focused; typing filters past sessions; Enter opens one.
    await page.keyboard.press("Control+K");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    const search = palette.getByRole("combobox", { name: "Search commands, panels and sessions" });
    await pw(search).toBeFocused();
    await search.fill("quarterly");
    const options = palette.getByRole("option");
    await pw(options).toHaveCount(1);
    await pw(options.first()).toContainText("Ship the quarterly release");
    await pw(options.first()).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Enter");
    await pw(palette).toHaveCount(0);
    await pw(baton.subagentCard("planner", "Plan the release")).toHaveAttribute("data-status", "completed", { timeout: 30_000 });

    // Opening the planner's card reads its sidechain: its two agents join the tree under it.
    await baton.expand(baton.subagentCard("planner", "Plan the release"));
    const planner = baton.agentInHierarchy("planner", "Plan the release");
    const notes = baton.agentInHierarchy("writer", "Write the notes");
    const links = baton.agentInHierarchy("checker", "Check the links");

    // A panel's shortcut brings it forward: Ctrl+3 the Project panel, Ctrl+2 the Hierarchy.
    await page.keyboard.press("Control+3");
    await pw(baton.project).toBeVisible();
    await page.keyboard.press("Control+2");
    await pw(baton.hierarchy).toBeVisible();
    await pw(notes).toBeVisible({ timeout: 20_000 });
    // The panel comes with the focus: on the tree's one tabbable row, ready for the arrow keys.
    const tree = baton.hierarchy.getByRole("tree", { name: "Agents" });
    await pw(tree.locator('[role="treeitem"][tabindex="0"]')).toBeFocused();

    // One Tab stop: one row is tabbable, Tab reaches it, the next Tab leaves the tree.
    await pw(tree.locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1);
    await pw(tree.getByRole("treeitem")).toHaveCount(5);
    const conductor = tree.getByRole("treeitem", { name: /^Conductor/ });
    await conductor.focus();
    await page.keyboard.press("Tab");
    expect(await tree.evaluate((t) => t.contains(document.activeElement))).toBe(false);
    await page.keyboard.press("Shift+Tab");
    await pw(conductor).toBeFocused();

    // Down, Right enters, Down, Left climbs, Left folds, Right unfolds, Down, End, Home.
    await page.keyboard.press("ArrowDown");
    await pw(planner).toBeFocused();
    await pw(planner).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("ArrowRight");
    await pw(notes).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await pw(links).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await pw(planner).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await pw(planner).toHaveAttribute("aria-expanded", "false");
    await pw(notes).toHaveCount(0);
    await pw(planner).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await pw(baton.agentInHierarchy("janitor", "Tidy the repository")).toBeFocused();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowRight");
    await pw(notes).toBeVisible();
    await page.keyboard.press("End");
    await pw(baton.agentInHierarchy("janitor", "Tidy the repository")).toBeFocused();
    await page.keyboard.press("Home");
    await pw(conductor).toBeFocused();
    // Enter selects, as a click does: the Inspector shows the agent, its card is the selected one.
    await page.keyboard.press("w");
    await pw(notes).toBeFocused();
    await page.keyboard.press("Enter");
    await pw(notes).toHaveAttribute("aria-selected", "true");
    await pw(baton.inspector).toContainText("Write the notes");
    await pw(baton.subagentCard("writer", "Write the notes")).toHaveAttribute("data-selected", "true");
    // The Tab stop stays on the row the person left.
    await pw(tree.locator('[role="treeitem"][tabindex="0"]')).toHaveAttribute("aria-label", "Write the notes (writer)");

    // `?` outside a text field: every panel's shortcut and the tree's keys; Esc closes it, back on the row.
    await notes.focus();
    await page.keyboard.press("?");
    const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await pw(sheet).toBeVisible();
    const shortcuts = [
      ["Help", "Ctrl+K", "Command palette"],
      ["Panels", "Ctrl+1", "Show the session in front"],
      ["Panels", "Ctrl+2", "Show Hierarchy"],
      ["Panels", "Ctrl+7", "Show Graph"],
      ["Session", "Esc", "Interrupt the session"],
    ] as const;
    for (const [group, keys, does] of shortcuts) {
      const row = sheet.getByRole("region", { name: `${group} keys`, exact: true }).locator("dt").filter({ has: page.locator(`kbd:text-is("${keys}")`) });
      await pw(row).toHaveCount(1);
      expect(await row.evaluate((dt) => dt.nextElementSibling?.textContent)).toBe(does);
    }
    await pw(sheet.getByRole("region", { name: "Hierarchy keys" })).toContainText("Fold an agent");
    await baton.screenshot("keyboard-shortcuts");
    await page.keyboard.press("Escape");
    await pw(sheet).toHaveCount(0);
    await pw(notes).toBeFocused();
    // Typing `?` in a text field types it.
    await page.keyboard.press("Control+K");
    await page.keyboard.type("?");
    await expect.poll(() => search.inputValue()).toBe("?");
    await pw(sheet).toHaveCount(0);

    // The palette opens a panel: "graph" ranks Show Graph first; Enter shows it. Esc elsewhere gives the focus back.
    await search.fill("graph");
    await pw(options.first()).toContainText("Show Graph");
    await pw(options.first().locator("kbd")).toHaveText("Ctrl+7");
    await baton.screenshot("command-palette");
    await page.keyboard.press("Enter");
    await pw(page.getByRole("region", { name: "Session graph" })).toBeVisible();
    const graph = page.getByRole("region", { name: "Session graph" });
    await pw(graph.getByLabel("Agent writer: Write the notes", { exact: true })).toBeVisible({ timeout: 20_000 });
    // Maximised, the five agents fit readably: the minimap is left out until the graph no longer fits.
    await graph.getByRole("button", { name: "Maximise graph" }).click();
    await pw(graph.getByRole("img", { name: "Minimap of the session graph" })).toHaveCount(0);
    await graph.getByRole("button", { name: "Maximise graph" }).click();
    await notes.focus();
    await page.keyboard.press("Control+K");
    await pw(search).toBeFocused();
    await page.keyboard.press("Escape");
    await pw(palette).toHaveCount(0);
    await pw(notes).toBeFocused();

    // Commands other parts register are there too: "New session…" opens the New session dialog.
    await page.keyboard.press("Control+K");
    await search.fill("new sess");
    await pw(options.first()).toContainText("New session…");
    await page.keyboard.press("Enter");
    await pw(page.getByRole("dialog", { name: "New session" })).toBeVisible();
    expect(app.pageErrors.filter((e) => !e.includes("favicon"))).toEqual([]);
  });
});

// Page object for Baton's window: tests say what a person does ("start a session", "expand the
// card", "allow") and find things the way a person (or a screen reader) would: by role and name.
import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { repoRoot } from "./buildRenderer.js";

/**
 * Where the browser tests draw the window: an ignored folder, so `npm test` rewrites no tracked
 * file. `npm run screenshots` copies them into docs/screenshots, which the README shows.
 */
export const ScreenshotDir = path.join(repoRoot, "test-results", "screenshots");

export class BatonPage {
  constructor(
    readonly page: Page,
    private readonly defaultCwd: string,
  ) {}

  get transcript(): Locator {
    return this.page.getByRole("region", { name: "Transcript" });
  }
  get hierarchy(): Locator {
    return this.page.getByRole("region", { name: "Hierarchy" });
  }
  get project(): Locator {
    return this.page.getByRole("region", { name: "Project" });
  }
  get inspector(): Locator {
    return this.page.getByRole("region", { name: "Inspector" });
  }
  get console(): Locator {
    return this.page.getByRole("region", { name: "Console" });
  }
  /** The tabs of the dock group that holds the sessions: one per open session. */
  get sessionTabs(): Locator {
    return this.page.getByRole("tablist", { name: "Sessions" });
  }
  get composer(): Locator {
    return this.page.getByRole("textbox", { name: "Prompt" });
  }
  get conversation(): Locator {
    return this.transcript.getByLabel("Conversation");
  }

  async waitReady(): Promise<void> {
    await this.page.getByRole("toolbar", { name: "Session controls" }).waitFor();
  }

  /** New session in web mode: the toolbar's dialog asks for the working directory. */
  async newSession(cwd = this.defaultCwd): Promise<void> {
    await this.page.getByRole("button", { name: "New session", exact: true }).click();
    const dialog = this.page.getByRole("dialog", { name: "New session" });
    await dialog.getByRole("textbox", { name: "Working directory" }).fill(cwd);
    await dialog.getByRole("button", { name: "Start", exact: true }).click();
    // Modal until the session has started: the window behind it takes no input before. A start
    // that fails keeps it open with the reason, which the failure then names.
    await dialog.waitFor({ state: "hidden", timeout: 60_000 }).catch(async (error: unknown) => {
      const shown = await dialog.innerText({ timeout: 1_000 }).catch(() => "(unreadable)");
      throw new Error(`The New session dialog stayed open; it shows:\n${shown}`, { cause: error });
    });
    // Starting the CLI can take a while on a loaded machine.
    await this.sessionTabs.getByRole("tab", { selected: true }).waitFor({ timeout: 60_000 });
  }

  async send(text: string): Promise<void> {
    await this.composer.fill(text);
    await this.composer.press("Enter");
  }

  subagentCard(type: string, description: string, within: Locator = this.transcript): Locator {
    return within.getByRole("article", { name: `Subagent ${type}: ${description}`, exact: true });
  }

  /** An agent's row in the Hierarchy: named by its description, then its type, as a screen reader says it. */
  agentInHierarchy(type: string, description: string, within: Locator = this.hierarchy): Locator {
    return within.getByRole("treeitem", { name: `${description} (${type})`, exact: true });
  }

  /** Selects an agent by clicking its row in the Hierarchy (the row itself, not a nested agent's). */
  async selectInHierarchy(type: string, description: string): Promise<void> {
    await this.agentInHierarchy(type, description).locator(":scope > .node").click();
  }

  toolCards(name: string, within: Locator = this.transcript): Locator {
    return within.getByRole("article", { name: `Tool ${name}`, exact: true });
  }

  /** The expand button in the card's own header (not a nested card's). */
  expandButton(card: Locator): Locator {
    return card.locator(":scope > header").getByRole("button", { name: /Expand|Collapse/ });
  }

  async expand(card: Locator): Promise<void> {
    const button = this.expandButton(card);
    if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  }

  /** The card's own permission prompt(s), not those of nested cards. */
  permissionOn(card: Locator): Locator {
    return card.locator(":scope > section[aria-label='Permission request']");
  }

  progressOf(card: Locator): Locator {
    return card.locator(":scope > .progress");
  }

  async status(): Promise<string> {
    return (await this.page.getByLabel("Session status").textContent()) ?? "";
  }

  /**
   * Shows a dock panel as a person would: its tab when it has one in sight, else from the toolbar's
   * View menu (which reopens a closed panel and shows one a narrow window hid).
   */
  async openPanel(name: "Transcript" | "Hierarchy" | "Inspector" | "Project" | "Console" | "Graph" | "Worktrees" | "Rules" | "Changes"): Promise<void> {
    const tab = this.panelTab(name);
    if ((await tab.count()) === 1 && (await tab.isVisible())) {
      await tab.click();
      return;
    }
    await this.page.getByRole("toolbar", { name: "Session controls" }).getByRole("button", { name: "View", exact: true }).click();
    await this.page.getByRole("menu", { name: "View" }).getByRole("menuitem", { name: new RegExp(`^${name}\\b`) }).click();
  }

  /** View › Reset layout: every panel back where the window first had it. */
  async resetLayout(): Promise<void> {
    await this.page.getByRole("toolbar", { name: "Session controls" }).getByRole("button", { name: "View", exact: true }).click();
    await this.page.getByRole("menu", { name: "View" }).getByRole("menuitem", { name: "Reset layout" }).click();
  }

  /** Hierarchy and Project were the left dock's tabs before the dock; they are dock panels like the rest. */
  async openLeftTab(name: "Hierarchy" | "Project"): Promise<void> {
    await this.openPanel(name);
  }

  /** The tab of a dock panel, wherever it is docked. */
  panelTab(name: string): Locator {
    return this.page.getByRole("tab", { name, exact: true });
  }

  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(ScreenshotDir, { recursive: true });
    const file = path.join(ScreenshotDir, `${name}.png`);
    // Log fields carry this machine's paths (the claude binary, temp dirs): keep them out of the repo.
    const hide = (hidden: boolean) =>
      this.page.evaluate((h) => {
        for (const el of document.querySelectorAll<HTMLElement>(".log .fields")) el.style.visibility = h ? "hidden" : "";
      }, hidden);
    await hide(true);
    await this.page.screenshot({ path: file });
    await hide(false);
    return file;
  }
}

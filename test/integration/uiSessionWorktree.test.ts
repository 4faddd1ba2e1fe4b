// Browser test of "New session in a new worktree" (issue 37) through web mode: the dialog offers
// it only for a folder in a git repository, and a session started so gets a worktree of its own
// (named from the first prompt the dialog then takes, if one is given), its branch on the tab and the worktree's folder in the tab's tooltip. Two such sessions run side
// by side in two tabs; the Worktrees view lists both as running sessions' worktrees, and the
// Project panel lists a session that ran in one with its branch.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { git } from "../support/git.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiSessionWorktree: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("a session in its own worktree, in the browser", () => {
  it("offers a new worktree only in a repository, and shows each session's branch on its tab", async () => {
    let repo = "";
    let plain = "";
    app = await startWebApp(
      { main: [{ blocks: [text("Hello from the worktree.")] }] },
      {
        cwdName: "session-worktrees-ui",
        viewport: { width: 1440, height: 900 },
        prepare: async (env) => {
          repo = fs.realpathSync(env.cwd);
          plain = path.join(path.dirname(repo), "not-a-repository");
          await fsp.mkdir(plain);
          git(repo, "init", "-q", "-b", "main");
          await fsp.writeFile(path.join(repo, "README.md"), "first line\n");
          git(repo, "add", "README.md");
          git(repo, "commit", "-q", "-m", "Initial commit");
        },
      },
    );
    const { baton, page } = app;
    const dialog = page.getByRole("dialog", { name: "New session" });
    const folder = dialog.getByRole("textbox", { name: "Working directory" });
    const inWorktree = dialog.getByRole("checkbox", { name: /In a new worktree/ });

    const startInWorktree = async (firstPrompt?: string): Promise<string> => {
      await page.getByRole("button", { name: "New session", exact: true }).click();
      await folder.fill(plain);
      await pw(dialog).toContainText("(not a git repository)");
      await expect.poll(() => inWorktree.isDisabled()).toBe(true);
      await folder.fill(repo);
      await expect.poll(() => inWorktree.isEnabled(), { timeout: 20_000 }).toBe(true);
      await pw(dialog).toContainText("(its own branch and folder)");
      await inWorktree.check();
      if (firstPrompt !== undefined) await dialog.getByRole("textbox", { name: "First prompt" }).fill(firstPrompt);
      await dialog.getByRole("button", { name: "Start", exact: true }).click();
      await pw(dialog).toHaveCount(0, { timeout: 60_000 });
      const badge = baton.sessionTabs.getByRole("tab", { selected: true }).locator(".worktree-badge");
      await pw(badge).toBeVisible({ timeout: 30_000 });
      const branch = (await badge.textContent()) ?? "";
      // Named from the first prompt, else from a short id.
      expect(branch).toMatch(firstPrompt === undefined ? /^worktree-session-[0-9a-f]{6}$/ : /^worktree-add-a-dark-theme$/);
      const where = path.join(repo, ".claude", "worktrees", branch.slice("worktree-".length));
      expect(await badge.getAttribute("title")).toBe(`Branch ${branch} in the worktree ${where}`);
      return branch;
    };

    const first = await startInWorktree();
    const second = await startInWorktree("Add a dark theme!");
    expect(second).not.toBe(first);
    // Side by side: two tabs, each with its own branch.
    await expect.poll(() => baton.sessionTabs.locator(".worktree-badge").allTextContents()).toEqual([first, second]);
    expect(git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/worktree-*").trim().split("\n").sort()).toEqual([first, second].sort());

    // The Worktrees view lists both as sessions' worktrees that are running.
    await baton.openPanel("Worktrees");
    const view = page.getByRole("region", { name: "Worktrees" });
    for (const branch of [first, second]) {
      const row = view.locator(`li[data-path="${path.join(repo, ".claude", "worktrees", branch.slice("worktree-".length))}"]`);
      await pw(row).toContainText(branch, { timeout: 20_000 });
      await pw(row).toContainText("session running");
    }

    // Its first prompt was sent: once answered, the session is in the history, listed with its branch.
    await baton.sessionTabs.getByRole("tab").nth(1).click();
    await pw(baton.conversation).toContainText("Add a dark theme!");
    await pw(baton.conversation).toContainText("Hello from the worktree.", { timeout: 60_000 });
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    const listed = baton.project.getByRole("button", { name: "Open session Add a dark theme!" });
    await pw(listed.locator(".worktree-badge")).toHaveText(second, { timeout: 30_000 });
  }, 180_000);
});

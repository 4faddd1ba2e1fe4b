// Browser test of "New session in a new worktree" (issue 37) through web mode: the dialog offers
// it only for a folder in a git repository, and a session started so gets a worktree of its own
// (named from the first prompt the dialog then takes, if one is given), its branch on the tab and the worktree's folder in the tab's tooltip. Two such sessions run side
// by side in two tabs; the Worktrees view lists both as running sessions' worktrees, and the
// Project panel lists a session that ran in one with its branch. A prompt of a session in a
// worktree offers "Fork to a new worktree", and Edit and resend the same choice: the fork's tab
// shows its own branch; a session in the main checkout offers neither.
import fsp from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { git, initRepository } from "../support/git.js";

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
          repo = initRepository(env.cwd);
          plain = path.join(path.dirname(repo), "not-a-repository");
          await fsp.mkdir(plain);
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

  it("forks a worktree session's prompt into a new worktree, from the button or Edit and resend", async () => {
    let repo = "";
    // A turn is picked by its number in the conversation: each fork's first turn is the original's first.
    const answer = { blocks: (request: Readonly<Record<string, unknown>>) => [text(JSON.stringify(request).includes("Write the notes again") ? "Answered in the fork." : "Answered once.")] };
    app = await startWebApp(
      { main: [answer] },
      {
        cwdName: "fork-worktrees-ui",
        viewport: { width: 1440, height: 900 },
        prepare: async (env) => {
          repo = initRepository(env.cwd);
        },
      },
    );
    const { baton, page } = app;
    const tabs = baton.sessionTabs.getByRole("tab");
    const prompt = () => baton.transcript.getByLabel("Prompt", { exact: true }).filter({ hasText: "the notes" });

    // In the main checkout: the plain fork actions only.
    await baton.newSession();
    await baton.send("Plan the notes");
    await pw(baton.transcript).toContainText("Answered once.", { timeout: 60_000 });
    await pw(prompt().getByRole("button", { name: "Fork from here" })).toBeVisible();
    await pw(prompt().getByRole("button", { name: "Fork to a new worktree" })).toHaveCount(0);

    // In a worktree: "Fork to a new worktree" starts the fork in one of its own.
    await page.getByRole("button", { name: "New session", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "New session" });
    await dialog.getByRole("textbox", { name: "Working directory" }).fill(repo);
    const inWorktree = dialog.getByRole("checkbox", { name: /In a new worktree/ });
    await expect.poll(() => inWorktree.isEnabled(), { timeout: 20_000 }).toBe(true);
    await inWorktree.check();
    await dialog.getByRole("textbox", { name: "First prompt" }).fill("Write the notes");
    await dialog.getByRole("button", { name: "Start", exact: true }).click();
    await pw(baton.transcript).toContainText("Answered once.", { timeout: 60_000 });
    const badge = () => baton.sessionTabs.getByRole("tab", { selected: true }).locator(".worktree-badge");
    await pw(badge()).toHaveText("worktree-write-the-notes");
    const worktreeTab = await tabs.count();

    await prompt().getByRole("button", { name: "Fork to a new worktree" }).click();
    await pw(tabs).toHaveCount(worktreeTab + 1, { timeout: 60_000 });
    // Named from the prompt it sends, a new folder beside the original's.
    await pw(badge()).toHaveText("worktree-write-the-notes-2", { timeout: 30_000 });
    await pw(baton.transcript).toContainText("Answered once.", { timeout: 60_000 });

    // Edit and resend offers the same choice.
    await tabs.nth(worktreeTab - 1).click();
    await prompt().getByRole("button", { name: "Edit and resend" }).click();
    const edit = page.getByRole("dialog", { name: "Edit and resend in a new tab" });
    await edit.getByRole("textbox", { name: "Edited prompt" }).fill("Write the notes again");
    await edit.getByRole("checkbox", { name: /In a new worktree/ }).check();
    await edit.getByRole("button", { name: "Fork and send" }).click();
    await pw(edit).not.toBeVisible({ timeout: 60_000 });
    await pw(badge()).toHaveText("worktree-write-the-notes-again", { timeout: 30_000 });
    await pw(baton.transcript).toContainText("Answered in the fork.", { timeout: 60_000 });
    const branches = git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/worktree-*").trim().split("\n").sort();
    expect(branches).toEqual(["worktree-write-the-notes", "worktree-write-the-notes-2", "worktree-write-the-notes-again"]);
  }, 180_000);
});

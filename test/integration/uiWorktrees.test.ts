// Browser test of the Worktrees tab (issue 25) through web mode: a session whose cwd is a real git
// repository with a clean worktree and a dirty one (made by `git worktree add`). The tab lists
// both, shows the dirty one's files, refuses its removal with a dialog naming them, rescues it to
// a `baton/rescue/…` branch that holds the change, and removes the clean one after a confirmation.
import { execFileSync } from "node:child_process";
import fsp from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiWorktrees: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Baton Test", "-c", "user.email=test@example.invalid", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8" });
}

describe.skipIf(!hasChromium)("the Worktrees tab in the browser", () => {
  it("lists a clean and a dirty worktree, refuses the dirty one's removal naming its files, rescues it, and removes the clean one", async () => {
    let repo = "";
    let clean = "";
    let dirty = "";
    app = await startWebApp(
      { main: [{ blocks: [text("unused")] }] },
      {
        cwdName: "worktrees-ui",
        viewport: { width: 1440, height: 900 },
        prepare: async (env) => {
          repo = env.cwd;
          clean = path.join(path.dirname(repo), "wt-clean");
          dirty = path.join(path.dirname(repo), "wt-dirty");
          git(repo, "init", "-q");
          await fsp.writeFile(path.join(repo, "README.md"), "first line\n");
          git(repo, "add", "README.md");
          git(repo, "commit", "-q", "-m", "Initial commit");
          git(repo, "worktree", "add", "-q", "-b", "clean-work", clean);
          git(repo, "worktree", "add", "-q", "-b", "dirty-work", dirty);
          await fsp.writeFile(path.join(dirty, "README.md"), "first line\nchanged in the worktree\n");
          await fsp.writeFile(path.join(dirty, "notes.txt"), "work nobody committed\n");
        },
      },
    );
    const { baton, page } = app;
    await baton.newSession();
    await page.getByRole("tablist", { name: "Bottom panels" }).getByRole("tab", { name: "Worktrees" }).click();
    const view = page.getByRole("region", { name: "Worktrees" });
    const cleanRow = view.locator(`li[data-path="${clean}"]`);
    const dirtyRow = view.locator(`li[data-path="${dirty}"]`);
    await pw(cleanRow).toBeVisible({ timeout: 20_000 });
    await pw(dirtyRow).toBeVisible();
    await pw(cleanRow).toContainText("clean-work");
    await pw(cleanRow).toContainText("Initial commit");
    await pw(dirtyRow).toContainText("1 unstaged, 1 untracked");

    // Expanding the dirty one shows its files.
    await dirtyRow.getByRole("button", { name: /unstaged/ }).click();
    const files = dirtyRow.getByRole("list", { name: "Changed files" });
    await pw(files).toContainText("README.md");
    await pw(files).toContainText("notes.txt");

    // The diff against its base holds both changes.
    await dirtyRow.getByRole("button", { name: "Diff" }).click();
    await pw(dirtyRow.getByLabel("Diff")).toContainText("+work nobody committed");
    await pw(dirtyRow.getByLabel("Diff")).toContainText("+changed in the worktree");

    // Its removal is refused: the dialog names the uncommitted files.
    await dirtyRow.getByRole("button", { name: "Remove", exact: true }).click();
    await dirtyRow.getByRole("button", { name: "Confirm remove" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove worktree" });
    await pw(dialog).toBeVisible({ timeout: 20_000 });
    await pw(dialog.getByRole("list", { name: "Uncommitted files" })).toContainText("notes.txt");
    await pw(dialog.getByRole("list", { name: "Uncommitted files" })).toContainText("README.md");
    expect(git(repo, "worktree", "list", "--porcelain")).toContain(dirty);

    // Rescue and remove: the change is on a rescue branch, the worktree is gone.
    await dialog.getByRole("button", { name: "Rescue and remove" }).click();
    const branchName = dialog.locator(".wt-rescue-branch");
    await pw(branchName).toContainText("baton/rescue/", { timeout: 20_000 });
    const branch = ((await branchName.textContent()) ?? "").trim();
    expect(git(repo, "branch", "--list", branch)).toContain(branch);
    expect(git(repo, "show", `${branch}:notes.txt`)).toBe("work nobody committed\n");
    expect(git(repo, "show", `${branch}:README.md`)).toContain("changed in the worktree");
    expect(git(repo, "worktree", "list", "--porcelain")).not.toContain(dirty);
    await dialog.getByRole("button", { name: "Close" }).click();
    await pw(dialog).toHaveCount(0);
    await pw(dirtyRow).toHaveCount(0, { timeout: 20_000 });

    // Merging the clean one: its base already holds it.
    await cleanRow.getByRole("button", { name: "Merge" }).click();
    await pw(cleanRow.getByRole("status")).toContainText("main already holds it");

    // The clean one goes after one confirmation.
    await cleanRow.getByRole("button", { name: "Remove", exact: true }).click();
    await cleanRow.getByRole("button", { name: "Confirm remove" }).click();
    await pw(cleanRow).toHaveCount(0, { timeout: 20_000 });
    expect(git(repo, "worktree", "list", "--porcelain")).not.toContain(clean);
    expect(app.pageErrors).toEqual([]);
  }, 180_000);
});

// Browser test of the Worktrees tab (issue 25) through web mode: a session whose cwd is a real git
// repository with a clean worktree and a dirty one (made by `git worktree add`). The tab lists
// both, shows the dirty one's files, refuses its removal with a dialog naming them, rescues it to
// a `baton/rescue/…` branch that holds the change, and removes the clean one after a confirmation.
// Then agents that the real CLI ran in worktrees of their own: each card's worktree badge brings
// the tab forward with that agent's worktree picked out (or says none is left), the row's agent
// link selects the card (from another session's tab too, opening the agent's session from
// history once its tab is closed), and the worktree opens in a terminal and the file manager (programs on
// PATH that write down how they were started, since no desktop runs here).
import fsp from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { git } from "../support/git.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiWorktrees: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

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
          await fsp.writeFile(path.join(repo, ".gitignore"), ".env\n");
          git(repo, "add", "README.md", ".gitignore");
          git(repo, "commit", "-q", "-m", "Initial commit");
          git(repo, "worktree", "add", "-q", "-b", "clean-work", clean);
          // Ignored, so the worktree stays clean; its removal must say the file goes with it.
          await fsp.writeFile(path.join(clean, ".env"), "TOKEN=local\n");
          git(repo, "worktree", "add", "-q", "-b", "dirty-work", dirty);
          await fsp.writeFile(path.join(dirty, "plan.md"), "the plan\n");
          git(dirty, "add", "plan.md");
          git(dirty, "commit", "-q", "-m", "Plan only this worktree has");
          await fsp.writeFile(path.join(dirty, "README.md"), "first line\nchanged in the worktree\n");
          await fsp.writeFile(path.join(dirty, "notes.txt"), "work nobody committed\n");
        },
      },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.openPanel("Worktrees");
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
    // It is drawn as the Edit cards draw theirs: per file, its hunks with added and removed lines.
    const diff = dirtyRow.getByLabel("Worktree diff");
    await pw(diff.locator(".wt-diff-file")).toHaveCount(3);
    await pw(diff.locator(".dl.add", { hasText: "the plan" })).toHaveCount(1);
    await pw(diff.locator(".wt-diff-file", { hasText: "notes.txt" })).toContainText("added");
    await pw(diff.locator(".dl.add", { hasText: "work nobody committed" })).toHaveCount(1);
    await pw(diff.locator(".dl.add", { hasText: "changed in the worktree" })).toHaveCount(1);
    await pw(diff.locator(".dl.ctx", { hasText: "first line" })).toHaveCount(1);

    // Its removal is refused: the dialog names the uncommitted files.
    await dirtyRow.getByRole("button", { name: "Remove", exact: true }).click();
    await dirtyRow.getByRole("button", { name: "Confirm remove" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove worktree" });
    await pw(dialog).toBeVisible({ timeout: 20_000 });
    await pw(dialog.getByRole("list", { name: "Uncommitted files" })).toContainText("notes.txt");
    await pw(dialog.getByRole("list", { name: "Uncommitted files" })).toContainText("README.md");
    // And the commit no other branch holds.
    await pw(dialog.getByRole("list", { name: "Unpushed commits" })).toContainText("Plan only this worktree has");
    expect(git(repo, "worktree", "list", "--porcelain")).toContain(dirty);
    // Esc backs out (focus starts on Cancel) and removes nothing; asking again brings it back.
    await pw(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Escape");
    await pw(dialog).toHaveCount(0);
    expect(git(repo, "worktree", "list", "--porcelain")).toContain(dirty);
    await dirtyRow.getByRole("button", { name: "Remove", exact: true }).click();
    await dirtyRow.getByRole("button", { name: "Confirm remove" }).click();
    await pw(dialog).toBeVisible({ timeout: 20_000 });

    // Rescue and remove: the change is on a rescue branch, the worktree is gone.
    await dialog.getByRole("button", { name: "Rescue and remove" }).click();
    const branchName = dialog.locator(".wt-rescue-branch");
    await pw(branchName).toContainText("baton/rescue/", { timeout: 20_000 });
    const branch = ((await branchName.textContent()) ?? "").trim();
    expect(git(repo, "branch", "--list", branch)).toContain(branch);
    expect(git(repo, "show", `${branch}:notes.txt`)).toBe("work nobody committed\n");
    expect(git(repo, "show", `${branch}:README.md`)).toContain("changed in the worktree");
    expect(git(repo, "show", `${branch}:plan.md`)).toBe("the plan\n");
    expect(git(repo, "worktree", "list", "--porcelain")).not.toContain(dirty);
    await dialog.getByRole("button", { name: "Close" }).click();
    await pw(dialog).toHaveCount(0);
    await pw(dirtyRow).toHaveCount(0, { timeout: 20_000 });

    // Merging the clean one: its base already holds it.
    await cleanRow.getByRole("button", { name: "Merge" }).click();
    await pw(cleanRow.getByRole("status")).toContainText("main already holds it");

    // The clean one goes after one confirmation, which names the ignored file it takes along.
    await cleanRow.getByRole("button", { name: "Remove", exact: true }).click();
    await pw(cleanRow.getByLabel("Ignored files")).toContainText("1 ignored file(s) go with it");
    await pw(cleanRow.getByLabel("Ignored files")).toContainText(".env");
    await cleanRow.getByRole("button", { name: "Confirm remove" }).click();
    await pw(cleanRow).toHaveCount(0, { timeout: 20_000 });
    expect(git(repo, "worktree", "list", "--porcelain")).not.toContain(clean);
    expect(app.pageErrors).toEqual([]);
  }, 180_000);

  it("an agent's worktree made by the real CLI: the card's badge shows it, its row links back to the card, and it opens in a terminal and the file manager", async () => {
    let repo = "";
    let launches = "";
    const isolated = { isolation: "worktree", run_in_background: false };
    app = await startWebApp(
      {
        main: [
          { blocks: [agentCall("Write in a worktree", "[[WRITER]] write the notes", isolated)] },
          { blocks: [agentCall("Look in a worktree", "[[IDLE]] look around", isolated)] },
          { blocks: [text("Both agents are done.")] },
        ],
        WRITER: [{ blocks: [bashCall("echo agent work > notes.txt", "Write the notes")] }, { blocks: [text("Wrote notes.txt.")] }],
        IDLE: [{ blocks: [text("Nothing to change.")] }],
      },
      {
        cwdName: "agent-worktrees-ui",
        viewport: { width: 1440, height: 900 },
        prepare: async (env) => {
          repo = env.cwd;
          git(repo, "init", "-q");
          await fsp.writeFile(path.join(repo, "README.md"), "first line\n");
          git(repo, "add", "README.md");
          git(repo, "commit", "-q", "-m", "Initial commit");
          // A file manager and a terminal that write down their folder and arguments.
          const bin = path.join(env.home, "desktop-bin");
          launches = path.join(env.home, "launches.txt");
          await fsp.mkdir(bin);
          for (const name of ["xdg-open", "x-terminal-emulator"]) {
            await fsp.writeFile(path.join(bin, name), `#!/bin/sh\necho "${name} cwd=$(pwd) args=$*" >> '${launches}'\n`, { mode: 0o755 });
          }
          env.env["PATH"] = `${bin}:${env.env["PATH"] ?? ""}`;
          delete env.env["TERMINAL"];
        },
      },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("Do the work in worktrees");
    const writer = baton.subagentCard("general-purpose", "Write in a worktree");
    const idle = baton.subagentCard("general-purpose", "Look in a worktree");
    await pw(writer).toBeVisible({ timeout: 60_000 });
    const ask = baton.permissionOn(writer);
    await pw(ask).toBeVisible({ timeout: 60_000 });
    await ask.getByRole("button", { name: "Allow once", exact: true }).click();
    await pw(baton.conversation).toContainText("Both agents are done.", { timeout: 60_000 });
    await pw(writer).toHaveAttribute("data-status", "completed");
    const agentId = (await writer.getAttribute("data-task-id")) ?? "";
    const where = path.join(repo, ".claude", "worktrees", `agent-${agentId}`);
    expect(git(repo, "worktree", "list", "--porcelain")).toContain(where);

    // The Hierarchy marks both isolated agents.
    await pw(baton.hierarchy.getByRole("img", { name: "in its own worktree" })).toHaveCount(2);

    // The writer's badge: the Worktrees tab comes forward with its worktree picked out.
    await writer.getByRole("button", { name: "Show the worktree of Write in a worktree" }).click();
    await pw(baton.panelTab("Worktrees")).toHaveAttribute("aria-selected", "true");
    const view = page.getByRole("region", { name: "Worktrees" });
    const row = view.locator(`li[data-path="${where}"]`);
    await pw(row).toHaveAttribute("aria-current", "true", { timeout: 20_000 });
    await pw(row).toContainText(`worktree-agent-${agentId}`);
    await pw(row).toContainText("1 untracked");
    await pw(view.locator("li[aria-current]")).toHaveCount(1);

    // The row names the agent that made it; the link selects its card.
    await pw(writer).toHaveAttribute("data-selected", "false");
    await row.getByRole("button", { name: "general-purpose Write in a worktree" }).click();
    await pw(writer).toHaveAttribute("data-selected", "true");

    // The idle agent's worktree was removed by the CLI (it changed nothing): the tab says so.
    await baton.panelTab("Console").click();
    await idle.getByRole("button", { name: "Show the worktree of Look in a worktree" }).click();
    await pw(view.getByRole("status")).toContainText("No worktree of general-purpose Look in a worktree is left here", { timeout: 20_000 });
    await pw(view.locator("li[aria-current]")).toHaveCount(0);

    // Open it in a terminal, then in the file manager: each starts in the worktree, never through a shell line.
    await row.getByRole("button", { name: "Open terminal" }).click();
    await pw(row.getByRole("status")).toContainText("Opened with");
    await row.getByRole("button", { name: "Open folder" }).click();
    const lines = await vi.waitFor(
      async () => {
        const text = await fsp.readFile(launches, "utf8");
        if (text.trim().split("\n").length < 2) throw new Error(`only one program has run: ${text}`);
        return text;
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(lines).toContain(`x-terminal-emulator cwd=${where} args=`);
    expect(lines).toContain(`xdg-open cwd=${where} args=${where}`);

    // From another session's tab, the agent link brings the agent's own session forward, its card selected.
    await idle.getByRole("button", { name: "Inspect Look in a worktree" }).click();
    await pw(writer).toHaveAttribute("data-selected", "false");
    await baton.newSession();
    const sessionTabs = baton.sessionTabs.getByRole("tab");
    await pw(sessionTabs).toHaveCount(2);
    // The new tab comes forward once its session has started; until then the first one shows.
    await pw(sessionTabs.last()).toHaveAttribute("aria-selected", "true", { timeout: 60_000 });
    const otherRow = view.locator(`li[data-path="${where}"]`);
    await otherRow.getByRole("button", { name: "general-purpose Write in a worktree" }).click();
    await pw(sessionTabs.first()).toHaveAttribute("aria-selected", "true");
    await pw(writer).toHaveAttribute("data-selected", "true");

    // With that session's tab closed, the link opens it from history.
    await page.getByRole("button", { name: /^Close Do the work in worktrees/ }).click();
    await pw(sessionTabs).toHaveCount(1);
    await view.locator(`li[data-path="${where}"]`).getByRole("button", { name: "general-purpose Write in a worktree" }).click();
    await pw(sessionTabs).toHaveCount(2);
    await pw(sessionTabs.last()).toHaveAttribute("aria-selected", "true");
    await pw(sessionTabs.last()).toContainText("(history)");
    await pw(writer).toHaveAttribute("data-selected", "true", { timeout: 20_000 });

    // Its session has ended now: the worktree is orphaned, which the tab's label counts and the Console says once.
    await pw(view.locator(`li[data-path="${where}"]`)).toContainText("orphaned: session-ended", { timeout: 20_000 });
    await pw(baton.panelTab("Worktrees").locator(".tab-count")).toHaveText("1");
    await baton.panelTab("Console").click();
    await pw(baton.console).toContainText("1 orphaned worktree(s) in");
    expect(app.pageErrors).toEqual([]);
  }, 240_000);
});

// "Needs you" in the browser (issue 35): two sessions each waiting on the person (the main agent's
// Bash in one, a subagent's in the other), listed oldest first with a count in the toolbar; Ctrl+J
// brings the older one forward; answering it on its card takes it off the list. Desktop
// notifications while the window is not in front, naming the session and the agent, and none once
// the setting is off. "Continue in terminal" on a session tab and a session list entry copies the
// command that resumes it under `baton claude`. A subagent's question routed to the person, and a
// terminal session's request (through its hook), are listed and answered the same way.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HookVerdict } from "../../src/shared/terminalHooks.js";
import { plantHistory, type PlantedHistory } from "../support/plantedHistory.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { clickNotification, installNotificationDouble, setInFront, shownNotes } from "../support/ui/notificationDouble.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiNeedsYou: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** What the request's conversation says: each session's first prompt picks its script. */
function says(request: Readonly<Record<string, unknown>>, word: string): boolean {
  return JSON.stringify(request["messages"] ?? []).includes(word);
}

describe.skipIf(!hasChromium)("Needs you in the browser", () => {
  it("lists what waits across tabs oldest first, jumps to it, notifies, and drops what is answered", async () => {
    let releaseThird: () => void = () => {};
    const thirdMayAsk = new Promise<void>((resolve) => (releaseThird = resolve));
    app = await startWebApp(
      {
        main: [
          { blocks: (r) => (says(r, "alpha job") ? [bashCall("touch first.txt", "Create first file")] : [agentCall("Second helper", "[[SUB-B]] make the second file", { run_in_background: false })]) },
          // The first session asks again only once the test has seen its first answer counted.
          { blocks: (r) => (says(r, "alpha job") ? [bashCall("touch third.txt", "Create third file")] : [text("Helper done.")]), waitFor: (r) => (says(r, "alpha job") ? thirdMayAsk : Promise.resolve()) },
          { blocks: [text("All done.")] },
        ],
        "SUB-B": [{ blocks: [bashCall("touch second.txt", "Create second file")] }, { blocks: [text("Second file made.")] }],
      },
      { cwdName: "needs-ui" },
    );
    const { baton, page } = app;
    await page.addInitScript(installNotificationDouble);
    await page.reload();
    await baton.waitReady();
    const toolbar = page.getByRole("toolbar", { name: "Session controls" });
    const needsButton = toolbar.getByRole("button", { name: /^Needs you/ });
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: nothing waiting");

    // First session: the main agent asks while the window is in front, so no notification.
    await baton.newSession();
    await baton.send("alpha job");
    const firstPrompt = baton.permissionOn(baton.toolCards("Bash").filter({ hasText: "touch first.txt" }));
    await pw(firstPrompt).toContainText("touch first.txt", { timeout: 60_000 });
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: 1 waiting");
    expect(await shownNotes(app.page)).toEqual([]);

    // Second session, window in the background: its subagent's request notifies, naming both.
    await setInFront(app.page, false);
    await baton.newSession();
    await baton.send("beta job");
    const helper = baton.subagentCard("general-purpose", "Second helper");
    const secondPrompt = baton.permissionOn(helper);
    await pw(secondPrompt).toContainText("touch second.txt", { timeout: 60_000 });
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: 2 waiting");
    await pw(needsButton.locator(".needs-count")).toHaveText("2");
    await expect.poll(() => shownNotes(app!.page), { timeout: 10_000 }).toHaveLength(1);
    const [note] = await shownNotes(app.page);
    expect(note?.title).toBe("Claude is waiting for you");
    // A session is titled after its first prompt.
    expect(note?.body).toBe("beta job · general-purpose: Second helper: Bash touch second.txt");
    await setInFront(app.page, true);

    // The list: oldest first, each with its session, agent and what it asks.
    await needsButton.click();
    const list = page.getByRole("list", { name: "Waiting for you, oldest first" });
    const items = list.getByRole("listitem");
    await pw(items).toHaveCount(2);
    await pw(items.nth(0)).toHaveAttribute("aria-label", "alpha job: Main agent");
    await pw(items.nth(0)).toContainText("Bash touch first.txt");
    await pw(items.nth(1)).toHaveAttribute("aria-label", "beta job: general-purpose: Second helper");
    await pw(items.nth(1)).toContainText("Bash touch second.txt");
    await page.keyboard.press("Escape");
    await pw(list).toHaveCount(0);

    // The second session is in front; Ctrl+J brings the older request, in the first, forward.
    await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toContainText("beta job");
    await page.keyboard.press("Control+KeyJ");
    await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toContainText("alpha job");
    await pw(firstPrompt).toBeFocused();

    // A click on the notification brings its request forward; Ctrl+J goes on to the next (the first).
    await clickNotification(page, 0);
    await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toContainText("beta job");
    await pw(secondPrompt).toBeFocused();
    await page.keyboard.press("Control+KeyJ");
    await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toContainText("alpha job");
    await pw(firstPrompt).toBeFocused();

    // Notifications off (a remembered setting): a new request while in the background shows none.
    await needsButton.click();
    const setting = page.getByRole("checkbox", { name: /Desktop notifications/ });
    expect(await setting.isChecked()).toBe(true);
    await setting.uncheck();
    expect(await page.evaluate(() => localStorage.getItem("baton.notifications"))).toBe("off");
    await page.keyboard.press("Escape");

    // Answered on its card: it leaves the list and the count drops.
    await firstPrompt.getByRole("button", { name: "Allow once", exact: true }).click();
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: 1 waiting");
    await needsButton.click();
    await pw(items).toHaveCount(1);
    await pw(items.nth(0)).toContainText("Bash touch second.txt");
    await page.keyboard.press("Escape");

    await setInFront(app.page, false);
    releaseThird();
    await pw(baton.permissionOn(baton.toolCards("Bash").filter({ hasText: "touch third.txt" }))).toContainText("touch third.txt", { timeout: 60_000 });
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: 2 waiting");
    expect(await shownNotes(app.page)).toHaveLength(1);
    await setInFront(app.page, true);

    // Answered in place, from the list: the subagent's request.
    await needsButton.click();
    const second = items.filter({ hasText: "touch second.txt" });
    await second.getByText("Answer here").click();
    await second.getByRole("button", { name: "Allow once", exact: true }).click();
    await pw(items).toHaveCount(1);
    // The subagent ran the command it was allowed.
    await expect.poll(() => fs.existsSync(path.join(app!.env.cwd, "second.txt")), { timeout: 60_000 }).toBe(true);
    await pw(items.nth(0)).toContainText("Bash touch third.txt");
    // The keyboard stayed in the list: Esc closes it, and does not interrupt the session in front.
    await pw(page.getByRole("dialog", { name: /^Needs you/ }).locator(".needs-list")).toBeFocused();
    await page.keyboard.press("Escape");
    await pw(list).toHaveCount(0);

    // A window so narrow that all but the first toolbar items move under "…" keeps the count in sight while something waits.
    await page.setViewportSize({ width: 200, height: 800 });
    await pw(toolbar.getByRole("button", { name: "More toolbar items" })).toBeVisible();
    await pw(needsButton).toBeVisible();
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: 1 waiting");

    // The setting is remembered.
    await page.reload();
    await baton.waitReady();
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: 1 waiting", { timeout: 30_000 });
    await needsButton.click();
    expect(await page.getByRole("checkbox", { name: /Desktop notifications/ }).isChecked()).toBe(false);
    expect(app.pageErrors).toEqual([]);
  });

  it("lists a subagent's question routed to the person, and takes the answer given in the list", async () => {
    app = await startWebApp(
      {
        main: [{ blocks: [agentCall("Pick a database", "[[CODER]] set up storage", { subagent_type: "coder", run_in_background: false })] }, { blocks: [text("The coder is done.")] }],
        CODER: [
          { blocks: [{ type: "tool_use", id: "toolu_coder_ask", name: "mcp__baton__ask_conductor", input: { question: "Which database: Postgres or SQLite?" } }] },
          { blocks: [text("Going with the answer.")] },
        ],
      },
      {
        cwdName: "needs-escalation",
        withPolicy: true,
        // Orchestration mode on, before the app starts: the conductor waits on its foreground coder, so the question is the person's.
        prepare: async (env) => {
          const dir = path.join(env.home, ".config", "baton");
          fs.mkdirSync(dir, { recursive: true });
          fs.writeFileSync(path.join(dir, "settings.json"), JSON.stringify({ orchestration: true }));
        },
      },
    );
    const { baton, page, model } = app;
    await baton.newSession();
    await baton.send("set up storage");
    const needsButton = page.getByRole("toolbar", { name: "Session controls" }).getByRole("button", { name: /^Needs you/ });
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: 1 waiting", { timeout: 60_000 });
    await needsButton.click();
    const item = page.getByRole("list", { name: "Waiting for you, oldest first" }).getByRole("listitem");
    await pw(item).toHaveCount(1);
    await pw(item).toHaveAttribute("aria-label", "set up storage: coder: Pick a database");
    await pw(item).toContainText("Question: Which database: Postgres or SQLite?");
    await item.getByText("Answer here").click();
    await item.getByRole("textbox", { name: "Answer" }).fill("SQLite, in data/app.db");
    await item.getByRole("button", { name: "Send answer", exact: true }).click();

    // The coder reads it as the tool's result; the list and the count are empty again.
    const next = await model.waitForRequest((r) => r.agent === "CODER" && r.turn === 1, 60_000);
    expect(JSON.stringify(next.body["messages"])).toContain("SQLite, in data/app.db");
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: nothing waiting");
    await pw(page.getByRole("dialog", { name: /^Needs you/ })).toContainText("Nothing waits for you.");
    expect(app.pageErrors).toEqual([]);
  });

  it("two tabs and a terminal session each waiting: three in order; one answered on its card leaves", async () => {
    let planted: PlantedHistory | undefined;
    app = await startWebApp(
      {
        main: [
          { blocks: (r) => [says(r, "alpha job") ? bashCall("touch alpha.txt", "Create alpha file") : bashCall("touch beta.txt", "Create beta file")] },
          { blocks: [text("Done.")] },
        ],
      },
      { cwdName: "needs-three", prepare: async (env) => void (planted = plantHistory(env.projectsDir, "2.1.332")) },
    );
    const { baton, page, manager } = app;
    const needsButton = page.getByRole("toolbar", { name: "Session controls" }).getByRole("button", { name: /^Needs you/ });
    await baton.newSession();
    await baton.send("alpha job");
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: 1 waiting", { timeout: 60_000 });
    await baton.newSession();
    await baton.send("beta job");
    const betaPrompt = baton.permissionOn(baton.toolCards("Bash").filter({ hasText: "touch beta.txt" }));
    await pw(betaPrompt).toContainText("touch beta.txt", { timeout: 60_000 });
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: 2 waiting");

    // A session in a terminal asks through its hook (as Baton's socket calls it): its subagent's Bash.
    const history = planted!;
    // As the CLI asks: a PreToolUse no rule decides (Baton defers to the CLI), then the
    // PermissionRequest it sends before its dialog.
    const call = {
      session_id: history.sessionId,
      transcript_path: history.mainFile,
      cwd: "/home/user/code/deep-nesting",
      agent_id: "a584e2604c76bc609",
      agent_type: "general-purpose",
      tool_name: "Bash",
      tool_input: { command: "touch made-in-terminal", description: "Make a file" },
    };
    expect(await manager.handleTerminalHook({ ...call, hook_event_name: "PreToolUse", tool_use_id: "toolu_terminal_needs" })).toEqual({ decision: "defer" });
    const verdict: Promise<HookVerdict> = manager.handleTerminalHook({ ...call, hook_event_name: "PermissionRequest" });
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: 3 waiting", { timeout: 60_000 });
    await needsButton.click();
    const items = page.getByRole("list", { name: "Waiting for you, oldest first" }).getByRole("listitem");
    await pw(items).toHaveCount(3);
    await pw(items.nth(0)).toContainText("Bash touch alpha.txt");
    await pw(items.nth(1)).toContainText("Bash touch beta.txt");
    await pw(items.nth(2)).toHaveAttribute("aria-label", "Quillwort migration plan: general-purpose: Top agent");
    await pw(items.nth(2)).toContainText("Bash touch made-in-terminal");
    await page.keyboard.press("Escape");

    // The beta session's request, answered on its card, leaves the list.
    await baton.sessionTabs.getByRole("tab").filter({ hasText: "beta job" }).click();
    await betaPrompt.getByRole("button", { name: "Allow once", exact: true }).click();
    await pw(needsButton).toHaveAttribute("aria-label", "Needs you: 2 waiting");
    await needsButton.click();
    await pw(items).toHaveCount(2);
    await pw(items.nth(0)).toContainText("Bash touch alpha.txt");
    await pw(items.nth(1)).toContainText("Bash touch made-in-terminal");

    // The terminal's, answered from the list: the hook hears "allow".
    await items.nth(1).getByText("Answer here").click();
    await items.nth(1).getByRole("button", { name: "Allow once", exact: true }).click();
    expect(await verdict).toMatchObject({ decision: "allow" });
    await pw(items).toHaveCount(1);
    expect(app.pageErrors).toEqual([]);
  }, 180_000);

  it("asks the browser for notifications only when the person turns them on", async () => {
    app = await startWebApp({ main: [{ blocks: [text("Hello.")] }] }, { cwdName: "ask-ui" });
    const { baton, page } = app;
    // Test double: a browser that has not been asked yet, and grants when asked.
    await page.addInitScript(() => {
      const w = window as unknown as { Notification: unknown; __asked: number };
      w.__asked = 0;
      w.Notification = class {
        static permission = "default";
        static requestPermission(): Promise<string> {
          w.__asked++;
          (w.Notification as { permission: string }).permission = "granted";
          return Promise.resolve("granted");
        }
      };
    });
    await page.reload();
    await baton.waitReady();
    const asked = (): Promise<number> => page.evaluate(() => (window as unknown as { __asked: number }).__asked);
    // Clicks and typing do not ask (no prompt the person did not ask for).
    await baton.newSession();
    await baton.send("say hello");
    await pw(baton.transcript).toContainText("Hello.", { timeout: 60_000 });
    expect(await asked()).toBe(0);
    await page.getByRole("toolbar", { name: "Session controls" }).getByRole("button", { name: /^Needs you/ }).click();
    const setting = page.getByRole("checkbox", { name: /Desktop notifications/ });
    expect(await setting.isChecked()).toBe(false);
    await setting.check();
    await expect.poll(asked).toBe(1);
    expect(await setting.isChecked()).toBe(true);
    expect(app.pageErrors).toEqual([]);
  });

  it("Continue in terminal copies the command that resumes the session in its folder", async () => {
    app = await startWebApp({ main: [{ blocks: [text("Hello.")] }] }, { cwdName: "continue-ui" });
    const { baton, page } = app;
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await baton.newSession();
    await baton.send("say hello");
    await pw(baton.transcript).toContainText("Hello.", { timeout: 60_000 });
    const clipboard = (): Promise<string> => page.evaluate(() => navigator.clipboard.readText());
    const command = new RegExp(`^cd ${app.env.cwd.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} && baton claude --resume [0-9a-f-]{36}$`);

    // The session's tab menu.
    await baton.sessionTabs.getByRole("tab", { selected: true }).click({ button: "right" });
    await page.getByRole("menuitem", { name: "Continue in terminal" }).click();
    await expect.poll(clipboard, { timeout: 10_000 }).toMatch(command);
    const fromTab = await clipboard();
    const note = page.getByRole("status", { name: "Copy note" });
    await pw(note).toContainText(`Copied: ${fromTab}`);

    // The same session in the Project panel's list.
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    const entry = baton.project.getByRole("button", { name: /^Continue in terminal: / }).first();
    await pw(entry).toBeVisible({ timeout: 30_000 });
    await entry.click();
    await expect.poll(clipboard, { timeout: 10_000 }).toBe(fromTab);
    expect(app.pageErrors).toEqual([]);
  });
});

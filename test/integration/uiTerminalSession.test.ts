// A terminal session in the window (issue 35): a subagent's Bash asked through the hook of a session
// Baton is not showing opens that session's tab, marked as a terminal session waiting for the
// person, with the request on the subagent's card; Allow once there answers the hook "allow" and the
// tab says the session works again. The hook is called as Baton's socket calls it (the web app's
// session manager), over a real CLI history (the 2.1.332 deep-nesting recording). The request counts
// in the toolbar's "Needs you" while it waits.
import { afterEach, describe, expect, it } from "vitest";
import type { HookVerdict } from "../../src/shared/terminalHooks.js";
import { plantHistory, type PlantedHistory } from "../support/plantedHistory.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiTerminalSession: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The recording's top agent (spawned by the main agent, in the background on 2.1.332). */
const TopAgent = { id: "a584e2604c76bc609", type: "general-purpose", description: "Top agent" };

describe.skipIf(!hasChromium)("a terminal session in the window", () => {
  it("opens the session's tab marked terminal, shows the request on the subagent's card, and Allow once answers the hook", async () => {
    let planted: PlantedHistory | undefined;
    app = await startWebApp({}, { cwdName: "terminal-session-ui", prepare: async (env) => void (planted = plantHistory(env.projectsDir, "2.1.332")) });
    const { baton, manager } = app;
    const history = planted!;
    // As the CLI asks: a PreToolUse no rule decides (Baton defers to the CLI), then the
    // PermissionRequest it sends before its dialog.
    const call = {
      session_id: history.sessionId,
      transcript_path: history.mainFile,
      cwd: "/home/user/code/deep-nesting",
      agent_id: TopAgent.id,
      agent_type: TopAgent.type,
      tool_name: "Bash",
      tool_input: { command: "touch made-in-terminal", description: "Make a file" },
    };
    expect(await manager.handleTerminalHook({ ...call, hook_event_name: "PreToolUse", tool_use_id: "toolu_terminal_ui" })).toEqual({ decision: "defer" });
    const verdict: Promise<HookVerdict> = manager.handleTerminalHook({ ...call, hook_event_name: "PermissionRequest" });
    const tab = baton.sessionTabs.getByRole("tab").filter({ hasText: "Quillwort migration plan" });
    await pw(tab.getByText("terminal · waiting for you", { exact: true })).toBeVisible();
    // The terminal's request is in the one queue of what waits for the person.
    const needsYou = app.page.getByRole("toolbar", { name: "Session controls" }).getByRole("button", { name: /^Needs you/ });
    await pw(needsYou).toHaveAttribute("aria-label", "Needs you: 1 waiting");
    await tab.click();
    await pw(baton.composer).toBeVisible();
    expect(await baton.composer.getAttribute("placeholder")).toMatch(/^This session runs in a terminal: type there/);
    const card = baton.subagentCard(TopAgent.type, TopAgent.description);
    const prompt = baton.permissionOn(card);
    await pw(prompt).toBeVisible();
    await pw(prompt.getByText("touch made-in-terminal")).toBeVisible();
    await prompt.getByRole("button", { name: "Allow once" }).click();
    expect(await verdict).toMatchObject({ decision: "allow" });
    await pw(prompt).toHaveCount(0);
    await pw(tab.getByText("terminal · working", { exact: true })).toBeVisible();
    await pw(needsYou).toHaveAttribute("aria-label", "Needs you: nothing waiting");
    expect(app.pageErrors).toEqual([]);
  }, 180_000);
});

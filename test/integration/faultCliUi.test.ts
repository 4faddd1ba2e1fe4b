// Faults survived, where the person sees them: the CLI killed while a subagent's request waits on
// its card. In Chromium (web mode) the tab shows the stop message, the card stops (no spinner),
// the request's Allow is gone and its tool card says withdrawn, and a new prompt is answered.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { projectFolderName } from "../../src/main/platform/projectsDir.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { theChild } from "../support/faults/cliProcesses.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("faultCliUi: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("faults in the browser: the CLI killed mid-turn", () => {
  it("shows the stop message, leaves no card spinning and no live Allow, and answers the next prompt", async () => {
    const back = { blocks: [text("Back again, same conversation.")] };
    app = await startWebApp(
      {
        main: [{ blocks: [text("Asking a helper."), agentCall("Asking sub", "[[SUB-A]] touch a file", { run_in_background: false })] }, back, back],
        "SUB-A": [{ blocks: [bashCall("touch ui-killed.txt", "Create a file")] }],
      },
      { cwdName: "fault-ui" },
    );
    const { baton, env } = app;
    await baton.newSession();
    await baton.send("start");
    const card = baton.subagentCard("general-purpose", "Asking sub");
    const prompt = baton.permissionOn(card);
    await pw(prompt).toContainText("touch ui-killed.txt", { timeout: 60_000 });
    await pw(prompt.getByRole("button", { name: "Allow once", exact: true })).toBeVisible();
    // Killed once the CLI has saved the turn so far, so the next prompt resumes it.
    const folder = path.join(env.projectsDir, projectFolderName(env.cwd));
    await expect
      .poll(() => fs.existsSync(folder) && fs.readdirSync(folder).some((f) => f.endsWith(".jsonl") && fs.readFileSync(path.join(folder, f), "utf8").includes("Asking sub")), { timeout: 30_000 })
      .toBe(true);
    process.kill(theChild(path.basename(env.claudePath)).pid, "SIGKILL");

    await pw(baton.transcript.getByRole("alert")).toContainText("Claude Code CLI was killed by SIGKILL", { timeout: 30_000 });
    await pw(baton.transcript).toContainText("Send a prompt to go on: Baton starts Claude Code again and continues this session.");
    await pw(baton.page.getByLabel("Session status")).toHaveText("error");
    await pw(card).toHaveAttribute("data-status", "stopped");
    await pw(prompt).toHaveCount(0);
    await pw(baton.transcript.getByRole("button", { name: "Allow once" })).toHaveCount(0);
    await pw(baton.transcript.locator(".spinner")).toHaveCount(0);
    await baton.expand(card);
    await pw(baton.toolCards("Bash", card)).toContainText("withdrawn");
    await baton.screenshot("fault-cli-killed");
    expect(fs.existsSync(path.join(env.cwd, "ui-killed.txt"))).toBe(false);

    await baton.send("are you back?");
    await pw(baton.transcript).toContainText("Back again, same conversation.", { timeout: 60_000 });
    await pw(baton.page.getByLabel("Session status")).toHaveText("idle", { timeout: 30_000 });
    expect(app.pageErrors).toEqual([]);
  });
});

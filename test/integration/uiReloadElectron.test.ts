// The window reloaded mid-session over the Electron transport (issue 36): the same renderer as
// uiReload.test.ts, but its API is the REAL preload bundle's, wired by a stand-in contextBridge /
// ipcRenderer to the BUILT shell's ipcMain handlers (test/support/electron, a TEST DOUBLE of
// `electron`; the Electron binary never runs). A reload (what Ctrl+R or a renderer crash and
// reload does in the window) gives the page a new preload token, and the shell drops the old
// page's subscriptions: the reloaded page gets its draft, its expanded card, its selection and the
// waiting request back, answers that request once over IPC, and the CLI's turn streams in.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { IpcChannels } from "../../src/shared/apiNames.js";
import { attachShell, PageOrigin, type AttachedShell } from "../support/electron/preloadInPage.js";
import { startShellApp, type ShellApp } from "../support/electron/shellApp.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { BatonPage } from "../support/ui/batonPage.js";
import { chromiumAvailable, launchBrowser, type LaunchedBrowser } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiReloadElectron: /usr/bin/chromium not found, skipping browser tests");

let app: ShellApp | undefined;
let browser: LaunchedBrowser | undefined;
let attached: AttachedShell | undefined;
afterEach(async () => {
  attached?.stop();
  await browser?.close();
  await app?.close();
  attached = undefined;
  browser = undefined;
  app = undefined;
});

describe.skipIf(!hasChromium)("reloading the window over the Electron transport", () => {
  it("brings back the draft, the expanded card and the selection; the waiting request is answered once over IPC and the turn streams in", async () => {
    app = await startShellApp({
      cwdName: "electron-reload",
      script: {
        main: [{ blocks: [agentCall("Asking sub", "[[SUB-A]] make a file", { run_in_background: false })] }, { blocks: [text("Finished after the reload.")] }],
        "SUB-A": [{ blocks: [bashCall("touch reload-allow.txt", "Create the file")] }, { blocks: [text("The file is made.")] }],
      },
    });
    await app.shell.ready();
    await app.shell.waitFor("BrowserWindow.show");
    browser = await launchBrowser();
    const page: Page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") pageErrors.push(m.text());
    });
    attached = await attachShell(browser.context, page, app.shell, path.resolve(app.mainOut, "../preload/index.cjs"));
    await page.goto(`${PageOrigin}/index.html`);
    const baton = new BatonPage(page, app.env.cwd);
    await baton.waitReady();

    await baton.newSession();
    await baton.send("make the file through a subagent");
    const card = baton.subagentCard("general-purpose", "Asking sub");
    await pw(baton.permissionOn(card)).toContainText("touch reload-allow.txt", { timeout: 90_000 });
    await baton.expand(card);
    await baton.openLeftTab("Hierarchy");
    await baton.selectInHierarchy("general-purpose", "Asking sub");
    await pw(baton.inspector).toContainText("Asking sub");
    await baton.composer.fill("a draft over IPC");
    const sessionsStarted = attached.calls.filter((c) => c === IpcChannels.method("newSession")).length;

    await page.reload();
    await baton.waitReady();
    await expect.poll(() => baton.composer.inputValue(), { timeout: 20_000 }).toBe("a draft over IPC");
    await pw(baton.expandButton(card)).toHaveAttribute("aria-expanded", "true", { timeout: 20_000 });
    await pw(card).toHaveAttribute("data-selected", "true");
    await pw(baton.inspector).toContainText("Asking sub");
    await expect.poll(() => baton.sessionTabs.getByRole("tab").count()).toBe(1);
    const prompt = baton.permissionOn(card);
    await pw(prompt).toContainText("touch reload-allow.txt", { timeout: 20_000 });
    expect(fs.existsSync(path.join(app.env.cwd, "reload-allow.txt"))).toBe(false);

    await prompt.getByRole("button", { name: "Allow once", exact: true }).click();
    await pw(prompt).toHaveCount(0, { timeout: 30_000 });
    await pw(card).toContainText("The file is made.", { timeout: 60_000 });
    await pw(baton.transcript).toContainText("Finished after the reload.", { timeout: 60_000 });
    expect(fs.existsSync(path.join(app.env.cwd, "reload-allow.txt"))).toBe(true);
    // The reloaded page joined the session: it started none, and the subagent's command ran once.
    expect(attached.calls.filter((c) => c === IpcChannels.method("newSession")).length).toBe(sessionsStarted);
    expect(app.model.requests.filter((r) => r.agent === "SUB-A" && r.turn === 1)).toHaveLength(1);
    expect(app.model.requests.filter((r) => r.agent === "main" && r.turn === 0)).toHaveLength(1);
    expect(pageErrors).toEqual([]);
  });
});

// The window's page over the Electron transport (issue 36), as far as this machine allows: the
// BUILT shell (out/main/index.js) runs in a Node child against the `electron` TEST DOUBLE
// (test/support/electron), Chromium loads the renderer through the app:// handler the shell
// registered (its CSP header enforced), and the REAL preload bundle gives the page its API over a
// stand-in contextBridge / ipcRenderer wired to the shell's own ipcMain handlers. The real renderer
// then does what web mode's tests do: lists the recorded sessions, opens one, expands its subagent's
// card; every call goes through the shell's sender-checked channels, every transcript delta comes
// back by webContents.send. The real Electron binary never runs here.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptDelta } from "../../src/shared/api.js";
import { IpcChannels } from "../../src/shared/apiNames.js";
import { attachShell, PageOrigin, type AttachedShell } from "../support/electron/preloadInPage.js";
import { startShellApp, type ShellApp } from "../support/electron/shellApp.js";
import { BatonPage } from "../support/ui/batonPage.js";
import { chromiumAvailable, launchBrowser, type LaunchedBrowser } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiElectronTransport: /usr/bin/chromium not found, skipping browser tests");

describe.skipIf(!hasChromium)("the renderer over the Electron transport, against the built shell", () => {
  let app: ShellApp;
  let browser: LaunchedBrowser;
  let attached: AttachedShell | undefined;
  let page: Page;
  let baton: BatonPage;
  const pageErrors: string[] = [];
  const requests: string[] = [];
  const sockets: string[] = [];

  beforeAll(async () => {
    app = await startShellApp({
      recordings: ["subagent"],
      cwdName: "electron-transport",
      script: {
        main: [{ blocks: [agentCall("Asking sub", "[[SUB-A]] make a file")] }, { blocks: [text("Live over the Electron transport.")] }],
        "SUB-A": [{ blocks: [bashCall("touch electron-allow.txt", "Create the file")] }, { blocks: [text("The file is made.")] }],
      },
    });
    await app.shell.ready();
    await app.shell.waitFor("BrowserWindow.show");
    browser = await launchBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") pageErrors.push(m.text());
    });
    page.on("request", (r) => requests.push(r.url()));
    page.on("websocket", (ws) => sockets.push(ws.url()));
    attached = await attachShell(browser.context, page, app.shell, path.resolve(app.mainOut, "../preload/index.cjs"));
    await page.goto(`${PageOrigin}/index.html`);
    baton = new BatonPage(page, app.env.cwd);
    await baton.waitReady();
  });
  afterAll(async () => {
    attached?.stop();
    await browser?.close();
    await app?.close();
  });

  it("lists the recorded sessions, opens one and expands its subagent's card, all through the preload's bridge", async () => {
    const { shell } = app;
    // The page's API is the preload's: one frozen object of the contract's functions, put there by contextBridge.
    expect(
      await page.evaluate(() => {
        const api = (window as unknown as { baton?: Record<string, unknown> }).baton;
        return { frozen: Object.isFrozen(api), electron: (api?.["versions"] as { electron?: string } | undefined)?.electron, listSessions: typeof api?.["listSessions"], writable: Object.getOwnPropertyDescriptor(window, "baton")?.writable };
      }),
    ).toEqual({ frozen: true, electron: "stand-in", listSessions: "function", writable: false });

    await baton.openLeftTab("Project");
    const entry = baton.project.getByRole("button", { name: "Open session please delegate this", exact: true });
    await pw(entry).toBeVisible({ timeout: 30_000 });
    await entry.click();

    const card = baton.subagentCard("general-purpose", "Echo via subagent");
    await pw(card).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    await pw(card.locator(":scope > .summary-md")).toContainText("Both commands ran.");
    await pw(baton.transcript).toContainText("All done. The subagent reported back.");
    await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toContainText("(history)");
    await baton.expand(card);
    await pw(baton.toolCards("Bash", card)).toHaveCount(2, { timeout: 20_000 });

    // The page reached the shell only through the channels the shell registered…
    const registered = new Set(shell.seen("ipcMain.handle").map((r) => String(r.detail["channel"])));
    expect(attached!.calls.filter((c) => !registered.has(c))).toEqual([]);
    expect(attached!.calls).toEqual(expect.arrayContaining([IpcChannels.method("listSessions"), IpcChannels.method("openSession"), IpcChannels.subscribe("onTranscriptDelta"), IpcChannels.method("loadSubagentBlocks")]));
    // …and the transcript came back by webContents.send on the one event channel.
    const deltas = shell.sends.filter((s) => s.channel === IpcChannels.event).map((s) => s.args[1] as Partial<TranscriptDelta>);
    expect(deltas.some((d) => typeof d === "object" && d !== null && "tabId" in d && (d.upserts?.length ?? 0) > 0)).toBe(true);

    // No web transport, nothing from elsewhere, and the CSP let the renderer run untouched.
    expect(sockets).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(`${PageOrigin}/`) && !url.startsWith("data:"))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("runs a live session: its subagent's request on the card, Allow once answered over IPC, the CLI's output streamed back", async () => {
    const sendsBefore = app.shell.sends.length;
    await baton.newSession();
    await baton.send("make the file through a subagent");
    const card = baton.subagentCard("general-purpose", "Asking sub");
    const prompt = baton.permissionOn(card);
    await pw(prompt).toContainText("touch electron-allow.txt", { timeout: 60_000 });
    expect(fs.existsSync(path.join(app.env.cwd, "electron-allow.txt"))).toBe(false);
    await prompt.getByRole("button", { name: "Allow once", exact: true }).click();

    await pw(prompt).toHaveCount(0, { timeout: 30_000 });
    await baton.expand(card);
    await pw(baton.toolCards("Bash", card)).toContainText("allowed", { timeout: 60_000 });
    await pw(card).toContainText("The file is made.", { timeout: 60_000 });
    await pw(baton.transcript).toContainText("Live over the Electron transport.", { timeout: 60_000 });
    expect(fs.existsSync(path.join(app.env.cwd, "electron-allow.txt"))).toBe(true);
    expect(attached!.calls).toEqual(expect.arrayContaining([IpcChannels.method("newSession"), IpcChannels.method("sendPrompt"), IpcChannels.method("answerPermission")]));
    // The request and the turn reached the page as deltas sent by the shell.
    const live = app.shell.sends.slice(sendsBefore).map((s) => s.args[1] as Partial<TranscriptDelta> | undefined);
    expect(live.some((d) => d?.pending?.some((p) => p.toolName === "Bash"))).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it("runs the page under the shell's Content-Security-Policy: a script it did not ship is refused", async () => {
    const probe = await page.evaluate(
      () =>
        new Promise<{ ran: boolean; directive: string }>((resolve) => {
          document.addEventListener("securitypolicyviolation", (e) => resolve({ ran: (window as unknown as { __injected?: boolean }).__injected === true, directive: e.effectiveDirective }), { once: true });
          const script = document.createElement("script");
          script.textContent = "window.__injected = true";
          document.head.append(script);
        }),
    );
    expect(probe).toEqual({ ran: false, directive: "script-src-elem" });
  });
});

// Browser test of the history folder setting: the Project panel names the folder sessions come
// from; the person points it at another folder (a missing one is refused with a clear message)
// and sees that folder's sessions listed at once; the choice is still there after a restart.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { startWebServer, type WebServer } from "../../src/main/transport/web/webServer.js";
import { claudeBinaryPath } from "../support/cliEnv.js";
import { chromiumAvailable, launchBrowser, type LaunchedBrowser } from "../support/ui/browser.js";
import { BatonPage } from "../support/ui/batonPage.js";
import { ensureRendererBuilt } from "../support/ui/buildRenderer.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { writePromptSession } from "../support/historyFiles.js";
import { tempDirs } from "../support/tempDirs.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiProjectsDir: /usr/bin/chromium not found, skipping browser tests");

const tempDir = tempDirs("baton-ui-projects-dir-");
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** A temp HOME: the CLI's default history folder and a second one, each with one session. */
function world() {
  const home = tempDir();
  const defaultDir = path.join(home, ".claude", "projects");
  const otherDir = path.join(home, "backup", "projects");
  writePromptSession(defaultDir, "11111111-1111-4111-8111-111111111111", "Refactor the parser");
  writePromptSession(otherDir, "22222222-2222-4222-8222-222222222222", "Write the release notes");
  return { home, defaultDir, otherDir, settingsFile: path.join(home, ".config", "baton", "settings.json") };
}

/** The app core as `baton web` builds it (settings file, no --projects-dir), served to the page. */
async function startBaton(w: ReturnType<typeof world>, page: Page): Promise<{ baton: BatonPage; stop: () => Promise<void> }> {
  const core: AppCore = await createAppCore({ settingsFile: w.settingsFile, env: { PATH: process.env["PATH"] ?? "", HOME: w.home }, claudePath: claudeBinaryPath() });
  const web: WebServer = await startWebServer({ service: core.service, rendererDir: ensureRendererBuilt() });
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= web.close().then(() => core.close()));
  stops.push(stop);
  await page.goto(web.url);
  const baton = new BatonPage(page, w.home);
  await baton.waitReady();
  await baton.openLeftTab("Project");
  return { baton, stop };
}

describe.skipIf(!hasChromium)("the history folder in the browser", () => {
  it("switches the Project panel to another folder's sessions without a restart, and keeps it", async () => {
    const w = world();
    const browser: LaunchedBrowser = await launchBrowser();
    stops.push(() => browser.close());
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));

    const first = await startBaton(w, page);
    const baton = first.baton;
    const folder = baton.project.getByRole("region", { name: "History folder" });
    const inUse = folder.getByLabel("History folder in use");
    const sessions = baton.project.getByRole("button", { name: /^Open session / });
    await pw(inUse).toHaveText(w.defaultDir);
    await pw(folder).toContainText("default");
    await pw(sessions).toHaveCount(1);
    await pw(sessions).toContainText("Refactor the parser");

    // Web mode has no folder picker: the panel asks for a path. A missing folder is refused.
    await folder.getByRole("button", { name: "Change…" }).click();
    const field = folder.getByRole("textbox", { name: "History folder path" });
    const missing = path.join(w.home, "no-such-folder");
    await field.fill(missing);
    await folder.getByRole("button", { name: "Use" }).click();
    await pw(folder.getByRole("alert")).toHaveText(`The folder ${missing} does not exist`);
    await pw(inUse).toHaveText(w.defaultDir);
    await pw(sessions).toContainText("Refactor the parser");

    await field.fill(w.otherDir);
    await folder.getByRole("button", { name: "Use" }).click();
    await pw(inUse).toHaveText(w.otherDir);
    await pw(folder).toContainText("chosen here");
    await pw(folder.getByRole("alert")).toHaveCount(0);
    await pw(sessions).toHaveCount(1);
    await pw(sessions).toContainText("Write the release notes");
    expect(JSON.parse(fs.readFileSync(w.settingsFile, "utf8"))).toEqual({ projectsDir: w.otherDir });

    // The other folder's session opens like any other.
    await sessions.first().click();
    await pw(baton.transcript).toContainText("Write the release notes");

    // A new Baton on the same settings file starts in the chosen folder.
    await first.stop();
    const { baton: again } = await startBaton(w, page);
    await pw(again.project.getByLabel("History folder in use")).toHaveText(w.otherDir);
    await pw(again.project.getByRole("button", { name: /^Open session / })).toContainText("Write the release notes");

    // "Use default" forgets the choice and lists the CLI's own folder again.
    await again.project.getByRole("button", { name: "Change…" }).click();
    await again.project.getByRole("button", { name: "Use default" }).click();
    await pw(again.project.getByLabel("History folder in use")).toHaveText(w.defaultDir);
    await pw(again.project.getByRole("button", { name: /^Open session / })).toContainText("Refactor the parser");
    expect(JSON.parse(fs.readFileSync(w.settingsFile, "utf8"))).toEqual({});
    expect(pageErrors).toEqual([]);
  });
});

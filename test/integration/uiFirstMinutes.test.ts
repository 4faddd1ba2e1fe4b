// Browser tests of a person's first minutes: without `claude` a plain banner says that history and
// search work and what to install, New session says so too, and the Console starts with one calm
// line (its details folded); past sessions open and search finds them; the history folder's
// Change… lists another folder's sessions at once, or says why it cannot. The New session dialog
// offers the folders of recent sessions, starts where one was picked, and next time starts from
// the folder used last; a start that fails says why and keeps what was typed.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { createAppCore, type AppCore, type AppCoreOptions } from "../../src/main/app/createAppCore.js";
import { startWebServer } from "../../src/main/transport/web/webServer.js";
import { writePromptSession } from "../support/historyFiles.js";
import { text } from "../support/scenarios/types.js";
import { tempDirs } from "../support/tempDirs.js";
import { chromiumAvailable, launchBrowser } from "../support/ui/browser.js";
import { describeProblems, textContrast } from "../support/ui/contrast.js";
import { BatonPage } from "../support/ui/batonPage.js";
import { ensureRendererBuilt } from "../support/ui/buildRenderer.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiFirstMinutes: /usr/bin/chromium not found, skipping browser tests");

const tempDir = tempDirs("baton-ui-first-minutes-");
const stops: (() => Promise<void>)[] = [];
let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** A temp HOME with no `claude` anywhere Baton looks: the CLI's history folder and a second one, one session each. */
function world() {
  const home = tempDir();
  const bin = path.join(home, "bin");
  fs.mkdirSync(bin);
  const defaultDir = path.join(home, ".claude", "projects");
  const otherDir = path.join(home, "backup", "projects");
  writePromptSession(defaultDir, "11111111-1111-4111-8111-111111111111", "Refactor the parser for speed");
  writePromptSession(otherDir, "22222222-2222-4222-8222-222222222222", "Write the release notes");
  const settingsFile = path.join(home, ".config", "baton", "settings.json");
  return { home, bin, defaultDir, otherDir, settingsFile };
}

/** The app core as `baton web` builds it, on a PATH without `claude`, served to a fresh browser page. */
async function startBaton(w: ReturnType<typeof world>, options: Partial<AppCoreOptions> = {}): Promise<{ page: Page; baton: BatonPage; core: AppCore }> {
  const core = await createAppCore({
    settingsFile: w.settingsFile,
    dbPath: path.join(w.home, ".config", "baton", "history.db"),
    env: { PATH: w.bin, HOME: w.home },
    claudeInstallDirs: [],
    ...options,
  });
  const web = await startWebServer({ service: core.service, rendererDir: ensureRendererBuilt() });
  const browser = await launchBrowser({ width: 1440, height: 900 });
  stops.push(() => core.close(), () => web.close(), () => browser.close());
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  stops.push(async () => expect(errors).toEqual([]));
  await page.goto(web.url);
  const baton = new BatonPage(page, w.home);
  await baton.waitReady();
  return { page, baton, core };
}

async function expectReadable(page: Page, what: string): Promise<void> {
  const { checked, problems } = await textContrast(page);
  expect(problems, `${what}: text below WCAG AA\n${describeProblems(problems)}`).toEqual([]);
  expect(checked).toBeGreaterThan(5);
}

/** A past session in `cwd` (a real folder, so a session can start there), last active at `time`. */
function writeSessionIn(projectsDir: string, sessionId: string, cwd: string, prompt: string, time: string): void {
  const dir = path.join(projectsDir, cwd.replace(/[^A-Za-z0-9]/g, "-"));
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(cwd, { recursive: true });
  const line = { type: "user", sessionId, uuid: `${sessionId}-u1`, parentUuid: null, isSidechain: false, cwd, version: "2.1.197", timestamp: time, message: { role: "user", content: prompt } };
  fs.writeFileSync(path.join(dir, `${sessionId}.jsonl`), `${JSON.stringify(line)}\n`);
}

describe.skipIf(!hasChromium)("first minutes in the browser", () => {
  it("without claude: a banner says what works and what to install, the Console starts calm, history, search and Change… work", async () => {
    const w = world();
    const { page, baton } = await startBaton(w);

    const banner = page.getByRole("region", { name: "Claude Code not found" });
    await pw(banner).toContainText("Your past sessions and search work");
    await pw(banner).toContainText("npm i -g @anthropic-ai/claude-code");
    await banner.getByText("Where Baton looked").click();
    await pw(banner.getByRole("listitem")).toHaveText(path.join(w.bin, "claude"));
    const newSession = page.getByRole("button", { name: "New session", exact: true });
    expect(await newSession.isDisabled()).toBe(true);
    expect(await newSession.getAttribute("title")).toContain("npm i -g @anthropic-ai/claude-code");

    // The Console's first line: a warning in a sentence, its details folded until asked for.
    const first = baton.console.getByRole("list", { name: "Log entries" }).getByRole("listitem").first();
    await pw(first).toContainText("Claude Code CLI not found: history and search work");
    expect(await first.getAttribute("class")).toBe("log-warning");
    expect((await first.innerText()).length).toBeLessThan(200);
    expect(await first.locator("pre").isVisible()).toBe(false);
    await first.getByText("details").click();
    await pw(first.locator("pre")).toBeVisible();
    await pw(first.locator("pre")).toContainText(path.join(w.bin, "claude"));
    for (const theme of ["light", "dark"]) {
      await page.getByRole("combobox", { name: "Theme" }).selectOption(theme);
      await expectReadable(page, `the banner and the Console, ${theme}`);
    }

    // History: the list, a past session opened, search over it.
    await baton.openLeftTab("Project");
    const folder = baton.project.getByRole("region", { name: "History folder" });
    const sessions = baton.project.getByRole("button", { name: /^Open session / });
    await pw(sessions).toHaveCount(1);
    await sessions.first().click();
    await pw(baton.transcript).toContainText("Refactor the parser for speed");
    await baton.project.getByRole("searchbox", { name: "Search history" }).fill("parser");
    await pw(baton.project.getByRole("list", { name: "Search results" }).locator("mark").first()).toHaveText("parser", { timeout: 20_000 });
    await baton.project.getByRole("searchbox", { name: "Search history" }).fill("");

    // Change… switches the running server to another folder: its sessions are listed at once.
    const change = folder.getByRole("button", { name: "Change…" });
    expect(await change.getAttribute("title")).toBe("List past sessions from another folder");
    await change.click();
    await folder.getByRole("textbox", { name: "History folder path" }).fill(w.otherDir);
    await folder.getByRole("button", { name: "Use" }).click();
    await pw(folder.getByLabel("History folder in use")).toHaveText(w.otherDir);
    await pw(sessions).toHaveCount(1);
    await pw(sessions).toContainText("Write the release notes");

    await banner.getByRole("button", { name: "Dismiss" }).click();
    await pw(banner).toHaveCount(0);
  });

  it("under --projects-dir Change… is disabled with the reason in its tooltip, and says nothing when the saved folder is the same", async () => {
    const w = world();
    fs.mkdirSync(path.dirname(w.settingsFile), { recursive: true });
    fs.writeFileSync(w.settingsFile, JSON.stringify({ projectsDir: w.otherDir }));

    const same = await startBaton(w, { projectsDir: w.otherDir });
    await same.baton.openLeftTab("Project");
    const folder = same.baton.project.getByRole("region", { name: "History folder" });
    await pw(folder.getByLabel("History folder in use")).toHaveText(w.otherDir);
    await pw(same.baton.project.getByRole("button", { name: /^Open session / })).toContainText("Write the release notes");
    const change = folder.getByRole("button", { name: "Change…" });
    expect(await change.isDisabled()).toBe(true);
    expect(await change.getAttribute("title")).toContain("started with --projects-dir");
    await pw(folder).not.toContainText("wins over the saved folder");

    // A different saved folder is worth the notice.
    const other = await startBaton(w, { projectsDir: w.defaultDir });
    await other.baton.openLeftTab("Project");
    await pw(other.baton.project.getByRole("region", { name: "History folder" })).toContainText(`--projects-dir wins over the saved folder (${w.otherDir})`);
  });

  it("New session offers recent projects, starts where one is picked, then starts from the folder used last", async () => {
    let alpha = "";
    let beta = "";
    app = await startWebApp(
      { main: [{ blocks: [text("Ready.")] }] },
      {
        cwdName: "first-minutes",
        prepare: async (env) => {
          alpha = path.join(env.home, "code", "alpha");
          beta = path.join(env.home, "code", "beta");
          writeSessionIn(env.projectsDir, "33333333-3333-4333-8333-333333333333", beta, "Beta's older work", "2026-01-01T10:00:00.000Z");
          writeSessionIn(env.projectsDir, "44444444-4444-4444-8444-444444444444", alpha, "Alpha's newer work", "2026-02-01T10:00:00.000Z");
        },
      },
    );
    const { page, baton } = app;
    await page.getByRole("button", { name: "New session", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "New session" });
    const folderField = dialog.getByRole("textbox", { name: "Working directory" });
    const recent = dialog.getByRole("region", { name: "Recent projects" }).getByRole("button");
    // Nothing used yet in this window: the newest project is filled in; both are offered, newest first.
    await pw(recent).toHaveCount(2);
    await pw(recent.first()).toContainText("alpha");
    await pw(recent.nth(1)).toContainText("beta");
    for (const theme of ["light", "dark"]) {
      await page.evaluate((t) => (document.documentElement.dataset["theme"] = t), theme);
      await expectReadable(page, `the New session dialog, ${theme}`);
    }
    expect(await folderField.inputValue()).toBe(alpha);
    // The filled-in folder is a suggestion: typing in the field (focused on opening) replaces it
    // rather than joining it into one path.
    await pw(folderField).toBeFocused();
    await page.keyboard.type("/elsewhere");
    expect(await folderField.inputValue()).toBe("/elsewhere");

    await recent.filter({ hasText: beta }).click();
    expect(await folderField.inputValue()).toBe(beta);
    await pw(recent.filter({ hasText: beta })).toHaveAttribute("aria-pressed", "true");
    await dialog.getByRole("button", { name: "Start", exact: true }).click();
    await pw(dialog).toHaveCount(0, { timeout: 60_000 });
    await baton.sessionTabs.getByRole("tab", { selected: true }).waitFor({ timeout: 60_000 });
    const started = baton.console.getByRole("listitem").filter({ hasText: "session started" });
    await started.getByText("details").click();
    await pw(started.locator("pre")).toContainText(`"cwd": "${beta}"`);

    // Next time: the folder used last. A folder that is not there is refused in the dialog, the text kept.
    await page.getByRole("button", { name: "New session", exact: true }).click();
    expect(await folderField.inputValue()).toBe(beta);
    const missing = path.join(app.env.home, "code", "no-such-project");
    await folderField.fill(missing);
    await dialog.getByRole("button", { name: "Start", exact: true }).click();
    await pw(dialog.getByRole("alert")).toBeVisible({ timeout: 30_000 });
    expect(await folderField.inputValue()).toBe(missing);
    await folderField.press("Escape");
    await pw(dialog).toHaveCount(0);
    expect(app.pageErrors).toEqual([]);
  });
});

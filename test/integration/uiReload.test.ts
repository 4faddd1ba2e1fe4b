// The window reloaded in the middle of a session (issue 36), in real Chromium on the real CLI: a
// subagent waits on a permission request while a past session is open beside it. The reload, and
// then a second browser tab opening the same Baton, bring back each tab's own draft, the dock as it
// was left (a panel moved, one resized, one closed), the session tabs in their order with the same
// one in front, the past session's tab as a past session, the expanded card expanded and the
// collapsed one collapsed, and the Inspector's selection. The live tab joins the running CLI (no
// second one), its transcript keeps streaming, and the waiting request is answered once, from
// either window. A prompt that cannot be sent stays in the box, and survives the reload. Session
// tabs dragged into groups and orders of their own come back there, with the preview tab and the
// place the front conversation was read at.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { writePromptSession } from "../support/historyFiles.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { BatonPage } from "../support/ui/batonPage.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiReload: /usr/bin/chromium not found, skipping browser tests");

const PastSessionId = "7d3c2a10-5b8e-4f61-9a2d-3c4b5e6f7a81";
const PastPrompt = "Sketch the Lindenfold archive";
const LivePrompt = "start both helpers";

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The titles of the tabs in the same dock group as the named panel's tab. */
async function groupOf(page: Page, panel: string): Promise<string[]> {
  const list = page.getByRole("tab", { name: panel, exact: true }).locator("xpath=ancestor::*[@role='tablist'][1]");
  return list.getByRole("tab").evaluateAll((tabs) => tabs.map((t) => t.getAttribute("aria-label") ?? ""));
}

async function sessionTitles(baton: BatonPage): Promise<string[]> {
  return baton.sessionTabs.getByRole("tab").evaluateAll((tabs) => tabs.map((t) => t.getAttribute("aria-label") ?? ""));
}

async function frontSession(baton: BatonPage): Promise<string> {
  return (await baton.sessionTabs.getByRole("tab", { selected: true }).getAttribute("aria-label")) ?? "";
}

/** Each group of sessions' tabs, left to right, with the one in front of its group marked " *". */
async function sessionGroups(page: Page): Promise<string[][]> {
  return page.getByRole("tablist", { name: "Sessions" }).evaluateAll((lists) =>
    lists.map((list) => [...list.querySelectorAll("[role=tab]")].map((t) => `${t.getAttribute("aria-label") ?? ""}${t.getAttribute("aria-selected") === "true" ? " *" : ""}`)),
  );
}

/** A past session of many prompts, shaped as the CLI writes them: a conversation long enough to scroll. */
function writeLongSession(projectsDir: string, sessionId: string, prompts: readonly string[]): void {
  const dir = path.join(projectsDir, "-home-user-code-app");
  fs.mkdirSync(dir, { recursive: true });
  const lines = prompts.map((content, i) => ({
    type: "user",
    sessionId,
    uuid: `${sessionId}-u${i + 1}`,
    parentUuid: i === 0 ? null : `${sessionId}-u${i}`,
    isSidechain: false,
    cwd: "/home/user/code/app",
    version: "2.1.197",
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    message: { role: "user", content },
  }));
  fs.writeFileSync(path.join(dir, `${sessionId}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}

/** The text of the conversation's row at the top of its view. */
async function topRow(conversation: Locator): Promise<string> {
  return conversation.evaluate((list) => {
    const top = list.getBoundingClientRect().top;
    const row = [...list.querySelectorAll<HTMLElement>(".row")].find((r) => r.getBoundingClientRect().bottom > top + 1);
    return row?.innerText.trim() ?? "";
  });
}

async function inspectorWidth(page: Page): Promise<number> {
  return Number(await page.getByRole("separator", { name: "Resize Inspector" }).getAttribute("aria-valuenow"));
}

/** The CLI process of the session's tab, as the session manager holds it. */
function cliPid(app: WebApp, tabId: string): number | undefined {
  const manager = app.manager as unknown as { tabs: { get(id: string): { session: { client: { pid?: number } } } | undefined } };
  return manager.tabs.get(tabId)?.session.client.pid;
}

async function showSession(baton: BatonPage, title: string): Promise<void> {
  await baton.sessionTabs.getByRole("tab", { name: title }).click();
  await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toHaveAttribute("aria-label", title);
}

/** What the window must show after a reload or in a second window, before anything is answered. */
async function expectSessionAsLeft(baton: BatonPage, left: { titles: string[]; consoleGroup: string[]; inspector: number }): Promise<void> {
  const page = baton.page;
  await expect.poll(() => sessionTitles(baton), { timeout: 20_000 }).toEqual(left.titles);
  expect(await frontSession(baton)).toBe(LivePrompt);
  await expect.poll(() => baton.composer.inputValue(), { timeout: 20_000 }).toBe("a draft for the live session");
  const slow = baton.subagentCard("general-purpose", "Slow helper");
  const quick = baton.subagentCard("general-purpose", "Quick helper");
  await pw(baton.expandButton(slow)).toHaveAttribute("aria-expanded", "true", { timeout: 20_000 });
  await pw(baton.expandButton(quick)).toHaveAttribute("aria-expanded", "false");
  await pw(slow).toHaveAttribute("data-selected", "true");
  await pw(baton.inspector).toContainText("Slow helper");
  await pw(baton.permissionOn(slow)).toContainText("touch slow.txt");
  await expect.poll(() => groupOf(page, "Console")).toEqual(left.consoleGroup);
  expect(await inspectorWidth(page)).toBe(left.inspector);
  await pw(baton.panelTab("Rules")).toHaveCount(0);
}

describe.skipIf(!hasChromium)("reloading the window mid-session", () => {
  it("brings back drafts, layout, tabs, cards and selection; the live tab rejoins its CLI and its request is answered once", async () => {
    let finishMay: () => void = () => undefined;
    const finish = new Promise<void>((resolve) => (finishMay = resolve));
    app = await startWebApp(
      {
        main: [
          // Quick first: whether the CLI runs the two one after the other or together, Quick ends and Slow asks.
          { blocks: [agentCall("Quick helper", "[[SUB-Q]] report", { run_in_background: false }), agentCall("Slow helper", "[[SUB-S]] make the file", { run_in_background: false })] },
          { blocks: [text("All finished after the reload.")] },
          { blocks: [text("Noted the draft.")] },
        ],
        "SUB-Q": [{ blocks: [text("Quick helper done.")] }],
        // The slow helper's last word waits for the test: the transcript must stream it after the reloads.
        "SUB-S": [{ blocks: [bashCall("touch slow.txt", "Create slow file")] }, { blocks: [text("Slow helper made the file.")], waitFor: () => finish }],
      },
      { cwdName: "reload-ui", viewport: { width: 1600, height: 1000 }, prepare: async (env) => writePromptSession(env.projectsDir, PastSessionId, PastPrompt) },
    );
    const { page, baton } = app;

    // A live session whose slow helper waits on a request; the quick one has finished.
    await baton.newSession();
    await baton.send(LivePrompt);
    const slow = baton.subagentCard("general-purpose", "Slow helper");
    const quick = baton.subagentCard("general-purpose", "Quick helper");
    await pw(baton.permissionOn(slow)).toContainText("touch slow.txt", { timeout: 90_000 });
    await baton.expand(quick);
    await pw(quick).toContainText("Quick helper done.", { timeout: 60_000 });
    await baton.expandButton(quick).click();
    await pw(baton.expandButton(quick)).toHaveAttribute("aria-expanded", "false");
    await baton.expand(slow);
    await baton.openLeftTab("Hierarchy");
    await baton.selectInHierarchy("general-purpose", "Slow helper");
    await pw(baton.inspector).toContainText("Slow helper");
    const liveTab = app.manager.listTabs()[0]!.tabId;
    const pid = cliPid(app, liveTab);
    expect(pid).toBeDefined();

    // A past session beside it, whose folder is gone: continuing it fails, and the prompt stays.
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: `Open session ${PastPrompt}` }).click();
    await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toHaveAttribute("aria-label", PastPrompt, { timeout: 20_000 });
    await baton.composer.fill("go on with the archive");
    await baton.composer.press("Enter");
    await pw(baton.transcript.getByRole("alert")).toContainText("Not sent:", { timeout: 60_000 });
    await expect.poll(() => baton.composer.inputValue(), { timeout: 20_000 }).toBe("go on with the archive");
    await expect.poll(() => sessionTitles(baton), { timeout: 20_000 }).toEqual([LivePrompt, PastPrompt]);
    await baton.composer.fill("a draft for the past session");

    // Back to the live session, which is not the last tab: a draft there too.
    await showSession(baton, LivePrompt);
    await baton.composer.fill("a draft for the live session");

    // The dock: Console dragged beside the Inspector, the Inspector widened, Rules closed.
    const inspectorBox = await baton.inspector.boundingBox();
    await page.getByRole("tab", { name: "Console", exact: true }).dragTo(baton.inspector, { targetPosition: { x: inspectorBox!.width / 2, y: inspectorBox!.height / 2 } });
    await expect.poll(() => groupOf(page, "Console")).toEqual(["Inspector", "Rules", "Console"]);
    await baton.panelTab("Inspector").click();
    const splitter = page.getByRole("separator", { name: "Resize Inspector" });
    const before = await inspectorWidth(page);
    await splitter.focus();
    await splitter.press("ArrowLeft");
    await splitter.press("ArrowLeft");
    await expect.poll(() => inspectorWidth(page)).toBe(before + 32);
    await baton.panelTab("Rules").hover();
    await page.getByRole("button", { name: "Close Rules" }).click();
    await pw(baton.panelTab("Rules")).toHaveCount(0);
    const left = { titles: [LivePrompt, PastPrompt], consoleGroup: ["Inspector", "Console"], inspector: before + 32 };
    await expect.poll(() => groupOf(page, "Console")).toEqual(left.consoleGroup);

    // Reloaded mid-session.
    await page.reload();
    await baton.waitReady();
    await expectSessionAsLeft(baton, left);
    // The past session is one still, with its own draft.
    await showSession(baton, PastPrompt);
    await expect.poll(() => baton.composer.inputValue(), { timeout: 20_000 }).toBe("a draft for the past session");
    expect(await baton.composer.getAttribute("placeholder")).toMatch(/^Continue this session/);
    await pw(baton.sessionTabs.getByRole("tab", { name: PastPrompt })).toContainText("(history)");
    await showSession(baton, LivePrompt);
    await expect.poll(() => baton.composer.inputValue(), { timeout: 20_000 }).toBe("a draft for the live session");

    // A second browser tab on the same Baton finds the same window.
    const second = await app.browser.context.newPage();
    const secondErrors: string[] = [];
    second.on("pageerror", (e) => secondErrors.push(e.message));
    await second.goto(app.web.newLink());
    const other = new BatonPage(second, app.env.cwd);
    await other.waitReady();
    await expectSessionAsLeft(other, left);

    // Neither window started a CLI: the tabs are the two they were, the live one on its first CLI.
    expect(app.manager.listTabs().map((t) => t.tabId)).toEqual([liveTab, expect.any(String)]);
    expect(cliPid(app, liveTab)).toBe(pid);

    // Answered in both windows at once: one answer counts, the request leaves both, the command runs once.
    // Both buttons are found first and pressed together in their pages: a pointer click waits for its
    // button to be still and uncovered, and by then the other window's answer may have taken it away.
    const allowButtons = await Promise.all([
      other.permissionOn(other.subagentCard("general-purpose", "Slow helper")).getByRole("button", { name: "Allow once" }).elementHandle(),
      baton.permissionOn(slow).getByRole("button", { name: "Allow once" }).elementHandle(),
    ]);
    await Promise.all(allowButtons.map((button) => button.evaluate((b) => (b as HTMLButtonElement).click())));
    await pw(baton.permissionOn(slow)).toHaveCount(0, { timeout: 30_000 });
    await pw(other.permissionOn(other.subagentCard("general-purpose", "Slow helper"))).toHaveCount(0);
    await expect.poll(() => fs.existsSync(path.join(app!.env.cwd, "slow.txt")), { timeout: 30_000 }).toBe(true);

    // What the CLI says after the reloads streams into both windows.
    finishMay();
    for (const b of [baton, other]) {
      await pw(b.subagentCard("general-purpose", "Slow helper")).toContainText("Slow helper made the file.", { timeout: 60_000 });
      await pw(b.transcript).toContainText("All finished after the reload.", { timeout: 60_000 });
    }
    expect(cliPid(app, liveTab)).toBe(pid);
    const bashResults = app.model.requests.filter((r) => r.agent === "SUB-S" && r.turn === 1);
    expect(bashResults).toHaveLength(1);

    // Sent, a draft is gone: the next reload finds the box empty.
    await baton.composer.press("Enter");
    await pw(baton.transcript).toContainText("Noted the draft.", { timeout: 60_000 });
    await page.reload();
    await baton.waitReady();
    await pw(baton.transcript).toContainText("Noted the draft.", { timeout: 20_000 });
    expect(await baton.composer.inputValue()).toBe("");
    // Closed, a tab's draft goes with it: the past session opened again starts with an empty box.
    await baton.sessionTabs.getByRole("tab", { name: PastPrompt }).click({ button: "right" });
    await page.getByRole("menuitem", { name: "Close", exact: true }).click();
    await expect.poll(() => sessionTitles(baton)).toEqual([LivePrompt]);
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: `Open session ${PastPrompt}` }).click();
    await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toHaveAttribute("aria-label", PastPrompt, { timeout: 20_000 });
    expect(await baton.composer.inputValue()).toBe("");
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes("raft")))).toEqual([]);
    expect(app.pageErrors).toEqual([]);
    expect(secondErrors).toEqual([]);
  });

  it("keeps the sessions' tabs in the order and the groups they were dragged to, the preview tab, and where the front one was read", async () => {
    const titles = ["Plan the Quillwort migration", "Rehearse the Bramblecopy release", "Audit the Fernhollow cache"] as const;
    app = await startWebApp(
      {},
      {
        cwdName: "reload-tabs",
        viewport: { width: 1600, height: 1000 },
        prepare: async (env) => {
          // The first is long enough to scroll: where it was read is brought back too.
          writeLongSession(env.projectsDir, randomUUID(), [titles[0], ...Array.from({ length: 60 }, (_, i) => `Step ${i + 1} of the migration`)]);
          for (const t of titles.slice(1)) writePromptSession(env.projectsDir, randomUUID(), t);
        },
      },
    );
    const { page, baton } = app;
    const [a, b, c] = titles;
    await baton.openLeftTab("Project");
    for (const title of titles) {
      await baton.project.getByRole("button", { name: `Open session ${title}` }).click();
      const tab = page.getByRole("tab", { name: title, exact: true });
      await pw(tab).toHaveAttribute("aria-selected", "true", { timeout: 20_000 });
      // The first two are kept (a double-click on a preview tab); the last stays the preview.
      if (title !== c) await tab.dblclick();
    }
    await pw(page.locator("[data-preview=true]")).toContainText(c);
    expect(await sessionGroups(page)).toEqual([[a, b, `${c} *`]]);

    // The last tab dragged onto the first (it moves before it), then the middle one dragged to a
    // group of its own on the right: both differ from the server's tab order.
    await page.getByRole("tab", { name: c, exact: true }).dragTo(page.getByRole("tab", { name: a, exact: true }));
    await expect.poll(() => sessionGroups(page)).toEqual([[`${c} *`, a, b]]);
    const transcriptOf = (title: string) => page.getByRole("region", { name: "Transcript" }).filter({ hasText: title });
    // (Pressed, a tab comes to the front of its group: the session shown there is then the dragged one.)
    const target = await transcriptOf(c).boundingBox();
    await page.getByRole("tab", { name: b, exact: true }).dragTo(page.getByRole("region", { name: "Transcript" }), { targetPosition: { x: target!.width - 8, y: target!.height / 2 } });
    await expect.poll(async () => (await sessionGroups(page)).map((g) => g.map((t) => t.replace(" *", "")))).toEqual([[c, a], [b]]);
    await page.getByRole("tab", { name: a, exact: true }).click();
    const left = [[c, `${a} *`], [`${b} *`]];
    await expect.poll(() => sessionGroups(page)).toEqual(left);
    // The first one, in front, read from its middle.
    const longTab = app.manager.listTabs().find((t) => t.title === a)?.tabId ?? "";
    const conversation = page.locator(`[data-transcript-tab="${longTab}"]`);
    await pw(conversation).toContainText("of the migration", { timeout: 20_000 });
    // Well inside a row, so that a pixel either way reads the same row at the top.
    await conversation.evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
    await conversation.evaluate((el) => {
      const top = el.getBoundingClientRect().top;
      const row = [...el.querySelectorAll<HTMLElement>(".row")].find((r) => r.getBoundingClientRect().bottom > top + 1);
      if (row !== undefined) el.scrollBy(0, row.getBoundingClientRect().top - top + row.offsetHeight / 3);
    });
    await expect.poll(async () => /^you\s+step \d+ of the migration$/i.test(await topRow(conversation))).toBe(true);
    const readAt = await topRow(conversation);

    await page.reload();
    await baton.waitReady();
    await expect.poll(() => sessionGroups(page), { timeout: 20_000 }).toEqual(left);
    await expect.poll(() => topRow(conversation), { timeout: 20_000 }).toBe(readAt);
    await pw(page.locator("[data-preview=true]")).toContainText(c);
    expect(app.manager.listTabs()).toHaveLength(3);
    expect(app.pageErrors).toEqual([]);
  });
});

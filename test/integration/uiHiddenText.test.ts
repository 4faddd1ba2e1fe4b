// Browser tests of text that could lie: bidi controls and zero-width characters are drawn as
// visible markers where a person decides (the permission prompt's command and path, tool cards,
// titles, search results), and links follow the desktop shell's policy in web mode (https: and
// mailto: open a new tab without an opener; anything else does nothing). No request leaves
// 127.0.0.1: everything else is aborted and recorded.
import { randomUUID } from "node:crypto";
import type { Locator, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import type { CliEnv } from "../support/cliEnv.js";
import { bashCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, writeHistory, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiHiddenText: /usr/bin/chromium not found, skipping browser tests");

// Raw characters a person must never see applied instead of marked.
const RawHidden = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060\uFEFF\u061C]/;

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Aborts every request not for 127.0.0.1 and records it. */
async function keepLocal(app: WebApp): Promise<string[]> {
  const leaving: string[] = [];
  await app.browser.context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1") return route.continue();
    leaving.push(route.request().url());
    return route.abort();
  });
  return leaving;
}

async function expectMarked(where: Locator, label: string): Promise<void> {
  await pw(where.locator(".hidden-char", { hasText: `⟨${label}⟩` }).first()).toBeVisible({ timeout: 30_000 });
  expect(await where.first().textContent()).not.toMatch(RawHidden);
}

function historyLines(env: CliEnv, sessionId: string, title: string, assistantText: string, extra: readonly object[] = []): object[] {
  const base = { isSidechain: false, userType: "external", entrypoint: "sdk-cli", cwd: env.cwd, sessionId, version: "2.1.197", gitBranch: "main" };
  return [
    { ...base, parentUuid: null, uuid: "u1", timestamp: "2026-01-01T10:00:00.000Z", type: "user", message: { role: "user", content: "show me the links please" } },
    {
      ...base,
      parentUuid: "u1",
      uuid: "a1",
      timestamp: "2026-01-01T10:00:01.000Z",
      type: "assistant",
      message: { id: "msg_1", type: "message", role: "assistant", model: "claude-scripted", content: [{ type: "text", text: assistantText }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
    },
    ...extra,
    { type: "custom-title", customTitle: title, sessionId },
  ];
}

async function openFirstSession(app: WebApp): Promise<void> {
  await app.baton.openLeftTab("Project");
  await app.baton.project.getByRole("button", { name: "Refresh sessions" }).click();
  await app.baton.project.getByRole("button", { name: /^Open session / }).first().click();
}

describe.skipIf(!hasChromium)("hidden characters in the browser", () => {
  it("marks bidi and zero-width characters in the Bash command and the file path a person approves", async () => {
    let cwd = "";
    app = await startWebApp(
      {
        main: [
          { blocks: [bashCall("touch safe-\u202Etxt.exe", "Create a\u200B file")] },
          { blocks: () => [{ type: "tool_use", name: "Write", input: { file_path: `${cwd}/notes\u200B\u200B.txt`, content: "hello" } }] },
          { blocks: [text("Both denied.")] },
        ],
      },
      { cwdName: "hidden-prompt-ui" },
    );
    cwd = app.env.cwd;
    const { baton } = app;
    await keepLocal(app);
    await baton.newSession();
    await baton.send("make two files");

    const bash = baton.toolCards("Bash");
    const prompt = baton.permissionOn(bash);
    await expectMarked(prompt.getByLabel("Requested action"), "U+202E");
    await pw(prompt).toContainText("contains hidden direction characters");
    await pw(prompt).toContainText("invisible characters"); // the description's zero-width space
    // The card shows the same command marked, in logical order.
    await pw(bash.getByLabel("Command")).toHaveText("$ touch safe-⟨U+202E⟩txt.exe");
    await baton.screenshot("hidden-characters-prompt");
    await prompt.getByRole("button", { name: "Deny" }).click();

    const write = baton.toolCards("Write");
    const writePrompt = baton.permissionOn(write);
    const subject = writePrompt.getByLabel("Requested action");
    await expectMarked(subject, "U+200B ×2");
    await pw(subject).toHaveText(`${cwd}/notes⟨U+200B ×2⟩.txt`);
    await pw(writePrompt).toContainText("contains invisible characters");
    await pw(writePrompt).not.toContainText("hidden direction characters");
    await writePrompt.getByRole("button", { name: "Deny" }).click();
    await pw(baton.transcript).toContainText("Both denied.", { timeout: 60_000 });
    expect(app.pageErrors).toEqual([]);
  });

  it("marks them in a session's title (tab, Project panel, Hierarchy) and in search results", async () => {
    const sessionId = randomUUID();
    app = await startWebApp(
      {},
      {
        cwdName: "hidden-title-ui",
        withStore: true,
        prepare: async (env) => void (await writeHistory(env, sessionId, historyLines(env, sessionId, "Invoice \u202Efdp.exe", "The quarterly\u200Bzanzibar report is ready."))),
      },
    );
    const { baton } = app;
    await keepLocal(app);
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    await expectMarked(baton.project.locator(".session-item .title"), "U+202E");
    await baton.project.getByRole("button", { name: /^Open session / }).first().click();
    await expectMarked(baton.sessionTabs.getByRole("tab", { selected: true }), "U+202E");
    await expectMarked(baton.transcript.locator(".assistant"), "U+200B");
    await baton.openLeftTab("Hierarchy");
    await expectMarked(baton.hierarchy.locator(".conductor"), "U+202E");

    await app.store!.index(app.env.projectsDir);
    await baton.openLeftTab("Project");
    await baton.project.getByRole("searchbox", { name: "Search history" }).fill("zanzibar");
    const hits = baton.project.getByRole("list", { name: "Search results" });
    await expectMarked(hits.locator(".hit-title"), "U+202E");
    await expectMarked(hits.locator(".snippet"), "U+200B");
    expect(app.pageErrors).toEqual([]);
  });
});

describe.skipIf(!hasChromium)("links in web mode", () => {
  it("opens https: links in a new tab without an opener; javascript:, http: and other links do nothing", async () => {
    const sessionId = randomUUID();
    const markdown = [
      "Bad: [js](javascript:alert(document.domain)) [plain](http://plain.example/x) [file](file:///etc/passwd)",
      "[ent](javascript&#58;alert(2)) [rel](//evil.example/x) <vbscript:msgbox(1)>",
      "Good: [docs](https://docs.example/ok)",
    ].join("\n\n");
    const webFetch = (id: string, url: string) => [
      { type: "tool_use", id, name: "WebFetch", input: { url, prompt: "summarise" } },
    ];
    const toolLines = (env: CliEnv, id: string, url: string, n: number): object[] => [
      {
        parentUuid: "a1", isSidechain: false, userType: "external", cwd: env.cwd, sessionId, version: "2.1.197", uuid: `t${n}`, timestamp: `2026-01-01T10:00:0${n + 1}.000Z`, type: "assistant",
        message: { id: `msg_t${n}`, type: "message", role: "assistant", model: "claude-scripted", content: webFetch(id, url), stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
      },
    ];
    app = await startWebApp(
      {},
      {
        cwdName: "links-ui",
        prepare: async (env) =>
          void (await writeHistory(env, sessionId, historyLines(env, sessionId, "Links", markdown, [...toolLines(env, "toolu_js", "javascript:alert(3)", 2), ...toolLines(env, "toolu_https", "https://fetch.example/page", 3)]))),
      },
    );
    const { baton, page } = app;
    const leaving = await keepLocal(app);
    const popups: Page[] = [];
    page.on("popup", (p) => popups.push(p));
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const startUrl = page.url();
    await openFirstSession(app);
    const md = baton.transcript.locator(".assistant .md");
    await pw(md).toContainText("Good:", { timeout: 30_000 });

    // Refused links are not links: the markdown shows them as text, so only the https one is an anchor.
    await pw(md.locator("a")).toHaveCount(1);
    await pw(md.locator("a")).toHaveAttribute("href", "https://docs.example/ok");
    for (const shown of ["javascript:alert(document.domain)", "http://plain.example/x", "file:///etc/passwd", "//evil.example/x"]) {
      await pw(md).toContainText(shown);
    }
    await md.getByText("javascript:alert(document.domain)").click();
    await md.getByText("http://plain.example/x").click();
    const refusedFetch = baton.toolCards("WebFetch").filter({ hasText: "javascript:alert(3)" });
    await pw(refusedFetch.locator(".url.refused")).toHaveText("javascript:alert(3)");
    await refusedFetch.locator(".url.refused").click();

    // The allowed link opens one new tab, with no opener; its request is stopped at the route.
    const popup = page.waitForEvent("popup");
    await md.getByRole("link", { name: "docs" }).click();
    const opened = await popup;
    expect(await opened.evaluate(() => window.opener)).toBeNull();
    await expect.poll(() => leaving).toContain("https://docs.example/ok");

    // The WebFetch card's https URL is a link under the same policy.
    const fetchPopup = page.waitForEvent("popup");
    await baton.toolCards("WebFetch").getByRole("link", { name: "https://fetch.example/page" }).click();
    await fetchPopup;
    await expect.poll(() => leaving).toContain("https://fetch.example/page");

    expect(popups).toHaveLength(2);
    expect(dialogs).toEqual([]);
    expect(page.url()).toBe(startUrl);
    expect(leaving.filter((u) => !u.startsWith("https://docs.example/") && !u.startsWith("https://fetch.example/"))).toEqual([]);
  });
});

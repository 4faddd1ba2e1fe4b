// One title, honest figures and export, in Chromium through web mode (issue 34), over real CLI
// history: the 2.1.332 deep-nesting recording (main → Top → Middle → Deepest agent) with a hostile
// answer planted two agents deep (script, an image, a style sheet and a frame from a server this
// test runs), and a session started by a slash command the model was sent.
// * The list, the tab and the Hierarchy's root show one title, never the command's markup.
// * A restored session's cost and tokens are unknown ("—", with why), not "$0.00".
// * Export… as HTML downloads one file that, opened in Chromium with every request watched,
//   shows a section for each subagent at its depth, runs nothing and asks for nothing.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { appendLines, assistant, Planted, plantHistory, type PlantedHistory } from "../support/plantedHistory.js";
import { tempDirs } from "../support/tempDirs.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiExport: /usr/bin/chromium not found, skipping browser tests");

const tempDir = tempDirs("baton-ui-export-");
let app: WebApp | undefined;
let bait: http.Server | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  await new Promise<void>((resolve) => (bait === undefined ? resolve() : bait.close(() => resolve())));
  bait = undefined;
});

/** A server the planted answer points at: any request it gets is one that left the page. */
async function startBait(): Promise<{ readonly origin: string; readonly hits: string[] }> {
  const hits: string[] = [];
  bait = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    res.end("");
  });
  await new Promise<void>((resolve) => bait!.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(bait.address() as AddressInfo).port}`, hits };
}

const CommandSessionId = "7c7c7c7c-1111-4222-8333-444444444444";
const CommandTitle = "/orchestrator build the checkout page";

/** A session whose first prompt is a command the model was sent (markup, then its expanded prompt). */
function writeCommandSession(projectsDir: string): void {
  const dir = path.join(projectsDir, "-home-user-code-commands");
  fs.mkdirSync(dir, { recursive: true });
  const envelope = (n: number) => ({ parentUuid: n === 1 ? null : `c${n - 1}`, isSidechain: false, userType: "external", cwd: "/home/user/code/commands", sessionId: CommandSessionId, version: "2.1.332", gitBranch: "main", uuid: `c${n}`, timestamp: `2026-12-02T10:00:0${n}.000Z` });
  const lines = [
    { ...envelope(1), type: "user", message: { role: "user", content: "<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>build the checkout page</command-args>" } },
    { ...envelope(2), type: "user", isMeta: true, message: { role: "user", content: [{ type: "text", text: "Split the task into parallel parts." }] } },
    { ...envelope(3), type: "assistant", message: { id: "msg_c3", type: "message", role: "assistant", model: "claude-opus-4-8", content: [{ type: "text", text: "Splitting it up." }], usage: { input_tokens: 5, output_tokens: 3 } } },
  ];
  fs.writeFileSync(path.join(dir, `${CommandSessionId}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}

describe.skipIf(!hasChromium)("one title, honest figures and export, in the browser", () => {
  it("shows one title in the list, the tab and the Hierarchy, and unknown figures for a restored session", async () => {
    app = await startWebApp({}, { cwdName: "titles-ui", prepare: async (env) => writeCommandSession(env.projectsDir) });
    const { baton, page } = app;
    await baton.openPanel("Project");
    const entry = baton.project.getByRole("button", { name: `Open session ${CommandTitle}` });
    await pw(entry.locator(".title")).toHaveText(CommandTitle, { timeout: 15_000 });
    await entry.click();
    const tab = baton.sessionTabs.getByRole("tab", { selected: true });
    await pw(tab).toContainText(CommandTitle, { timeout: 20_000 });
    await baton.openPanel("Hierarchy");
    await pw(baton.hierarchy).toContainText(CommandTitle);
    for (const where of [baton.project, baton.sessionTabs, baton.hierarchy]) await pw(where).not.toContainText("command-");
    // History keeps no turn results: the cost and tokens are not known, and say why.
    const toolbar = page.getByRole("toolbar", { name: "Session controls" });
    await pw(toolbar.getByLabel("Session cost: not recorded in history")).toHaveText("cost —");
    await pw(toolbar.getByLabel("Tokens of the last turn: not recorded in history")).toHaveText("tokens —");
    await pw(toolbar).not.toContainText("$0.00");
    await baton.screenshot("restored-figures");
    expect(app.pageErrors).toEqual([]);
  });

  it("exports a restored 3-level session as HTML that opens with every subagent's section and sends no request", async () => {
    const { origin, hits } = await startBait();
    let planted: PlantedHistory | undefined;
    const hostile = `<script>window.pwned = 1</script><img src="${origin}/img.png"><link rel="stylesheet" href="${origin}/style.css"><iframe src="${origin}/frame"></iframe><style>body{background:url(${origin}/bg.png)}</style>`;
    app = await startWebApp({}, {
      cwdName: "export-ui",
      prepare: async (env) => {
        planted = plantHistory(env.projectsDir, "2.1.332");
        appendLines(planted.depth2File, (e) => [assistant(e(), [{ type: "text", text: `Middle agent notes ${hostile}` }])]);
      },
    });
    const h = planted!;
    const { baton, page } = app;
    await baton.openPanel("Project");
    await baton.project.getByRole("button", { name: "Open session Quillwort migration plan" }).click();
    await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toContainText("Quillwort migration plan", { timeout: 20_000 });

    await clickExport(app);
    const dialog = page.getByRole("dialog", { name: "Export session" });
    await dialog.getByRole("radio", { name: /^HTML/ }).check();
    expect(await dialog.getByRole("checkbox", { name: "Tool outputs" }).isChecked()).toBe(true);
    expect(await dialog.getByRole("checkbox", { name: "Thinking" }).isChecked()).toBe(true);
    await baton.screenshot("export-dialog");
    const downloading = page.waitForEvent("download", { timeout: 60_000 });
    await dialog.getByRole("button", { name: "Export", exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`quillwort-migration-plan-${h.sessionId.slice(0, 8)}.html`);
    const file = path.join(tempDir(), download.suggestedFilename());
    await download.saveAs(file);
    await pw(dialog).not.toBeVisible();

    // The file alone, in a page of its own: every request it makes is seen, and refused.
    const reader = await app.browser.context.newPage();
    const url = pathToFileURL(file).href;
    const requests: string[] = [];
    reader.on("request", (r) => {
      if (r.url() !== url) requests.push(r.url());
    });
    await reader.route("**/*", (route) => (route.request().url() === url ? route.continue() : route.abort()));
    const refused: string[] = [];
    reader.on("console", (m) => refused.push(m.text()));
    await reader.goto(url);
    const agents = reader.locator("details.agent");
    await pw(agents).toHaveCount(3);
    for (const [depth, name] of [[1, "Top agent"], [2, "Middle agent"], [3, "Deepest agent"]] as const) {
      const section = reader.locator(`details.agent[data-depth="${depth}"]`);
      await pw(section).toHaveCount(1);
      await pw(section.locator(":scope > summary")).toContainText(`Subagent general-purpose: ${name}`);
    }
    // Folded sections open by a click, no script needed: the deepest agent's Bash and the planted output.
    await reader.locator('details.agent[data-depth="1"] > summary').click();
    await reader.locator('details.agent[data-depth="2"] > summary').click();
    await reader.locator('details.agent[data-depth="3"] > summary').click();
    await pw(reader.locator('details.agent[data-depth="3"]').getByText("echo from-depth-three").first()).toBeVisible();
    await pw(reader.locator('details.agent[data-depth="2"]')).toContainText(`test_checkout_flow: ${Planted.deepOutput} mismatch`);
    // The hostile answer is there as text, and did nothing.
    await pw(reader.locator('details.agent[data-depth="2"]')).toContainText("<script>window.pwned = 1</script>");
    expect(await reader.locator("script, img, link, iframe, object, embed").count()).toBe(0);
    expect(await reader.evaluate(() => (window as { pwned?: unknown }).pwned)).toBeUndefined();
    expect(await reader.locator("style").count()).toBe(1);
    expect(requests).toEqual([]);
    expect(hits).toEqual([]);
    expect(refused).toEqual([]);
    await reader.close();
    expect(app.pageErrors).toEqual([]);
  });
});

/** Clicks the toolbar's Export… button, from the "…" menu when the toolbar folded it away. */
async function clickExport(a: WebApp): Promise<void> {
  const toolbar = a.page.getByRole("toolbar", { name: "Session controls" });
  const button = toolbar.getByRole("button", { name: "Export…" });
  await expect.poll(() => button.isEnabled(), { timeout: 10_000 }).toBe(true);
  if (!(await button.isVisible())) await toolbar.getByRole("button", { name: "More toolbar items" }).click();
  await a.page.getByRole("button", { name: "Export…" }).and(a.page.locator(":visible")).click();
}

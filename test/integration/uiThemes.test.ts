// Browser tests of the themes: in a busy window (a session with cards, a subagent expanded, a
// permission prompt waiting, highlighted code, the Console, the Project panel's list and search
// hits) every visible text passes WCAG AA in light and in dark; "System" follows the system's
// scheme as it changes; the choice survives a reload. Writes the screenshots the README shows.
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { writePromptSession } from "../support/historyFiles.js";
import { agentCall, bashCall, text, thinking } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { describeProblems, textContrast } from "../support/ui/contrast.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiThemes: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const Answer = [
  "Here is what I found in **the parser**, with [its notes](https://example.com/notes):",
  "",
  "```ts",
  "// the entry point",
  'export function parse(source: string): Node[] {',
  '  const limit = 42; return tokens(source, { limit, strict: true });',
  "}",
  "```",
  "",
  "| file | lines |",
  "|---|---|",
  "| `parser.ts` | 120 |",
].join("\n");

/** The window's frame colour: what a person sees change from dark to light. */
function backgroundLuminance(page: Page): Promise<number> {
  return page.evaluate(() => {
    const m = /(\d+)\D+(\d+)\D+(\d+)/.exec(getComputedStyle(document.documentElement).backgroundColor);
    const [r, g, b] = m === null ? [0, 0, 0] : [Number(m[1]), Number(m[2]), Number(m[3])];
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  });
}

async function expectReadable(page: Page, theme: string, panel: string): Promise<void> {
  const { checked, problems } = await textContrast(page);
  expect(problems, `${theme} theme, ${panel}: text below WCAG AA\n${describeProblems(problems)}`).toEqual([]);
  // The busy window has well over this many texts in sight: fewer means the check saw nothing.
  expect(checked).toBeGreaterThan(80);
}

describe.skipIf(!hasChromium)("themes in the browser", () => {
  it("every visible text passes WCAG AA in a busy window, light and dark; screenshots of both", async () => {
    app = await startWebApp(
      {
        main: [
          { blocks: [thinking("The parser first, then a file to mark the check."), text(Answer), agentCall("Survey the parser", "[[SUB-A]] survey", { run_in_background: false })] },
          { blocks: [bashCall("touch theme-check.txt", "Mark the check")] },
          { blocks: [text("Marked.")] },
        ],
        "SUB-A": [{ blocks: [bashCall("echo surveyed", "Echo the survey")] }, { blocks: [text("Surveyed: 3 files, 120 lines.")] }],
      },
      {
        cwdName: "themes-ui",
        withStore: true,
        viewport: { width: 1600, height: 1000 },
        prepare: async (env) => {
          writePromptSession(env.projectsDir, "11111111-1111-4111-8111-111111111111", "Refactor the parser for speed");
          writePromptSession(env.projectsDir, "22222222-2222-4222-8222-222222222222", "Write the release notes");
        },
      },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("survey the parser, then mark it");
    const card = baton.subagentCard("general-purpose", "Survey the parser");
    const bash = baton.toolCards("Bash").filter({ hasText: "touch theme-check.txt" });
    await pw(baton.permissionOn(bash)).toContainText("touch theme-check.txt", { timeout: 60_000 });
    await baton.expand(card);
    await pw(baton.toolCards("Bash", card)).toHaveCount(1);
    await pw(card).toContainText("Surveyed: 3 files, 120 lines.");
    await pw(baton.transcript.locator(".hljs-keyword").first()).toBeVisible();
    await pw(baton.console.getByRole("list", { name: "Log entries" })).toContainText("session started");
    await pw(page.getByLabel("Session status")).toHaveText("waiting for you");

    const theme = page.getByRole("combobox", { name: "Theme" });
    for (const [choice, name] of [["light", "Light"], ["dark", "Dark"]] as const) {
      await theme.selectOption(choice);
      await pw(page.locator("html")).toHaveAttribute("data-theme", choice);
      // The Hierarchy in front, an agent selected into the Inspector.
      await baton.openLeftTab("Hierarchy");
      await baton.hierarchy.getByRole("treeitem").filter({ hasText: "Survey the parser" }).first().click();
      await pw(baton.inspector).toContainText("[[SUB-A]] survey");
      await expectReadable(page, name, "Hierarchy, transcript, Inspector, Console");

      // The session graph follows the theme too.
      await baton.panelTab("Graph").click();
      await pw(page.getByRole("region", { name: "Session graph" }).locator(".graph-node").filter({ hasText: "Survey the parser" })).toBeVisible();
      await expectReadable(page, name, "Graph");
      await baton.panelTab("Console").click();

      // The Project panel: the history list, then search hits with their marks.
      await baton.openLeftTab("Project");
      await pw(baton.project.getByRole("button", { name: /^Open session / }).filter({ hasText: "Refactor the parser for speed" })).toBeVisible({ timeout: 20_000 });
      await expectReadable(page, name, "Project list");
      await app.store!.index(app.env.projectsDir);
      const search = baton.project.getByRole("searchbox", { name: "Search history" });
      await search.fill("parser");
      await pw(baton.project.getByRole("list", { name: "Search results" }).locator("mark").first()).toBeVisible({ timeout: 10_000 });
      await expectReadable(page, name, "Project search");
      await baton.screenshot(`theme-${choice}`);
      await search.fill("");
    }
    expect(app.pageErrors).toEqual([]);
  });

  it("System follows the system's scheme as it changes; a chosen theme holds and survives a reload", async () => {
    app = await startWebApp({ main: [] }, { cwdName: "themes-system" });
    const { page, baton } = app;
    const theme = page.getByRole("combobox", { name: "Theme" });
    const html = page.locator("html");
    expect(await theme.inputValue()).toBe("system");

    await page.emulateMedia({ colorScheme: "light" });
    await pw(html).toHaveAttribute("data-theme", "light");
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.7);
    await page.emulateMedia({ colorScheme: "dark" });
    await pw(html).toHaveAttribute("data-theme", "dark");
    expect(await backgroundLuminance(page)).toBeLessThan(0.2);

    // Chosen: the system no longer decides, and a reload keeps the choice before anything is drawn.
    await theme.selectOption("light");
    await pw(html).toHaveAttribute("data-theme", "light");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await baton.waitReady();
    await pw(html).toHaveAttribute("data-theme", "light");
    expect(await page.getByRole("combobox", { name: "Theme" }).inputValue()).toBe("light");
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.7);

    // Back to System: the system's dark again.
    await page.getByRole("combobox", { name: "Theme" }).selectOption("system");
    await pw(html).toHaveAttribute("data-theme", "dark");
    expect(app.pageErrors).toEqual([]);
  });
});

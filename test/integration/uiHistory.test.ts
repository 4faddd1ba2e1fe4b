// Browser tests of history: reopening a session from the Project panel shows the same cards and
// loads nested steps from the sidechain; a 5,000-block session stays virtualised; untrusted
// markdown renders inert.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, writeHistory, type WebApp } from "../support/ui/webApp.js";
import type { CliEnv } from "../support/cliEnv.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiHistory: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A long session on disk: `pairs` prompts, each answered by one text block. */
function longSession(env: CliEnv, sessionId: string, pairs: number): object[] {
  const lines: object[] = [];
  let parent: string | null = null;
  let clock = Date.parse("2026-01-01T10:00:00Z");
  const envelope = () => {
    const uuid = randomUUID();
    clock += 1000;
    const e = { parentUuid: parent, isSidechain: false, uuid, timestamp: new Date(clock).toISOString(), userType: "external", entrypoint: "sdk-cli", cwd: env.cwd, sessionId, version: "2.1.197", gitBranch: "main" };
    parent = uuid;
    return e;
  };
  for (let i = 0; i < pairs; i++) {
    lines.push({ ...envelope(), type: "user", message: { role: "user", content: `Question number ${i}` }, promptSource: "sdk" });
    lines.push({
      ...envelope(),
      type: "assistant",
      message: { id: `msg_${i}`, type: "message", role: "assistant", model: "claude-scripted", content: [{ type: "text", text: `Answer number ${i}: ${"words ".repeat(i % 7 === 0 ? 60 : 8)}` }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } },
    });
  }
  return lines;
}

describe.skipIf(!hasChromium)("history in the browser", () => {
  it("reopens a finished session from the Project panel with the same cards, loading steps from the sidechain", async () => {
    app = await startWebApp(
      {
        main: [{ blocks: [agentCall("Echo via subagent", "[[SUB-A]] run two commands")] }, { blocks: [text("All done. The subagent reported back.")] }],
        "SUB-A": [
          { blocks: [bashCall("echo hello-from-sub", "Echo a greeting")] },
          { blocks: [bashCall("echo second-step", "Second step")] },
          { blocks: [text("Both commands ran.")] },
        ],
      },
      { cwdName: "restore-ui" },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("please delegate this");
    await pw(baton.transcript).toContainText("All done. The subagent reported back.", { timeout: 60_000 });
    const live = baton.subagentCard("general-purpose", "Echo via subagent");
    const liveSummary = (await live.locator(":scope > .summary-md").textContent()) ?? "";
    expect(liveSummary).toContain("Both commands ran.");

    // Close the live tab (stops the CLI), then reopen the session from history.
    await baton.sessionTabs.getByRole("button", { name: /^Close / }).click();
    await pw(live).toHaveCount(0, { timeout: 20_000 });
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    const entry = baton.project.getByRole("button", { name: /^Open session / }).first();
    await entry.click();

    const restored = baton.subagentCard("general-purpose", "Echo via subagent");
    await pw(restored).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
    await pw(restored.locator(":scope > .summary-md")).toHaveText(liveSummary.trim());
    await pw(baton.transcript).toContainText("All done. The subagent reported back.");
    await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toContainText("(history)");
    await baton.expand(restored);
    const bash = baton.toolCards("Bash", restored);
    await pw(bash).toHaveCount(2, { timeout: 20_000 });
    await pw(bash.first()).toContainText("echo hello-from-sub");
    await pw(bash.first().getByLabel("Output")).toContainText("hello-from-sub");
    await baton.screenshot("restored-session");
    expect(app.pageErrors.filter((e) => !e.includes("favicon"))).toEqual([]);
    void page;
  });

  it("restores a depth-2 subagent inside its parent and loads its own steps", async () => {
    app = await startWebApp(
      {
        // Foreground, so "Nested work finished." means the agents are done before the tab closes
        // (2.1.332 runs an Agent call in the background unless told not to).
        main: [{ blocks: [agentCall("Outer agent", "[[SUB-A]] delegate further", { run_in_background: false })] }, { blocks: [text("Nested work finished.")] }],
        "SUB-A": [{ blocks: [text("Delegating."), agentCall("Inner agent", "[[SUB-B]] run echo")] }, { blocks: [text("Inner agent reported back.")] }],
        "SUB-B": [{ blocks: [bashCall("echo from-depth-two", "Echo from the inner agent")] }, { blocks: [text("Inner done.")] }],
      },
      { cwdName: "nested-restore-ui" },
    );
    const { baton } = app;
    await baton.newSession();
    await baton.send("nest two agents");
    await pw(baton.transcript).toContainText("Nested work finished.", { timeout: 60_000 });
    await baton.sessionTabs.getByRole("button", { name: /^Close / }).click();
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    await baton.project.getByRole("button", { name: /^Open session / }).first().click();
    const outer = baton.subagentCard("general-purpose", "Outer agent");
    await pw(outer).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
    await baton.expand(outer);
    const inner = baton.subagentCard("general-purpose", "Inner agent", outer);
    await pw(inner).toBeVisible({ timeout: 20_000 });
    await baton.expand(inner);
    await pw(baton.toolCards("Bash", inner).first().getByLabel("Output")).toContainText("from-depth-two", { timeout: 20_000 });
    await baton.screenshot("restored-nested");
    expect(app.pageErrors).toEqual([]);
  });

  it("scrolls a 5,000-block session with a bounded number of mounted rows", async () => {
    const sessionId = randomUUID();
    app = await startWebApp({}, { cwdName: "long-ui", prepare: async (env) => void (await writeHistory(env, sessionId, longSession(env, sessionId, 2500))) });
    const { baton, page } = app;
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: /^Open session / }).first().click();
    await pw(baton.transcript).toContainText("Answer number 2499", { timeout: 30_000 });
    const rows = baton.conversation.locator(".row");
    const counts: number[] = [await rows.count()];
    for (const fraction of [0, 0.25, 0.5, 0.75]) {
      await baton.conversation.evaluate((el, f) => (el.scrollTop = el.scrollHeight * f), fraction);
      await page.waitForFunction(() => true);
      counts.push(await rows.count());
    }
    await baton.conversation.evaluate((el) => (el.scrollTop = 0));
    await pw(baton.transcript).toContainText("Question number 0", { timeout: 10_000 });
    counts.push(await rows.count());
    for (const n of counts) {
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(80);
    }
  });

  it("renders script, event-handler and javascript: payloads inert", async () => {
    const payload = [
      "Here is some *markdown*.",
      "<script>window.__pwned = 'script'</script>",
      '<img src="x" onerror="window.__pwned = \'img\'">',
      "[click me](javascript:window.__pwned='link')",
      "<a href=\"javascript:window.__pwned='raw'\">raw link</a>",
      "[safe](https://example.com/)",
      '<iframe src="https://example.com"></iframe>',
    ].join("\n\n");
    app = await startWebApp({ main: [{ blocks: [text(payload)] }] }, { cwdName: "xss-ui" });
    const { baton, page } = app;
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await baton.newSession();
    await baton.send("show me payloads");
    const body = baton.transcript.locator(".assistant .md").last();
    await pw(body).toContainText("Here is some markdown.", { timeout: 30_000 });
    expect(await body.locator("script, img, iframe, [onerror]").count()).toBe(0);
    await pw(body).toContainText("<script>");
    const before = page.url();
    await body.getByText("click me").click();
    await body.getByText("raw link").click();
    expect(await body.locator("a[href^='javascript']").count()).toBe(0);
    expect(page.url()).toBe(before);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await pw(body.locator("a[href='https://example.com/']")).toHaveCount(1);
  });
});

// Browser test (issue 37): each agent card's share of the session's tokens in a session reopened
// from history. Its files keep no turn results, so the share is of what they record: the main
// file's calls and every subagent file's (the scripted model reads 100 input tokens per call:
// the main thread 3 calls, the outer agent 3, the inner agent 2). The tooltip says what the share
// is of. A fork from its second prompt shows the earlier agent's share in its own tab, and its
// card and its nested agent's open there on their steps.
import { afterEach, describe, expect, it } from "vitest";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";
import { sharesScript } from "../support/scenarios/sharesScript.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiRestoredShares: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("a restored session's agent cards show their share of what its files record", () => {
  it("the outer and the nested agent's shares, out of every file's calls", async () => {
    app = await startWebApp(
      sharesScript("Outer look"),
      { cwdName: "restored-shares-ui" },
    );
    const { baton } = app;
    await baton.newSession();
    await baton.send("look around with agents");
    await pw(baton.transcript).toContainText("The agents looked.", { timeout: 60_000 });
    await baton.send("and a second question");
    await pw(baton.transcript).toContainText("Second answer.", { timeout: 60_000 });
    await baton.sessionTabs.getByRole("button", { name: /^Close / }).click();
    await baton.openLeftTab("Project");
    await baton.project.getByRole("button", { name: "Refresh sessions" }).click();
    await baton.project.getByRole("button", { name: /^Open session / }).first().click();
    await pw(baton.sessionTabs.getByRole("tab", { selected: true })).toContainText("(history)");

    // 300 of the files' 800 tokens: the outer agent's three calls, counted without opening its steps.
    const outer = baton.subagentCard("general-purpose", "Outer look");
    const outerShare = outer.getByLabel(/^Share of the session's tokens/).first();
    await pw(outerShare).toHaveText("38% of session", { timeout: 20_000 });
    expect(await outerShare.getAttribute("title")).toMatch(/^300 of the 800 input-side tokens the session's files record: input, cache read and cache write tokens of this agent's own model calls/);

    // The nested agent's card appears with its parent's steps, its share already counted from its own file.
    await baton.expand(outer);
    const inner = baton.subagentCard("general-purpose", "Inner look", outer);
    const innerShare = inner.getByLabel(/^Share of the session's tokens/);
    await pw(innerShare).toHaveText("25% of session", { timeout: 20_000 });
    expect(await innerShare.getAttribute("title")).toMatch(/^200 of the 800 input-side tokens the session's files record/);
    // Opening it reads its steps; nothing counts twice.
    await baton.expand(inner);
    await pw(baton.toolCards("Bash", inner).first().getByLabel("Output")).toContainText("inner", { timeout: 20_000 });
    await pw(innerShare).toHaveText("25% of session");
    await pw(outerShare).toHaveText("38% of session");
    await baton.screenshot("restored-shares");

    // Fork from the second prompt: the new tab holds the first turn, whose agent's calls are read
    // from the original's files: 300 of the fork's 800 (the first turn's 2 main calls, the agents'
    // 5, the fork's own answer), a live session's share.
    const second = baton.transcript.getByLabel("Prompt", { exact: true }).filter({ hasText: "and a second question" });
    await second.getByRole("group", { name: "Prompt actions" }).getByRole("button", { name: "Fork from here" }).click();
    const tabs = baton.sessionTabs.getByRole("tab");
    await pw(tabs).toHaveCount(2, { timeout: 60_000 });
    await pw(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
    await pw(baton.transcript).toContainText("Second answer.", { timeout: 60_000 });
    const forkShare = baton.subagentCard("general-purpose", "Outer look").getByLabel(/^Share of the session's tokens/).first();
    await pw(forkShare).toHaveText("38% of session", { timeout: 20_000 });
    expect(await forkShare.getAttribute("title")).toMatch(/^300 of the session's 800 tokens: input, cache read and cache write tokens/);
    // The fork's copy of that agent opens on its steps, read from the original's files (the CLI copies none), and so does its nested agent.
    const forkOuter = baton.subagentCard("general-purpose", "Outer look");
    await baton.expand(forkOuter);
    const forkInner = baton.subagentCard("general-purpose", "Inner look", forkOuter);
    await baton.expand(forkInner);
    await pw(baton.toolCards("Bash", forkInner).first().getByLabel("Output")).toContainText("inner", { timeout: 20_000 });
    expect(app.pageErrors.filter((e) => !e.includes("favicon"))).toEqual([]);
  });
});

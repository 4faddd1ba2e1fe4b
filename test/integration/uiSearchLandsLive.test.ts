// A search hit in a session Baton runs live lands on it (issue 34's landing, for the live tab), in
// Chromium with the real CLI: a session whose subagent ends its work with a planted word, and whose
// conductor says another; the Project panel's search finds both, and opening each brings the live
// tab forward (no second tab) with the hit marked: the subagent's card expanded around its
// answer, the conductor's answer in the conversation. The find bar steps through both. Before,
// a live tab refused ("Find in session works in sessions opened from history"). Both CLIs.
import { afterEach, describe, expect, it } from "vitest";
import { agentCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiSearchLandsLive: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("a search hit in a live session", () => {
  it("lands in the live tab: the subagent's card opened on its answer, the conductor's answer marked", async () => {
    app = await startWebApp(
      {
        main: [
          // Foreground on every CLI (2.1.332 backgrounds a depth-1 Agent call unless told not to).
          { blocks: [agentCall("Survey agent", "[[SUB-A]] survey the garden", { run_in_background: false })] },
          { blocks: [text("The survey is done: nothing about bogbean here.")] },
        ],
        "SUB-A": [{ blocks: [text("Found a patch of quillwort by the pond.")] }],
      },
      { cwdName: "search-live-ui", withStore: true, viewport: { width: 1500, height: 1000 } },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("Survey the garden.");
    await pw(baton.transcript).toContainText("nothing about bogbean here", { timeout: 60_000 });
    const tabs = baton.sessionTabs.getByRole("tab");
    await pw(tabs).toHaveCount(1);

    await baton.openLeftTab("Project");
    const box = baton.project.getByRole("searchbox", { name: "Search history" });
    const hits = baton.project.getByRole("list", { name: "Search results" }).getByRole("button");
    const find = page.getByRole("search", { name: "Find in session" });
    const status = find.getByRole("status", { name: "Matches" });
    const card = baton.conversation.getByRole("article", { name: /^Subagent .*: Survey agent$/ });

    // The subagent's answer: its card opens in the live tab and the word is marked there.
    // (The CLI may write the subagent's file a moment after the turn: search again until both are in.)
    await box.fill("quillwort");
    await expect
      .poll(
        async () => {
          const found = await hits.count();
          if (found < 2) {
            await box.fill("");
            await box.fill("quillwort");
          }
          return found;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(2);
    // The agent's own answer, and its result as the conductor got it.
    await hits.filter({ hasText: "in agent" }).click();
    await pw(status).toHaveText("2 of 2", { timeout: 30_000 });
    await pw(tabs).toHaveCount(1);
    await pw(baton.expandButton(card)).toHaveAttribute("aria-expanded", "true", { timeout: 30_000 });
    await pw(card.locator("mark.find-hit.current")).toHaveText("quillwort", { timeout: 30_000 });

    // The conductor's answer, marked in the conversation.
    await box.fill("bogbean");
    await pw(hits).toHaveCount(1, { timeout: 30_000 });
    await hits.first().click();
    await pw(status).toHaveText("1 of 1", { timeout: 30_000 });
    await pw(baton.conversation.locator("mark.find-hit.current")).toHaveText("bogbean");
    await pw(tabs).toHaveCount(1);
  }, 180_000);
});

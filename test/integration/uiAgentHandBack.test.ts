// Browser tests of what CLI 2.1.332 changed on subagent cards, through web mode with the real CLI:
// a foreground agent's summary is its report without the hand-back wrapping, and a SendMessage
// to a finished agent takes its card back to running, then to the newer answer.
import { afterEach, describe, expect, it } from "vitest";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { lastAgentId } from "../support/scenarios/sendMessageContinue.js";
import { sidechainHolds } from "../support/cliTranscripts.js";
import { gate } from "../support/gate.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiAgentHandBack: /usr/bin/chromium not found, skipping browser tests");

type Request = Readonly<Record<string, unknown>>;
const said = (request: Request, words: string): boolean => JSON.stringify(request["messages"] ?? []).includes(words);

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasChromium)("2.1.332 hand-backs on subagent cards", () => {
  it("a foreground card's summary is the report alone; its tools are listed, no tags", async () => {
    app = await startWebApp(
      {
        main: [
          { blocks: [agentCall("Report helper", "[[SUB-A]] run a command and report", { run_in_background: false })] },
          { blocks: [text("The helper reported.")] },
        ],
        "SUB-A": [
          { blocks: [bashCall("echo reported", "Run the command")] },
          { blocks: [text("The command printed **reported**.\n\n- one line\n- two lines")] },
        ],
      },
      { cwdName: "handback-ui" },
    );
    const { baton } = app;
    await baton.newSession();
    await baton.send("delegate and report");
    const card = baton.subagentCard("general-purpose", "Report helper");
    await pw(card).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
    const summary = card.locator(":scope > .summary-md");
    await pw(summary.locator("strong")).toHaveText("reported");
    await pw(summary.locator("li")).toHaveCount(2);
    const shown = (await summary.textContent()) ?? "";
    expect(shown).not.toMatch(/tools-used-before-summary|Subagent hand-back|agentId:|<usage>/);
    await pw(card.getByLabel("Tools used")).toHaveText("used Bash");
    expect(app.pageErrors).toEqual([]);
  });

  it("a SendMessage to a finished agent takes its card back to running, then to the newer answer", async () => {
    // Each state stays until the test has seen it: the first answer until it is on the card, the
    // resumed run until its turn has ended with the card still running.
    const firstAnswerSeen = gate();
    const resumedRunSeen = gate();
    app = await startWebApp(
      {
        main: [
          { blocks: [agentCall("Two-part helper", "[[SUB-A]] do the first part", { run_in_background: false })] },
          {
            blocks: (request) => [{ type: "tool_use", name: "SendMessage", input: { to: lastAgentId(request), summary: "second part", message: "Now do the second part." } }],
            // The CLI resumes the helper from its sidechain file: not before its first answer is there.
            waitFor: async (request, cli) => {
              await firstAnswerSeen.opened;
              await sidechainHolds(cli, lastAgentId(request), "First part done.");
            },
          },
          { blocks: [text("Sent the helper its second part.")] },
          { blocks: [text("The helper finished the second part.")] },
          { blocks: [text("Nothing more.")] },
        ],
        // By what the conversation holds: the resumed run's request holds the first run's too.
        "SUB-A": Array.from({ length: 5 }, () => ({
          blocks: (request: Request) => {
            if (said(request, "Now do the second part.")) return said(request, "echo second-part") ? [text("Second part done.")] : [bashCall("echo second-part", "Run the second part")];
            return said(request, "echo first-part") ? [text("First part done.")] : [bashCall("echo first-part", "Run the first part")];
          },
          waitFor: (request: Request) => (said(request, "Now do the second part.") ? resumedRunSeen.opened : Promise.resolve()),
        })),
      },
      { cwdName: "continue-ui" },
    );
    const { baton } = app;
    await baton.newSession();
    await baton.send("split the work in two");
    const card = baton.subagentCard("general-purpose", "Two-part helper");
    await pw(card.locator(":scope > .summary-md")).toContainText("First part done.", { timeout: 60_000 });
    await pw(card).toHaveAttribute("data-status", "completed");
    firstAnswerSeen.open();
    await pw(baton.toolCards("SendMessage")).toHaveCount(1, { timeout: 60_000 });
    await pw(card).toHaveAttribute("data-status", "running", { timeout: 60_000 });
    // The turn that resumed it ends while the agent still works: it stays running.
    await pw(baton.transcript).toContainText("Sent the helper its second part.", { timeout: 60_000 });
    await pw(card).toHaveAttribute("data-status", "running");
    resumedRunSeen.open();
    await pw(card).toHaveAttribute("data-status", "completed", { timeout: 90_000 });
    await pw(card.locator(":scope > .summary-md")).toContainText("Second part done.");
    await pw(baton.subagentCard("general-purpose", "Two-part helper")).toHaveCount(1);
    await baton.expand(card);
    await pw(baton.toolCards("Bash", card)).toHaveCount(2);
    expect(app.pageErrors).toEqual([]);
  });
});

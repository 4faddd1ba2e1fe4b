// A subagent's questions and plans in the browser (issue 24). An orchestration-mode session runs
// a coder in the foreground; what the escalation chain puts on its record (an open plan, then a
// question, then their settlements) is drawn on its card, in the Hierarchy and in the Inspector.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LiveSession } from "../../src/main/app/liveSession.js";
import type { SessionManager } from "../../src/main/app/sessionManager.js";
import type { ClientEvent } from "../../src/shared/events.js";
import { gate } from "../support/gate.js";
import { agentCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiEscalation: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const fg = { run_in_background: false };

/** Writes the settings file that turns orchestration mode on, before the app starts. */
async function orchestrationOn(home: string): Promise<void> {
  const dir = path.join(home, ".config", "baton");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "settings.json"), JSON.stringify({ orchestration: true }));
}

/** The live session of the only tab: events the escalation chain would emit go in through it. */
function liveSession(manager: SessionManager): LiveSession {
  const tabs = (manager as unknown as { tabs: Map<string, { kind: string; session: LiveSession }> }).tabs;
  const tab = [...tabs.values()].find((t) => t.kind === "live");
  if (tab === undefined) throw new Error("no live tab");
  return tab.session;
}

describe.skipIf(!hasChromium)("a subagent's questions and plans in the browser", () => {
  it("draws an open plan for review and an open question on the card, waiting in the Hierarchy, and the settled history", async () => {
    const held = gate();
    app = await startWebApp(
      {
        main: [{ blocks: [agentCall("Add a login form", "[[CODER]] add a login form", { subagent_type: "coder", ...fg })] }, { blocks: [text("The coder is done.")] }],
        CODER: [{ waitFor: () => held.opened, blocks: [text("Login form added.")] }],
      },
      { cwdName: "escalation-ui", withPolicy: true, prepare: (env) => orchestrationOn(env.home), viewport: { width: 1400, height: 900 } },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("add a login form");
    const card = baton.subagentCard("coder", "Add a login form");
    await pw(card).toHaveAttribute("data-status", "running", { timeout: 60_000 });
    const agentToolUseId = (await card.getAttribute("data-block-id")) ?? "";
    const session = liveSession(app.manager);
    const emit = (event: ClientEvent): void => session.addEvent(event);
    const at = (s: number): string => new Date(Date.UTC(2026, 11, 3, 9, 0, s)).toISOString();

    emit({ kind: "phase_changed", agentToolUseId, phase: "clarifying", at: at(0) });
    emit({ kind: "escalation_opened", id: "toolu_q1", agentToolUseId, at: at(1), question: "Which session store: cookies or JWT?", routedTo: "conductor", routeReason: "background agent" });
    emit({ kind: "escalation_settled", id: "toolu_q1", agentToolUseId, at: at(5), outcome: "answered", reply: "Cookies, httpOnly.", by: "conductor" });
    emit({ kind: "phase_changed", agentToolUseId, phase: "review", at: at(6) });
    emit({
      kind: "escalation_opened",
      id: "toolu_p1",
      agentToolUseId,
      at: at(7),
      plan: { goal: "Add a login form backed by cookie sessions", steps: ["Write `LoginForm.tsx`", "Post to /api/login"], version: 1 },
      routedTo: "person",
      routeReason: "foreground agent: the conductor waits on it",
    });
    emit({ kind: "escalation_settled", id: "toolu_p1", agentToolUseId, at: at(20), outcome: "rejected", reply: "Write the tests first.", by: "person" });
    emit({
      kind: "escalation_opened",
      id: "toolu_p2",
      agentToolUseId,
      at: at(30),
      plan: {
        goal: "Add a login form backed by cookie sessions",
        steps: ["Write `login.test.tsx`: **valid** and *invalid* credentials", "Write `LoginForm.tsx`", "Post to `/api/login`; keep the session in an httpOnly cookie", "Run the tests"],
        version: 2,
      },
      routedTo: "person",
      routeReason: "foreground agent: the conductor waits on it",
    });

    // The open plan: on the card, named for the preset, waiting for the person, with the review's buttons.
    const review = card.getByRole("region", { name: "Plan from coder" }).and(card.locator("[data-state='open']"));
    await pw(review).toContainText("waiting for you", { timeout: 20_000 });
    await pw(review).toContainText("foreground agent: the conductor waits on it");
    await pw(review.locator(".plan-md strong")).toHaveText("valid");
    for (const name of ["Approve", "Approve with edits", "Reject"]) await pw(review.getByRole("button", { name, exact: true })).toBeVisible();
    await pw(review.getByRole("button", { name: "Approve with edits", exact: true })).toHaveAttribute("disabled", "");
    await pw(review.getByRole("button", { name: "Reject", exact: true })).toHaveAttribute("disabled", "");
    await pw(card.locator(":scope > header [data-phase]")).toHaveText("review");
    // The settled ones, compact: the question and its answer; the rejected first version with its feedback.
    const settledQuestion = card.getByRole("region", { name: "Question from coder" });
    await pw(settledQuestion).toContainText("Which session store: cookies or JWT?");
    await pw(settledQuestion).toContainText("Cookies, httpOnly.");
    await pw(settledQuestion).toContainText("answered by the conductor");
    await pw(card.locator("[data-escalation-id='toolu_p1']")).toContainText("rejected by you");
    await pw(card.locator("[data-escalation-id='toolu_p1']")).toContainText("Write the tests first.");

    // The Hierarchy says the coder waits, and on whom; the Inspector has its history in order.
    const node = baton.hierarchy.getByRole("treeitem", { name: "coder: Add a login form" });
    await pw(node.getByRole("img", { name: /waiting/ })).toHaveAttribute("aria-label", "waiting for you");
    await pw(node.locator("[data-phase]").first()).toHaveAttribute("data-phase", "review");
    await card.getByRole("button", { name: "Inspect Add a login form" }).click();
    const history = baton.inspector.getByRole("list", { name: "Questions and plans" });
    const titles = () => history.locator(":scope > li b").allTextContents();
    await expect.poll(titles).toEqual(["Question", "Answer by the conductor", "Plan v1", "Rejected by you", "Plan v2"]);

    // Editing turns on "Approve with edits"; feedback turns on "Reject".
    await review.getByRole("button", { name: "Edit", exact: true }).click();
    await review.getByRole("textbox", { name: "Plan" }).fill("Goal: Add a login form backed by cookie sessions\n\n1. Write `login.test.tsx`\n2. Write `LoginForm.tsx`\n3. Run the tests");
    await pw(review.getByRole("button", { name: "Approve with edits", exact: true })).not.toHaveAttribute("disabled", "");
    await review.getByRole("button", { name: "Preview", exact: true }).click();
    await review.getByRole("textbox", { name: "Feedback" }).fill("Also cover the lockout after 5 tries.");
    await pw(review.getByRole("button", { name: "Reject", exact: true })).not.toHaveAttribute("disabled", "");
    await review.getByRole("textbox", { name: "Feedback" }).fill("");
    await review.getByRole("button", { name: "Edit", exact: true }).click();
    await review.getByRole("textbox", { name: "Plan" }).fill(
      "Goal: Add a login form backed by cookie sessions\n\n1. Write `login.test.tsx`: **valid** and *invalid* credentials\n2. Write `LoginForm.tsx`\n3. Post to `/api/login`; keep the session in an httpOnly cookie\n4. Lock the form for a minute after **5 failed tries**\n5. Run the tests",
    );
    await review.getByRole("button", { name: "Preview", exact: true }).click();
    await card.scrollIntoViewIfNeeded();
    await baton.screenshot("subagent-plan-review");

    // Settled (here by the conductor): the view turns compact and shows the plan the agent went on with.
    emit({ kind: "escalation_settled", id: "toolu_p2", agentToolUseId, at: at(40), outcome: "approved", approvedPlan: "Goal: ship it\n\n1. **Tests** first", by: "conductor" });
    emit({ kind: "phase_changed", agentToolUseId, phase: "executing", at: at(41) });
    const approved = card.locator("[data-escalation-id='toolu_p2']");
    await pw(approved).toHaveAttribute("data-state", "approved", { timeout: 20_000 });
    await pw(approved).toContainText("approved with edits by the conductor");
    await pw(approved.locator(".approved-plan strong")).toHaveText("Tests");
    await pw(card.locator(":scope > header [data-phase]")).toHaveText("executing");
    await pw(node.getByRole("img", { name: /waiting/ })).toHaveCount(0);

    held.open();
    await pw(baton.transcript).toContainText("The coder is done.", { timeout: 60_000 });
    expect(app.pageErrors).toEqual([]);
  });
});

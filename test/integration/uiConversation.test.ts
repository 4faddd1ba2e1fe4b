// Browser tests of steering a session: permission requests on the card of the agent that asked,
// AskUserQuestion and ExitPlanMode round trips, Esc interrupting a running subagent, and the
// conversation following its end only while the reader is there.
import fs from "node:fs";
import path from "node:path";
import type { Locator } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { agentCall, bashCall, text } from "../support/scenarios/types.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("uiConversation: /usr/bin/chromium not found, skipping browser tests");

let app: WebApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The conversation shows its last rows: scrolled to within the follow margin of the end. */
async function expectAtEnd(conversation: Locator): Promise<void> {
  await expect.poll(() => conversation.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight), { timeout: 10_000 }).toBeLessThan(48);
}

function requestText(app: WebApp, agent: string, turn: number): string {
  const r = app.model.requests.find((x) => x.agent === agent && x.turn === turn);
  return r === undefined ? "" : JSON.stringify(r.body["messages"]);
}

/** The plan file the CLI's plan-mode reminder names in a model request (`~/.claude/plans/<slug>.md`). */
function planFileNamedIn(request: Readonly<Record<string, unknown>>): string {
  const found = /\/[^\s"\\]*\/\.claude\/plans\/[^\s"\\]+\.md/.exec(JSON.stringify(request));
  if (found === null) throw new Error("the request names no plan file");
  return found[0];
}

describe.skipIf(!hasChromium)("conversation controls in the browser", () => {
  it("puts a subagent's permission requests on its card; Allow runs, Deny reports the message", async () => {
    app = await startWebApp(
      {
        main: [{ blocks: [agentCall("Asking sub", "[[SUB-A]] touch two files")] }, { blocks: [text("Permissions handled.")] }],
        "SUB-A": [
          { blocks: [bashCall("touch sub-allow.txt", "Create sub allow file")] },
          { blocks: [bashCall("touch sub-deny.txt", "Create sub deny file")] },
          { blocks: [text("One allowed, one denied.")] },
        ],
      },
      { cwdName: "permissions-ui" },
    );
    const { baton, env } = app;
    await baton.newSession();
    await baton.send("touch some files");
    const card = baton.subagentCard("general-purpose", "Asking sub");
    const prompt = baton.permissionOn(card);
    await pw(prompt).toContainText("touch sub-allow.txt", { timeout: 30_000 });
    // The session visibly waits: on the card and in the toolbar.
    await pw(card).toHaveAttribute("data-status", "running");
    await pw(baton.page.getByLabel("Session status")).toHaveText("waiting for you");
    await baton.screenshot("permission-on-subagent-card");
    await prompt.getByRole("button", { name: "Allow once", exact: true }).click();

    await pw(prompt).toContainText("touch sub-deny.txt", { timeout: 30_000 });
    expect(fs.existsSync(path.join(env.cwd, "sub-allow.txt"))).toBe(true);
    await prompt.getByRole("textbox", { name: "Deny message" }).fill("Not this file, please");
    await prompt.getByRole("button", { name: "Deny" }).click();

    await pw(baton.transcript).toContainText("Permissions handled.", { timeout: 60_000 });
    await pw(prompt).toHaveCount(0);
    expect(fs.existsSync(path.join(env.cwd, "sub-deny.txt"))).toBe(false);
    await baton.expand(card);
    const denied = baton.toolCards("Bash", card).filter({ hasText: "touch sub-deny.txt" });
    await pw(denied).toContainText("Not this file, please", { timeout: 10_000 });
    await pw(baton.toolCards("Bash", card).filter({ hasText: "touch sub-allow.txt" })).toContainText("allowed");
    expect(app.pageErrors).toEqual([]);
  });

  it("shows each parallel subagent's request on its own card, answered independently", async () => {
    app = await startWebApp(
      {
        main: [
          // Foreground, so "Both asked." means both subagents are done (2.1.332 backgrounds an unset call).
          {
            blocks: [
              agentCall("Left task", "[[SUB-A]] touch left", { run_in_background: false }),
              agentCall("Right task", "[[SUB-B]] touch right", { run_in_background: false }),
            ],
          },
          { blocks: [text("Both asked.")] },
        ],
        "SUB-A": [{ blocks: [bashCall("touch left.txt", "Create left file")] }, { blocks: [text("Left done.")] }],
        "SUB-B": [{ blocks: [bashCall("touch right.txt", "Create right file")] }, { blocks: [text("Right done.")] }],
      },
      { cwdName: "parallel-permissions-ui" },
    );
    const { baton, env } = app;
    await baton.newSession();
    await baton.send("touch in parallel");
    const left = baton.subagentCard("general-purpose", "Left task");
    const right = baton.subagentCard("general-purpose", "Right task");
    await pw(baton.permissionOn(left)).toContainText("touch left.txt", { timeout: 30_000 });
    await pw(baton.permissionOn(right)).toContainText("touch right.txt", { timeout: 30_000 });
    await pw(baton.permissionOn(left)).not.toContainText("right.txt");
    // Answer the second one first.
    await baton.permissionOn(right).getByRole("button", { name: "Deny" }).click();
    await pw(baton.permissionOn(right)).toHaveCount(0, { timeout: 20_000 });
    await pw(baton.permissionOn(left)).toHaveCount(1);
    await baton.permissionOn(left).getByRole("button", { name: "Allow once", exact: true }).click();
    await pw(baton.transcript).toContainText("Both asked.", { timeout: 60_000 });
    expect(fs.existsSync(path.join(env.cwd, "left.txt"))).toBe(true);
    expect(fs.existsSync(path.join(env.cwd, "right.txt"))).toBe(false);
    expect(app.pageErrors).toEqual([]);
  });

  it("answers AskUserQuestion with single, multi and free-text choices", async () => {
    const questions = [
      { question: "Which color should we use?", header: "Color", multiSelect: false, options: [{ label: "Red", description: "Warm" }, { label: "Blue", description: "Cool" }] },
      { question: "Which sizes?", header: "Size", multiSelect: true, options: [{ label: "S", description: "Small" }, { label: "M", description: "Medium" }, { label: "L", description: "Large" }] },
      { question: "Which name?", header: "Name", multiSelect: false, options: [{ label: "Alpha", description: "" }, { label: "Beta", description: "" }] },
    ];
    app = await startWebApp(
      {
        main: [{ blocks: [{ type: "tool_use", name: "AskUserQuestion", input: { questions } }] }, { blocks: [text("Thanks for answering.")] }],
      },
      { cwdName: "ask-ui" },
    );
    const { baton } = app;
    await baton.newSession();
    await baton.send("ask me things");
    const form = baton.transcript.getByRole("region", { name: "Permission request" });
    await pw(form).toContainText("Which color should we use?", { timeout: 30_000 });
    await form.getByRole("radio", { name: /Blue/ }).check();
    await form.getByRole("checkbox", { name: /^S/ }).check();
    await form.getByRole("checkbox", { name: /^L/ }).check();
    await form.getByRole("textbox", { name: "Other answer to Which name?" }).fill("Gamma");
    await baton.screenshot("ask-user-question");
    await form.getByRole("button", { name: "Submit answers" }).click();
    await pw(baton.transcript).toContainText("Thanks for answering.", { timeout: 30_000 });
    const sent = requestText(app, "main", 1);
    expect(sent).toContain('\\"Which color should we use?\\"=\\"Blue\\"');
    expect(sent).toContain('\\"Which sizes?\\"=\\"S, L\\"');
    expect(sent).toContain('\\"Which name?\\"=\\"Gamma\\"');
    expect(app.pageErrors).toEqual([]);
  });

  it("reviews an ExitPlanMode plan: edit, then approve; the model gets the edited plan", async () => {
    // As a real model does: write the plan into the plan file the CLI names, then ask. 2.1.332
    // takes the plan from that file only (it drops `input.plan`); 2.1.197 takes `input.plan`.
    const plan = "# Plan\n\n1. Read the code\n2. Change it";
    app = await startWebApp(
      {
        main: [
          { blocks: (request) => [{ type: "tool_use", name: "Write", input: { file_path: planFileNamedIn(request), content: plan } }] },
          { blocks: [{ type: "tool_use", name: "ExitPlanMode", input: { plan } }] },
          { blocks: [text("Plan approved, starting.")] },
        ],
      },
      { cwdName: "plan-ui" },
    );
    const { baton, page } = app;
    await baton.newSession();
    await page.getByRole("combobox", { name: "Permission mode" }).selectOption("plan");
    await baton.send("make a plan");
    const review = baton.transcript.getByRole("region", { name: "Permission request" });
    await pw(review.getByRole("heading", { name: "Plan" })).toBeVisible({ timeout: 30_000 });
    await pw(review).toContainText("Change it");
    // The Write card shows the plan file under this machine's temp HOME: keep it out of the docs picture.
    const writeCard = await baton.toolCards("Write").elementHandle();
    await writeCard?.evaluate((el) => (el.style.display = "none"));
    await baton.screenshot("plan-review");
    await writeCard?.evaluate((el) => (el.style.display = ""));
    await review.getByRole("button", { name: "Edit" }).click();
    await review.getByRole("textbox", { name: "Plan" }).fill("# Plan\n\n1. Read the code\n2. Change it\n3. Run the tests");
    await review.getByRole("button", { name: "Approve", exact: true }).click();
    await pw(baton.transcript).toContainText("Plan approved, starting.", { timeout: 30_000 });
    expect(requestText(app, "main", 2)).toContain("3. Run the tests");
    expect(app.pageErrors).toEqual([]);
  });

  it("rejects a plan with feedback that reaches the model", async () => {
    app = await startWebApp(
      {
        main: [
          { blocks: (request) => [{ type: "tool_use", name: "Write", input: { file_path: planFileNamedIn(request), content: "# Plan\n\nDelete everything" } }] },
          { blocks: [{ type: "tool_use", name: "ExitPlanMode", input: { plan: "# Plan\n\nDelete everything" } }] },
          { blocks: [text("Understood, revising.")] },
        ],
      },
      { cwdName: "plan-reject-ui" },
    );
    const { baton, page } = app;
    await baton.newSession();
    await page.getByRole("combobox", { name: "Permission mode" }).selectOption("plan");
    await baton.send("make a plan");
    const review = baton.transcript.getByRole("region", { name: "Permission request" });
    await pw(review).toContainText("Delete everything", { timeout: 30_000 });
    await review.getByRole("textbox", { name: "Feedback" }).fill("Keep the data, only remove temp files");
    await review.getByRole("button", { name: "Reject" }).click();
    await pw(baton.transcript).toContainText("Understood, revising.", { timeout: 30_000 });
    expect(requestText(app, "main", 2)).toContain("Keep the data, only remove temp files");
  });

  it("follows the end while the reader is there, and does not move while they read further up", async () => {
    const filler = (tag: string) => Array.from({ length: 12 }, (_, i) => text(`${tag} ${i}: ${"lorem ipsum ".repeat(40)}`));
    app = await startWebApp(
      {
        main: [
          // The command waits for the test: the rest of the answer arrives while the reader is up.
          { blocks: [...filler("Early"), bashCall("while [ ! -e go ]; do sleep 0.1; done; echo released", "Wait for the reader")] },
          { blocks: filler("Late") },
          { blocks: [text("Second answer, at the end.")] },
        ],
      },
      { cwdName: "follow-ui", viewport: { width: 1280, height: 700 } },
    );
    const { baton, page, env } = app;
    await baton.newSession();
    await page.getByRole("combobox", { name: "Permission mode" }).selectOption("bypassPermissions");
    await baton.send("fill the screen");
    await pw(baton.transcript).toContainText("Early 11", { timeout: 30_000 });
    await pw(baton.toolCards("Bash")).toHaveCount(1, { timeout: 30_000 });

    await baton.conversation.evaluate((el) => (el.scrollTop = 0));
    await pw(baton.transcript).toContainText("Early 0");
    fs.writeFileSync(path.join(env.cwd, "go"), "");
    await pw(page.getByLabel("Session status")).toHaveText("idle", { timeout: 30_000 });
    expect(await baton.conversation.evaluate((el) => el.scrollTop)).toBe(0);
    await pw(baton.transcript).toContainText("Early 0");

    await baton.conversation.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await pw(baton.transcript).toContainText("Late 11");
    await baton.send("one more");
    await pw(baton.transcript).toContainText("Second answer, at the end.", { timeout: 30_000 });
    await expectAtEnd(baton.conversation);
    expect(app.pageErrors).toEqual([]);
  });

  it("interrupts a running subagent with Esc; its card shows stopped", async () => {
    app = await startWebApp(
      {
        // Foreground (2.1.332 backgrounds an unset call), and under 25 s: 2.1.332 refuses a longer
        // `sleep`. Not interrupted, the card would show completed before the wait below ends.
        main: [{ blocks: [agentCall("Long task", "[[SUB-A]] long", { run_in_background: false })] }, { blocks: [text("Still here.")] }],
        "SUB-A": [{ blocks: [bashCall("sleep 20", "Sleep a long time")] }, { blocks: [text("never reached")] }],
      },
      { cwdName: "interrupt-ui" },
    );
    const { baton } = app;
    await baton.newSession();
    await baton.send("start a long subagent");
    const card = baton.subagentCard("general-purpose", "Long task");
    await pw(baton.progressOf(card)).toContainText("Sleep a long time", { timeout: 30_000 });
    await baton.composer.focus();
    await baton.composer.press("Escape");
    await pw(card).toHaveAttribute("data-status", "stopped", { timeout: 30_000 });
    await pw(card.locator(":scope > header")).toContainText("■");
    expect(app.pageErrors).toEqual([]);
  });
});

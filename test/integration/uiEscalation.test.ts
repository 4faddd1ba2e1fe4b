// A subagent's questions and plans in the browser (issue 24): orchestration-mode sessions of the
// real CLI against the scripted model server, each with a coder in the foreground. The conductor
// waits on that coder, so what it asks and plans is the person's: they answer and review on its
// card, and the coder reads their answer, feedback or edited plan as its tool result. The phase,
// the "waiting" state in the Hierarchy and the history in the Inspector follow; an interrupt
// leaves no question hanging.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LoggedRequest } from "../support/modelServer.js";
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

/** The tool_result block for `toolUseId` in a model request, as the model reads it. */
function toolResultIn(request: LoggedRequest, toolUseId: string): string {
  const messages = request.body["messages"] as { role: string; content: unknown }[];
  for (const message of messages) {
    if (message.role !== "user" || !Array.isArray(message.content)) continue;
    const found = (message.content as { type: string; tool_use_id?: string }[]).find((b) => b.type === "tool_result" && b.tool_use_id === toolUseId);
    if (found) return JSON.stringify(found);
  }
  return "";
}

describe.skipIf(!hasChromium)("a subagent's questions and plans in the browser", () => {
  it("a foreground coder's question waits for the person on its card; their answer is the coder's tool result and the run goes on", async () => {
    app = await startWebApp(
      {
        main: [{ blocks: [agentCall("Pick a database", "[[CODER]] set up storage", { subagent_type: "coder", ...fg })] }, { blocks: [text("The coder is done.")] }],
        CODER: [
          { blocks: [{ type: "tool_use", id: "toolu_coder_ask", name: "mcp__baton__ask_conductor", input: { question: "Which database: Postgres or SQLite?" } }] },
          { blocks: [text("Going with the answer.")] },
        ],
      },
      { cwdName: "escalation-live", withPolicy: true, prepare: (env) => orchestrationOn(env.home) },
    );
    const { baton, model } = app;
    await baton.newSession();
    await baton.send("set up storage");
    const card = baton.subagentCard("coder", "Pick a database");
    const question = card.getByRole("region", { name: "Question from coder" });
    await pw(question).toContainText("waiting for you", { timeout: 60_000 });
    await pw(question).toContainText("Which database: Postgres or SQLite?");
    await pw(question).toHaveAttribute("data-state", "open");
    await pw(card.locator(":scope > header [data-phase]")).toHaveText("clarifying");
    const node = baton.agentInHierarchy("coder", "Pick a database");
    await pw(node.getByRole("img", { name: /waiting/ })).toHaveAttribute("aria-label", "waiting for you");
    // The tool card in the coder's steps points to the card's form and has none of its own.
    await baton.expand(card);
    const toolCard = baton.toolCards("mcp__baton__ask_conductor", card);
    await pw(toolCard).toContainText("answer it on the agent's card above");
    await pw(toolCard.getByRole("button", { name: "Send answer" })).toHaveCount(0);

    await question.getByRole("textbox", { name: "Answer" }).fill("SQLite, in data/app.db");
    await question.getByRole("button", { name: "Send answer", exact: true }).click();

    // The coder reads the person's answer as the tool's result, and the run goes on.
    const next = await model.waitForRequest((r) => r.agent === "CODER" && r.turn === 1, 60_000);
    expect(toolResultIn(next, "toolu_coder_ask")).toContain("SQLite, in data/app.db");
    await pw(question).toHaveAttribute("data-state", "answered");
    await pw(question).toContainText("answered by you");
    await pw(question).toContainText("SQLite, in data/app.db");
    await pw(question.getByRole("button", { name: "Send answer" })).toHaveCount(0);
    await pw(toolCard).toContainText("SQLite, in data/app.db");
    await pw(node.getByRole("img", { name: /waiting/ })).toHaveCount(0);
    await pw(baton.transcript).toContainText("The coder is done.", { timeout: 60_000 });
    expect(app.pageErrors).toEqual([]);
  });

  it("an answer that comes second: the card says who answered first, then shows the answer that won", async () => {
    app = await startWebApp(
      {
        main: [{ blocks: [agentCall("Name the module", "[[CODER]] name it", { subagent_type: "coder", ...fg })] }, { blocks: [text("The coder is done.")] }],
        CODER: [
          { blocks: [{ type: "tool_use", id: "toolu_coder_ask", name: "mcp__baton__ask_conductor", input: { question: "auth or login?" } }] },
          { blocks: [text("Named.")] },
        ],
      },
      { cwdName: "escalation-race", withPolicy: true, prepare: (env) => orchestrationOn(env.home) },
    );
    const { baton, page, model, manager } = app;
    // The page's socket through a relay that can hold what the server pushes (not call results):
    // the first answer is in before the page has heard of it.
    let holding = false;
    const held: (string | Buffer)[] = [];
    const pushes: { send(m: string | Buffer): void }[] = [];
    await page.routeWebSocket(/\/ws/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => server.send(m));
      pushes.push(ws);
      server.onMessage((m) => {
        const event = typeof m === "string" && (JSON.parse(m) as { type?: string }).type === "event";
        if (holding && event) held.push(m);
        else ws.send(m);
      });
    });
    await page.reload();
    await baton.waitReady();
    await baton.newSession();
    await baton.send("name the module");
    const question = baton.subagentCard("coder", "Name the module").getByRole("region", { name: "Question from coder" });
    await pw(question).toContainText("waiting for you", { timeout: 60_000 });
    await question.getByRole("textbox", { name: "Answer" }).fill("login");

    holding = true;
    const tabId = manager.listTabs()[0]?.tabId ?? "";
    manager.answerEscalation(tabId, "toolu_coder_ask", { kind: "answer", text: "auth, as in the other window" });
    await question.getByRole("button", { name: "Send answer", exact: true }).click();
    const note = question.getByRole("alert");
    await pw(note).toContainText("Already answered by the person: auth, as in the other window");
    await pw(question).toHaveAttribute("data-state", "open");

    holding = false;
    for (const m of held.splice(0)) pushes[pushes.length - 1]?.send(m);
    await pw(question).toHaveAttribute("data-state", "answered");
    await pw(question).toContainText("auth, as in the other window");
    await pw(note).toContainText("Already answered");
    const next = await model.waitForRequest((r) => r.agent === "CODER" && r.turn === 1, 60_000);
    expect(toolResultIn(next, "toolu_coder_ask")).toContain("auth, as in the other window");
    expect(toolResultIn(next, "toolu_coder_ask")).not.toContain("login");
    expect(app.pageErrors).toEqual([]);
  });

  it("a coder's plan: a write before approval is refused, the person rejects v1 with feedback, approves v2 with edits, the coder gets the edited plan and its write runs", async () => {
    let cwd = "";
    const write = (content: string) => () => [{ type: "tool_use" as const, name: "Write", input: { file_path: path.join(cwd, "notes.md"), content } }];
    const submit = (id: string, steps: string[]) => ({ blocks: [{ type: "tool_use" as const, id, name: "mcp__baton__submit_plan", input: { goal: "Keep release notes for the login work", steps } }] });
    app = await startWebApp(
      {
        main: [{ blocks: [agentCall("Release notes", "[[CODER]] keep release notes", { subagent_type: "coder", ...fg })] }, { blocks: [text("The coder is done.")] }],
        CODER: [
          { blocks: [{ type: "tool_use", id: "toolu_coder_ask", name: "mcp__baton__ask_conductor", input: { question: "One file or one per release?" } }] },
          { blocks: write("too early") },
          submit("toolu_plan_v1", ["Write `notes.md`"]),
          submit("toolu_plan_v2", ["Write a **heading**", "List the *login* changes", "Write `notes.md`"]),
          { blocks: write("# Notes\n") },
          { blocks: [text("Notes written.")] },
        ],
      },
      {
        cwdName: "escalation-plan",
        withPolicy: true,
        viewport: { width: 1400, height: 900 },
        prepare: async (env) => {
          cwd = env.cwd;
          await orchestrationOn(env.home);
        },
      },
    );
    const { baton, model } = app;
    await baton.newSession();
    await baton.send("keep release notes");
    const card = baton.subagentCard("coder", "Release notes");
    const phase = card.locator(":scope > header [data-phase]");
    const node = baton.agentInHierarchy("coder", "Release notes");

    const question = card.getByRole("region", { name: "Question from coder" });
    await pw(question).toContainText("waiting for you", { timeout: 60_000 });
    await pw(phase).toHaveText("clarifying");
    await question.getByRole("textbox", { name: "Answer" }).fill("One file, newest first.");
    await question.getByRole("button", { name: "Send answer", exact: true }).click();

    // Before any plan: the write is refused, and the coder is told to submit its plan first.
    const v1 = card.locator("[data-escalation-id='toolu_plan_v1']");
    await pw(v1).toContainText("waiting for you", { timeout: 60_000 });
    const afterWrite = model.requests.find((r) => r.agent === "CODER" && r.turn === 2);
    expect(JSON.stringify(afterWrite?.body["messages"])).toContain("submit your plan first");
    expect(fs.existsSync(path.join(cwd, "notes.md"))).toBe(false);
    await pw(phase).toHaveText("review");
    await pw(node.locator("[data-phase]").first()).toHaveAttribute("data-phase", "review");
    await pw(node.getByRole("img", { name: /waiting/ })).toHaveAttribute("aria-label", "waiting for you");

    // v1 rejected with feedback (Reject needs it): the coder reads the feedback and submits v2.
    const reject = v1.getByRole("button", { name: "Reject", exact: true });
    await pw(reject).toHaveAttribute("disabled", "");
    await v1.getByRole("textbox", { name: "Feedback" }).fill("List what changed before writing.");
    await reject.click();
    const afterV1 = await model.waitForRequest((r) => r.agent === "CODER" && r.turn === 3, 60_000);
    expect(toolResultIn(afterV1, "toolu_plan_v1")).toContain("List what changed before writing.");
    await pw(v1).toHaveAttribute("data-state", "rejected");
    await pw(v1).toContainText("rejected by you");

    // v2: markdown; "Approve with edits" waits for an edit.
    const v2 = card.getByRole("region", { name: "Plan from coder" }).and(card.locator("[data-escalation-id='toolu_plan_v2']"));
    await pw(v2).toContainText("waiting for you", { timeout: 60_000 });
    await pw(v2.locator(".plan-md strong")).toHaveText("heading");
    const withEdits = v2.getByRole("button", { name: "Approve with edits", exact: true });
    await pw(withEdits).toHaveAttribute("disabled", "");
    await v2.getByRole("button", { name: "Edit", exact: true }).click();
    const edited = "Goal: Keep release notes for the login work\n\n1. Write a **heading**\n2. List the *login* changes\n3. Write `notes.md`\n4. Keep it under **20 lines**";
    await v2.getByRole("textbox", { name: "Plan" }).fill(edited);
    await v2.getByRole("button", { name: "Preview", exact: true }).click();
    await pw(withEdits).not.toHaveAttribute("disabled", "");

    // The Inspector: the coder's own history in order.
    await card.getByRole("button", { name: "Inspect Release notes" }).click();
    const history = baton.inspector.getByRole("list", { name: "Questions and plans" });
    await expect
      .poll(() => history.locator(":scope > li b").allTextContents())
      .toEqual(["Phase: clarifying", "Question", "Answer by you", "Plan v1", "Phase: review", "Rejected by you", "Phase: clarifying", "Plan v2", "Phase: review"]);
    await card.scrollIntoViewIfNeeded();
    await baton.screenshot("subagent-plan-review");

    // Approved with the edit: the coder is given the edited plan, then its write runs.
    await withEdits.click();
    const afterV2 = await model.waitForRequest((r) => r.agent === "CODER" && r.turn === 4, 60_000);
    expect(toolResultIn(afterV2, "toolu_plan_v2")).toContain("Keep it under **20 lines**");
    await pw(v2).toContainText("approved with edits by you");
    await pw(v2.locator(".approved-plan")).toContainText("Keep it under 20 lines");
    await pw(baton.transcript).toContainText("The coder is done.", { timeout: 60_000 });
    expect(fs.readFileSync(path.join(cwd, "notes.md"), "utf8")).toBe("# Notes\n");
    await pw(phase).toHaveText("completed");
    await pw(node.getByRole("img", { name: /waiting/ })).toHaveCount(0);
    expect(app.pageErrors).toEqual([]);
  });

  it("an open question when the session is interrupted: the card says it was not answered and why, and the session goes on", async () => {
    app = await startWebApp(
      {
        main: [
          { blocks: [agentCall("Ask and wait", "[[CODER]] ask", { subagent_type: "coder", ...fg })] },
          { blocks: [text("Still here.")] },
          { blocks: [text("Still here.")] },
        ],
        CODER: [{ blocks: [{ type: "tool_use", name: "mcp__baton__ask_conductor", input: { question: "Shall I wait?" } }] }, { blocks: [text("never")] }],
      },
      { cwdName: "escalation-interrupt", withPolicy: true, prepare: (env) => orchestrationOn(env.home) },
    );
    const { baton, page } = app;
    await baton.newSession();
    await baton.send("ask something");
    const card = baton.subagentCard("coder", "Ask and wait");
    const question = card.getByRole("region", { name: "Question from coder" });
    await pw(question).toContainText("waiting for you", { timeout: 60_000 });
    await page.getByRole("button", { name: /Interrupt/ }).first().click();
    await pw(question).toHaveAttribute("data-state", "failed", { timeout: 30_000 });
    await pw(question).toContainText("not answered");
    const why = await question.getByLabel("Why it was not answered").textContent();
    expect(why?.trim()).not.toBe("");
    await pw(question.getByRole("button", { name: "Send answer" })).toHaveCount(0);
    await pw(baton.agentInHierarchy("coder", "Ask and wait").getByRole("img", { name: /waiting/ })).toHaveCount(0);
    await expect.poll(() => baton.status(), { timeout: 30_000 }).not.toMatch(/working|waiting/);
    await baton.send("are you there?");
    await pw(baton.transcript).toContainText("Still here.", { timeout: 60_000 });
    expect(app.pageErrors).toEqual([]);
  });
});

// A subagent's questions and plans (issue 24) as the card, the tool cards and the Inspector's
// history draw them, rendered to static HTML, and the words they share (escalationText.ts).
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import type { Escalation } from "../../src/shared/escalation.js";
import type { Block, SubagentRecord, ToolCallRecord } from "../../src/shared/transcript.js";
import { Hierarchy } from "../../src/renderer/panels/Hierarchy.js";
import { Inspector } from "../../src/renderer/panels/Inspector.js";
import { insertNested, select, setTabs, useApp } from "../../src/renderer/state/appState.js";
import { SubagentCard } from "../../src/renderer/transcript/SubagentCard.js";
import { afterReply } from "../../src/renderer/transcript/EscalationForms.js";
import { ToolBody } from "../../src/renderer/transcript/toolBodies.js";
import {
  clockTime,
  escalationHistory,
  escalationLabel,
  isEdited,
  outcomeText,
  waitingOn,
  waitingText,
} from "../../src/renderer/transcript/escalationText.js";

const question = (fields: Partial<Escalation> = {}): Escalation => ({
  id: "toolu_ask1",
  kind: "question",
  openedAt: "2026-12-03T09:00:00.000Z",
  question: "Which database?",
  state: "open",
  routedTo: "person",
  routeReason: "foreground agent: the conductor waits on it",
  ...fields,
});
const plan = (version: number, fields: Partial<Escalation> = {}): Escalation => ({
  id: `toolu_plan${version}`,
  kind: "plan",
  openedAt: `2026-12-03T09:0${version}:00.000Z`,
  plan: { goal: "Add a login form", steps: ["Write the **form**", "Test it"], version },
  state: "open",
  routedTo: "conductor",
  routeReason: "background agent",
  ...fields,
});
const record = (fields: Partial<SubagentRecord>): SubagentRecord => ({
  toolUseId: "toolu_agent",
  taskId: "a1",
  subagentType: "coder",
  description: "Login page",
  prompt: "build it",
  background: false,
  status: "running",
  blocks: [],
  droppedBlockCount: 0,
  ...fields,
});
const card = (r: SubagentRecord): string => {
  const block: Block = { kind: "tool", id: r.toolUseId, call: { toolUseId: r.toolUseId, name: "Agent", input: {}, status: "running", subagent: r } };
  return renderToStaticMarkup(createElement(SubagentCard, { tabId: "tab-1", block }));
};
/** The HTML of the card's escalation region with this id. */
const region = (html: string, id: string): string => {
  const start = html.indexOf(`data-escalation-id="${id}"`);
  expect(start).toBeGreaterThan(-1);
  const from = html.lastIndexOf("<section", start);
  return html.slice(from, html.indexOf("</section>", start));
};

describe("escalation words", () => {
  it("names the view by kind and preset, and says who an agent waits on (the person first)", () => {
    expect(escalationLabel(question(), "coder")).toBe("Question from coder");
    expect(escalationLabel(plan(1), "coder")).toBe("Plan from coder");
    expect(waitingOn(undefined)).toBeUndefined();
    expect(waitingOn([question({ state: "answered" })])).toBeUndefined();
    expect(waitingOn([plan(1)])).toBe("conductor");
    expect(waitingOn([plan(1), question()])).toBe("person");
    expect(waitingText("person")).toBe("waiting for you");
    expect(waitingText("conductor")).toBe("waiting for the conductor");
  });

  it("says how it was settled and by whom", () => {
    expect(outcomeText(question({ state: "answered", reply: "x", settledBy: "conductor" }))).toBe("answered by the conductor");
    expect(outcomeText(plan(2, { state: "approved", approvedPlan: "Goal: y", settledBy: "person" }))).toBe("approved with edits by you");
    expect(outcomeText(plan(2, { state: "approved", settledBy: "person" }))).toBe("approved by you");
    expect(outcomeText(plan(1, { state: "rejected", reply: "no", settledBy: "person" }))).toBe("rejected by you");
    expect(outcomeText(question({ state: "failed", settledBy: "baton" }))).toBe("not answered");
  });

  it("counts an edit only when the text changed beyond whitespace", () => {
    expect(isEdited("Goal: a", "Goal: a\n")).toBe(false);
    expect(isEdited("Goal: a", "")).toBe(false);
    expect(isEdited("Goal: a", "Goal: b")).toBe(true);
  });

  it("reads a clock time, and nothing from a bad one", () => {
    expect(clockTime("2026-12-03T09:05:07.000Z")).toMatch(/^\d\d:05:07$/);
    expect(clockTime("not a time")).toBe("");
    expect(clockTime(undefined)).toBe("");
  });

  it("orders an agent's history by time: questions, plan versions, answers and reviews", () => {
    const list = [
      question({ state: "answered", reply: "Postgres", settledBy: "conductor", settledAt: "2026-12-03T09:00:30.000Z" }),
      plan(1, { state: "rejected", reply: "Add tests first", settledBy: "person", settledAt: "2026-12-03T09:01:30.000Z" }),
      plan(2, { state: "approved", approvedPlan: "Goal: edited", settledBy: "person", settledAt: "2026-12-03T09:02:30.000Z" }),
      question({ id: "toolu_ask2", openedAt: "2026-12-03T09:03:00.000Z", question: "Ship?" }),
    ];
    const history = escalationHistory(list);
    expect(history.map((h) => h.title)).toEqual(["Question", "Answer by the conductor", "Plan v1", "Rejected by you", "Plan v2", "Approved with edits by you", "Question"]);
    expect(history.map((h) => h.isPlan)).toEqual([false, false, true, false, true, true, false]);
    expect(history[3]?.text).toBe("Add tests first");
    expect(history[5]?.text).toBe("Goal: edited");
    // Phase changes go in the same order, after what happened at the same moment (which caused them).
    const phases = [
      { phase: "clarifying" as const, at: "2026-12-03T08:59:00.000Z" },
      { phase: "review" as const, at: "2026-12-03T09:01:00.000Z" },
      { phase: "executing" as const, at: "2026-12-03T09:02:30.000Z" },
    ];
    expect(escalationHistory(list, phases).map((h) => h.title)).toEqual([
      "Phase: clarifying",
      "Question",
      "Answer by the conductor",
      "Plan v1",
      "Phase: review",
      "Rejected by you",
      "Plan v2",
      "Approved with edits by you",
      "Phase: executing",
      "Question",
    ]);
  });
});

describe("after the person's answer", () => {
  it("a success or a lost race leaves the form settled, the race's message shown; another failure may be tried again", () => {
    expect(afterReply({ ok: true, value: undefined })).toEqual({ settled: true });
    expect(afterReply({ ok: false, error: { code: "conflict", message: "The conductor answered first: Postgres" } })).toEqual({
      settled: true,
      note: "The conductor answered first: Postgres",
    });
    expect(afterReply({ ok: false, error: { code: "not_found", message: "No such question" } })).toEqual({ settled: false, note: "Not sent: No such question" });
  });
});

describe("escalations on the subagent card", () => {
  it("shows the phase as a badge with data-phase, and no badge for an agent without one", () => {
    expect(card(record({ phase: "review" }))).toMatch(/<span class="chip phase phase-review" data-phase="review"[^>]*>review<\/span>/);
    expect(card(record({}))).not.toContain("data-phase");
  });

  it("an open question waiting for the person: who asks, where it waits and why, an answer box and Send answer", () => {
    const html = card(record({ escalations: [question()] }));
    expect(html).toMatch(/^<article class="card subagent\s+waiting"/);
    const q = region(html, "toolu_ask1");
    expect(q).toContain('aria-label="Question from coder"');
    expect(q).toContain('data-state="open"');
    expect(q).toContain("Login page");
    expect(q).toContain("waiting for you");
    expect(q).toContain("foreground agent: the conductor waits on it");
    expect(q).toContain("Which database?");
    expect(q).toMatch(/<textarea aria-label="Answer"/);
    expect(q).toMatch(/<button class="primary" disabled="">Send answer<\/button>/);
  });

  it("a question still waiting for the conductor can be answered by the person too", () => {
    const q = region(card(record({ escalations: [question({ routedTo: "conductor", routeReason: "background agent" })] })), "toolu_ask1");
    expect(q).toContain("waiting for the conductor");
    expect(q).toContain("Send answer");
  });

  it("an open plan: markdown, Edit, Approve, Approve with edits (until edited, disabled), Reject (needs feedback)", () => {
    const p = region(card(record({ escalations: [plan(1, { routedTo: "person" })] })), "toolu_plan1");
    expect(p).toContain('aria-label="Plan from coder"');
    expect(p).toContain("<strong>form</strong>");
    expect(p).toContain("Goal: Add a login form");
    expect(p).toMatch(/>Edit<\/button>/);
    expect(p).toMatch(/<button class="primary"[^>]*>Approve<\/button>/);
    expect(p).toMatch(/<button disabled=""[^>]*>Approve with edits<\/button>/);
    expect(p).toMatch(/<button class="danger" disabled=""[^>]*>Reject<\/button>/);
    expect(p).toMatch(/aria-label="Feedback"/);
  });

  it("settled ones are compact: question → answer and who; each plan version kept, the approved plan shown; a failure says why", () => {
    const html = card(
      record({
        status: "completed",
        escalations: [
          question({ state: "answered", reply: "Postgres", settledBy: "conductor", settledAt: "2026-12-03T09:00:30.000Z" }),
          plan(1, { state: "rejected", reply: "Add tests first", settledBy: "person", settledAt: "2026-12-03T09:01:30.000Z" }),
          plan(2, { state: "approved", approvedPlan: "Goal: Add a login form\n\n1. Test it\n2. Write the *edited* form", settledBy: "person", settledAt: "2026-12-03T09:02:30.000Z" }),
          question({ id: "toolu_ask2", question: "Deploy too?", state: "failed", reply: "the session ended before it was answered", settledBy: "baton" }),
        ],
      }),
    );
    expect(html).not.toMatch(/^<article class="card subagent\s+waiting"/);
    expect(html).not.toContain("Send answer");
    const q = region(html, "toolu_ask1");
    expect(q).toContain('data-state="answered"');
    expect(q).toMatch(/Which database\?.*→.*Postgres/s);
    expect(q).toContain("answered by the conductor");
    expect(q).toMatch(/<time [^>]*dateTime="2026-12-03T09:00:30.000Z"/i);
    const v1 = region(html, "toolu_plan1");
    expect(v1).toContain("Plan v1");
    expect(v1).toContain("rejected by you");
    expect(v1).toContain("Add tests first");
    const v2 = region(html, "toolu_plan2");
    expect(v2).toContain("approved with edits by you");
    expect(v2).toContain("<em>edited</em>");
    const failed = region(html, "toolu_ask2");
    expect(failed).toContain("not answered");
    expect(failed).toContain("the session ended before it was answered");
  });

  it("draws the model's text as text, hidden characters as markers, with the warning", () => {
    const p = region(card(record({ escalations: [question({ question: "<img src=x onerror=alert(1)> ok\u202Egnp.exe" })] })), "toolu_ask1");
    expect(p).not.toContain("<img");
    expect(p).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(p).toContain('data-hidden="direction"');
    expect(p).toContain("hidden direction characters");
  });
});

describe("tool cards of Baton's agent tools", () => {
  const call = (name: string, input: ToolCallRecord["input"], result?: ToolCallRecord["result"]): ToolCallRecord => ({
    toolUseId: "toolu_x",
    name: `mcp__baton__${name}`,
    input,
    status: result === undefined ? "running" : "completed",
    ...(result !== undefined ? { result } : {}),
  });
  const body = (c: ToolCallRecord): string => renderToStaticMarkup(createElement(ToolBody, { call: c }));

  it("ask_conductor: the question, then where to answer it, then the answer once it came", () => {
    const open = body(call("ask_conductor", { question: "Which database?" }));
    expect(open).toContain("Which database?");
    expect(open).toContain("answer it on the agent&#x27;s card above");
    expect(open).not.toContain("<textarea");
    const answered = body(call("ask_conductor", { question: "Which database?" }, { text: "Postgres", isError: false }));
    expect(answered).toMatch(/aria-label="Answer"><b>Answer:<\/b> Postgres/);
    const failed = body(call("ask_conductor", { question: "Which database?" }, { text: "Baton stopped this session.", isError: true }));
    expect(failed).toMatch(/aria-label="Not answered"><b>Not answered:<\/b> Baton stopped this session\./);
  });

  it("submit_plan: goal and numbered steps, the review once it came", () => {
    const html = body(call("submit_plan", { goal: "Add login", steps: ["Form", "Tests"] }, { text: "Rejected: add tests first", isError: false }));
    expect(html).toContain("Add login");
    expect(html).toMatch(/<ol class="bt-steps" aria-label="Steps"><li>Form<\/li><li>Tests<\/li><\/ol>/);
    expect(html).toContain("Rejected: add tests first");
    expect(html).not.toContain("Approve");
  });

  it("answer_subagent and review_subagent_plan: the agent and the answer or decision", () => {
    const answer = body(call("answer_subagent", { agent: "a1b2", answer: "Use Postgres" }));
    expect(answer).toMatch(/aria-label="Agent">a1b2</);
    expect(answer).toContain("Use Postgres");
    const review = body(call("review_subagent_plan", { agent: "a1b2", decision: "rejected", feedback: "Tests first" }));
    expect(review).toMatch(/class="chip decision rejected" aria-label="Decision">rejected</);
    expect(review).toContain("Tests first");
  });
});

describe("the Hierarchy and the Inspector", () => {
  const initial = { ...useApp.getInitialState() };
  afterEach(() => {
    Object.assign(useApp.getInitialState(), initial);
    setTabs([]);
  });
  const show = (r: SubagentRecord): void => {

    setTabs([{ tabId: "t1", title: "One", live: true }]);
    const block: Block = { kind: "tool", id: r.toolUseId, call: { toolUseId: r.toolUseId, name: "Agent", input: {}, status: "running", subagent: r } };
    insertNested("t1", "", [block]);
    select("t1", r.toolUseId, false);
    // A server render reads the app state's initial value (useSyncExternalStore's server snapshot): make it the current one.
    Object.assign(useApp.getInitialState(), useApp.getState());
  };

  it("a node waiting on an open escalation says so (icon and text, named 'waiting …') and shows its phase", () => {
    show(record({ phase: "clarifying", escalations: [question()] }));
    const html = renderToStaticMarkup(createElement(Hierarchy));
    expect(html).toMatch(/data-phase="clarifying"[^>]*data-waiting="person"/);
    expect(html).toMatch(/role="img" aria-label="waiting for you"[^>]*><span aria-hidden="true">◷ waiting for you<\/span>/);
    expect(html).toMatch(/class="chip phase phase-clarifying" data-phase="clarifying"[^>]*>clarifying</);
    show(record({ phase: "executing", escalations: [question({ state: "answered", reply: "x", settledBy: "person" })] }));
    const settled = renderToStaticMarkup(createElement(Hierarchy));
    expect(settled).not.toContain("waiting");
    expect(settled).toContain('data-phase="executing"');
  });

  it("the Inspector lists the agent's questions, plans and reviews in order, with its phase and permission history", () => {
    show(
      record({
        phase: "executing",
        escalations: [
          question({ state: "answered", reply: "Postgres", settledBy: "conductor", settledAt: "2026-12-03T09:00:30.000Z" }),
          plan(1, { state: "rejected", reply: "Add tests first", settledBy: "person", settledAt: "2026-12-03T09:01:30.000Z" }),
          plan(2, { state: "approved", settledBy: "person", settledAt: "2026-12-03T09:02:30.000Z" }),
        ],
        permissionHistory: [{ requestId: "r1", toolName: "Bash", toolUseId: "toolu_b", state: "allowed", decidedBy: "user" }],
      }),
    );
    const html = renderToStaticMarkup(createElement(Inspector));
    expect(html).toMatch(/<dt>Phase<\/dt><dd><span class="chip phase phase-executing" data-phase="executing"/);
    const history = html.slice(html.indexOf('aria-label="Questions and plans"'), html.indexOf("Permission history"));
    const order = ["Which database?", "Answer by the conductor", "Postgres", "Plan v1", "Rejected by you", "Add tests first", "Plan v2", "Approved by you"];
    const at = order.map((t) => history.indexOf(t));
    expect(at.every((i) => i > -1)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(html).toMatch(/Permission history.*Bash/s);
  });
});

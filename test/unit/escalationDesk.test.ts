// The escalation desk's rules (issue 24), with the session around it stubbed: where a question or
// plan goes first, the conductor's timeout (on a fake clock: the rule is "after this long", so the
// test moves the clock instead of waiting), the first answer winning, plan versions and phases,
// and every way an open call ends without hanging; only the conductor answers and reviews (issue
// 31), and every settlement names who answered by agent id. The real CLI runs it in
// escalationChain.test.ts and conductorOnly.test.ts.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import type { SubagentRecord } from "../../src/shared/transcript.js";
import type { BatonCaller } from "../../src/main/mcp/batonToolAccess.js";
import { EscalationDesk, type AskingAgent, type RefusedCall } from "../../src/main/orchestration/escalationDesk.js";
import type { ToolCallContext, ToolOutcome } from "../../src/main/mcp/toolRegistry.js";

function record(toolUseId: string, taskId: string, background: boolean): SubagentRecord {
  return {
    toolUseId,
    taskId,
    subagentType: "coder",
    description: "Build it",
    prompt: "build",
    background,
    status: "running",
    blocks: [],
    droppedBlockCount: 0,
  };
}

interface Harness {
  readonly desk: EscalationDesk;
  readonly events: ClientEvent[];
  readonly told: string[];
  readonly refused: RefusedCall[];
  present: boolean;
  call(toolUseId: string): { readonly context: ToolCallContext; readonly abort: (reason: string) => void };
}

/**
 * `agents`: the asking agent of each ask_conductor / submit_plan call. `callers`: who made other
 * calls; any call not named there is the conductor's.
 */
function harness(agents: Record<string, AskingAgent>, callers: Record<string, BatonCaller> = {}): Harness {
  const events: ClientEvent[] = [];
  const told: string[] = [];
  const refused: RefusedCall[] = [];
  const h: Harness = {
    events,
    told,
    refused,
    present: true,
    desk: new EscalationDesk({
      emit: (e) => events.push(e),
      tellConductor: (text) => told.push(text),
      askingAgent: (id) => (id === undefined ? undefined : agents[id]),
      callerOf: (id) => (id === undefined ? { kind: "unknown" } : (callers[id] ?? { kind: "conductor" })),
      onRefused: (r) => refused.push(r),
      agentNamed: (name) => Object.values(agents).find((a) => a.record.taskId === name || a.record.toolUseId === name)?.record,
      conductorTimeoutMs: 60_000,
      personPresent: () => h.present,
      graceMs: 30_000,
      now: () => new Date("2026-12-03T10:00:00Z"),
    }),
    call(toolUseId) {
      const controller = new AbortController();
      return { context: { signal: controller.signal, toolUseId, requestId: 1 }, abort: (reason) => controller.abort(new Error(reason)) };
    },
  };
  return h;
}

const text = (o: ToolOutcome): string => (typeof o === "string" ? o : o.text);
const isError = (o: ToolOutcome): boolean => typeof o !== "string" && o.isError === true;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("a question", () => {
  const background = { "toolu_ask": { record: record("toolu_bg", "a1b2", true), conductorWaits: false } };
  const foreground = { "toolu_ask": { record: record("toolu_fg", "c3d4", false), conductorWaits: true } };

  it("from a background agent goes to the conductor, whose answer is the agent's result", async () => {
    const h = harness(background);
    const result = h.desk.handlers().askConductor({ question: "Which port?" }, h.call("toolu_ask").context);
    expect(h.told).toHaveLength(1);
    expect(h.told[0]).toContain("[coder a1b2 asks]: Which port?");
    expect(h.told[0]).toContain('agent: "a1b2"');
    expect(h.events[0]).toMatchObject({ kind: "escalation_opened", id: "toolu_ask", agentToolUseId: "toolu_bg", question: "Which port?", routedTo: "conductor" });
    const delivered = await h.desk.handlers().answerSubagent({ agent: "a1b2", answer: "8080" }, h.call("toolu_answer").context);
    expect(text(delivered)).toContain("Delivered");
    expect(text(await result)).toBe("Answer from the conductor: 8080");
    expect(h.events.at(-1)).toMatchObject({ kind: "escalation_settled", id: "toolu_ask", outcome: "answered", reply: "8080", by: "conductor" });
  });

  it("goes to the person when the conductor does not answer in time; the person's answer wins and the conductor is told", async () => {
    const h = harness(background);
    const result = h.desk.handlers().askConductor({ question: "Which port?" }, h.call("toolu_ask").context);
    vi.advanceTimersByTime(59_999);
    expect(h.events.some((e) => e.kind === "escalation_routed")).toBe(false);
    vi.advanceTimersByTime(1);
    expect(h.events.at(-1)).toMatchObject({ kind: "escalation_routed", routedTo: "person", reason: "the conductor did not answer in 60 s" });
    expect(h.desk.answerByPerson("toolu_ask", { kind: "answer", text: "9090" })).toEqual({ ok: true });
    expect(text(await result)).toBe("Answer from the person: 9090");
    const late = await h.desk.handlers().answerSubagent({ agent: "a1b2", answer: "8080" }, h.call("toolu_answer").context);
    expect(isError(late)).toBe(true);
    expect(text(late)).toContain("already answered by the person: 9090");
    expect(h.desk.answerByPerson("toolu_ask", { kind: "answer", text: "again" })).toMatchObject({ ok: false, code: "conflict" });
  });

  it("from a foreground agent goes straight to the person, since the conductor waits on that agent", () => {
    const h = harness(foreground);
    void h.desk.handlers().askConductor({ question: "Delete the cache?" }, h.call("toolu_ask").context);
    expect(h.told).toEqual([]);
    expect(h.events[0]).toMatchObject({ kind: "escalation_opened", routedTo: "person" });
  });

  it("goes to the person when the conductor answers 'escalate'", async () => {
    const h = harness(background);
    void h.desk.handlers().askConductor({ question: "Ship it?" }, h.call("toolu_ask").context);
    const handed = await h.desk.handlers().answerSubagent({ agent: "a1b2", answer: "escalate" }, h.call("toolu_answer").context);
    expect(text(handed)).toContain("Handed to the person");
    expect(h.events.at(-1)).toMatchObject({ kind: "escalation_routed", routedTo: "person", reason: "the conductor escalated it" });
  });

  it("fails with the reason when the CLI withdraws the call, and a later answer is told so", async () => {
    const h = harness(background);
    const call = h.call("toolu_ask");
    const result = h.desk.handlers().askConductor({ question: "Which port?" }, call.context);
    call.abort("the turn was interrupted");
    expect(isError(await result)).toBe(true);
    expect(h.events.at(-1)).toMatchObject({ kind: "escalation_settled", outcome: "failed", reply: "the turn was interrupted", by: "baton" });
    expect(h.desk.answerByPerson("toolu_ask", { kind: "answer", text: "8080" })).toMatchObject({ ok: false, code: "conflict" });
  });

  it("waiting for the person fails after the grace period with no window, and not while a window is there", async () => {
    const h = harness(foreground);
    h.present = false;
    const result = h.desk.handlers().askConductor({ question: "Anyone?" }, h.call("toolu_ask").context);
    vi.advanceTimersByTime(30_000);
    expect(text(await result)).toContain("Nobody was at Baton's window");

    const h2 = harness(foreground);
    void h2.desk.handlers().askConductor({ question: "Anyone?" }, h2.call("toolu_ask").context);
    vi.advanceTimersByTime(120_000);
    expect(h2.events.some((e) => e.kind === "escalation_settled")).toBe(false);
  });

  it("is refused to the conductor itself, and to no agent at all when the session closes", async () => {
    const h = harness({});
    const own = await h.desk.handlers().askConductor({ question: "Me?" }, h.call("toolu_main").context);
    expect(isError(own)).toBe(true);
    expect(text(own)).toContain("for subagents");
    const h2 = harness(background);
    const open = h2.desk.handlers().askConductor({ question: "Which port?" }, h2.call("toolu_ask").context);
    h2.desk.close("The tab was closed.");
    expect(text(await open)).toContain("The tab was closed.");
    expect(isError(await h2.desk.handlers().askConductor({ question: "More?" }, h2.call("toolu_more").context))).toBe(true);
  });
});

describe("a plan", () => {
  const agents = {
    toolu_plan1: { record: record("toolu_fg", "c3d4", false), conductorWaits: true },
    toolu_plan2: { record: record("toolu_fg", "c3d4", false), conductorWaits: true },
  };

  it("moves the agent clarifying → review → clarifying → review → executing, each version kept, the edited plan given", async () => {
    const h = harness(agents);
    h.desk.agentSpawned("toolu_fg");
    const phases = () => h.events.flatMap((e) => (e.kind === "phase_changed" ? [e.phase] : []));
    const first = h.desk.handlers().submitPlan({ goal: "Add a limiter", steps: ["Write it"] }, h.call("toolu_plan1").context);
    expect(h.desk.phaseOf("toolu_fg")).toBe("review");
    expect(h.desk.answerByPerson("toolu_plan1", { kind: "answer", text: "no" })).toMatchObject({ ok: false, code: "invalid_argument" });
    expect(h.desk.answerByPerson("toolu_plan1", { kind: "reject", feedback: "Use a token bucket." })).toEqual({ ok: true });
    expect(text(await first)).toContain("Feedback: Use a token bucket.");
    const second = h.desk.handlers().submitPlan({ goal: "Add a token bucket", steps: ["Write it", "Test it"] }, h.call("toolu_plan2").context);
    expect(h.events.find((e) => e.kind === "escalation_opened" && e.id === "toolu_plan2")).toMatchObject({ plan: { version: 2 } });
    h.desk.answerByPerson("toolu_plan2", { kind: "approve", editedPlan: "Goal: Add a token bucket\n\n1. Write it\n2. Test it\n3. Benchmark it" });
    const approved = text(await second);
    expect(approved).toContain("with edits");
    expect(approved).toContain("3. Benchmark it");
    expect(phases()).toEqual(["clarifying", "review", "clarifying", "review", "executing"]);
    h.desk.checkAgents(() => "completed");
    expect(h.desk.phaseOf("toolu_fg")).toBe("completed");
  });

  it("an agent that ends before its plan is approved keeps its phase; continued, approved and ended again, it completes", async () => {
    const h = harness(agents);
    h.desk.agentSpawned("toolu_fg");
    let status: SubagentRecord["status"] = "completed";
    h.desk.checkAgents(() => status);
    // Never approved: a SendMessage continuation must still be held to "submit your plan first".
    expect(h.desk.phaseOf("toolu_fg")).toBe("clarifying");
    status = "running";
    h.desk.checkAgents(() => status);
    const plan = h.desk.handlers().submitPlan({ goal: "Add a limiter", steps: ["Write it"] }, h.call("toolu_plan1").context);
    h.desk.answerByPerson("toolu_plan1", { kind: "approve", editedPlan: "Goal: Add a limiter\n\n1. Write it\n" });
    await plan;
    expect(h.desk.phaseOf("toolu_fg")).toBe("executing");
    status = "completed";
    h.desk.checkAgents(() => status);
    expect(h.desk.phaseOf("toolu_fg")).toBe("completed");
  });

  it("a resumed session's desk starts from the phases its agents were left in, without new events, and never overrides one it knows", () => {
    const h = harness(agents);
    h.desk.agentSpawned("toolu_new");
    h.desk.restorePhases({
      phases: new Map([["toolu_fg", "review"], ["toolu_new", "executing"], ["toolu_done", "completed"]] as const),
      calls: new Map([["a1b2", "toolu_fg"]]),
    });
    expect(h.desk.restoredCallOf("a1b2")).toBe("toolu_fg");
    expect(h.desk.phaseOf("toolu_fg")).toBe("review");
    expect(h.desk.phaseOf("toolu_new")).toBe("clarifying");
    expect(h.desk.phaseOf("toolu_done")).toBe("completed");
    expect(h.events.filter((e) => e.kind === "phase_changed")).toHaveLength(1);
  });

  it("approved unchanged gives the agent its own plan, without claiming edits", async () => {
    const h = harness(agents);
    const result = h.desk.handlers().submitPlan({ goal: "Add a limiter", steps: ["Write it"] }, h.call("toolu_plan1").context);
    h.desk.answerByPerson("toolu_plan1", { kind: "approve", editedPlan: "Goal: Add a limiter\n\n1. Write it\n" });
    const approved = text(await result);
    expect(approved).not.toContain("with edits");
    expect(approved).toContain("1. Write it");
    expect(h.events.at(-1)).not.toHaveProperty("approvedPlan");
  });

  it("reviewed by the conductor with review_subagent_plan", async () => {
    const h = harness({ toolu_plan1: { record: record("toolu_bg", "a1b2", true), conductorWaits: false } });
    const result = h.desk.handlers().submitPlan({ goal: "Add a limiter", steps: ["Write it"] }, h.call("toolu_plan1").context);
    expect(h.told[0]).toContain("submits plan v1 for review");
    expect(isError(await h.desk.handlers().answerSubagent({ agent: "a1b2", answer: "yes" }, h.call("x").context))).toBe(true);
    await h.desk.handlers().reviewSubagentPlan({ agent: "a1b2", decision: "approved", feedback: "Keep it small." }, h.call("y").context);
    expect(text(await result)).toContain("Plan approved by the conductor");
    expect(text(await result)).toContain("Notes: Keep it small.");
  });
});

describe("only the conductor answers and reviews", () => {
  const coder = { toolu_plan1: { record: record("toolu_bg", "a1b2", true), conductorWaits: false } };
  const helper: BatonCaller = { kind: "subagent", agentId: "f00d", agentType: "general-purpose", deliberate: false };
  const settled = (h: Harness) => h.events.filter((e) => e.kind === "escalation_settled");

  it("a general-purpose subagent's review_subagent_plan is refused: the plan stays in review, the refusal names the helper; the conductor then approves", async () => {
    const h = harness(coder, { toolu_helper_review: helper });
    h.desk.agentSpawned("toolu_bg");
    const plan = h.desk.handlers().submitPlan({ goal: "Add a limiter", steps: ["Write it"] }, h.call("toolu_plan1").context);
    const refusal = await h.desk.handlers().reviewSubagentPlan({ agent: "a1b2", decision: "approved" }, h.call("toolu_helper_review").context);
    expect(isError(refusal)).toBe(true);
    expect(text(refusal)).toContain("Only the conductor (the main agent) may call review_subagent_plan");
    expect(text(refusal)).toContain("general-purpose f00d");
    expect(h.desk.phaseOf("toolu_bg")).toBe("review");
    expect(settled(h)).toEqual([]);
    expect(h.refused).toEqual([
      {
        tool: "review_subagent_plan",
        toolUseId: "toolu_helper_review",
        requestId: 1,
        caller: helper,
        args: { agent: "a1b2", decision: "approved" },
        verdict: { allowed: false, rule: "conductor-only", message: text(refusal) },
      },
    ]);

    expect(text(await h.desk.handlers().reviewSubagentPlan({ agent: "a1b2", decision: "approved" }, h.call("toolu_main_review").context))).toContain("Approved");
    expect(text(await plan)).toContain("Plan approved by the conductor");
    expect(h.desk.phaseOf("toolu_bg")).toBe("executing");
    expect(settled(h)).toEqual([expect.objectContaining({ outcome: "approved", by: "conductor", answeredBy: "main" })]);
  });

  it("a preset subagent's answer_subagent is refused, even 'escalate', and the question stays open", async () => {
    const asking = { toolu_ask: { record: record("toolu_bg", "a1b2", true), conductorWaits: false } };
    const otherCoder: BatonCaller = { kind: "subagent", agentId: "beef", agentType: "coder", deliberate: true };
    const h = harness(asking, { toolu_coder_answer: otherCoder, toolu_coder_escalate: otherCoder });
    void h.desk.handlers().askConductor({ question: "Which port?" }, h.call("toolu_ask").context);
    expect(isError(await h.desk.handlers().answerSubagent({ agent: "a1b2", answer: "8080" }, h.call("toolu_coder_answer").context))).toBe(true);
    expect(isError(await h.desk.handlers().answerSubagent({ agent: "a1b2", answer: "escalate" }, h.call("toolu_coder_escalate").context))).toBe(true);
    expect(h.events.filter((e) => e.kind === "escalation_settled" || e.kind === "escalation_routed")).toEqual([]);
    expect(h.refused.map((r) => [r.tool, r.verdict.rule, r.caller])).toEqual([
      ["answer_subagent", "conductor-only", otherCoder],
      ["answer_subagent", "conductor-only", otherCoder],
    ]);
  });

  it("a caller nobody can place is refused too (fail closed), a call without a tool_use id included", async () => {
    const h = harness(coder, { toolu_who: { kind: "unknown" } });
    void h.desk.handlers().submitPlan({ goal: "Add a limiter", steps: ["Write it"] }, h.call("toolu_plan1").context);
    const unplaced = await h.desk.handlers().reviewSubagentPlan({ agent: "a1b2", decision: "approved" }, h.call("toolu_who").context);
    expect(text(unplaced)).toContain("Baton cannot tell which agent called review_subagent_plan");
    const controller = new AbortController();
    const unnamed = await h.desk.handlers().reviewSubagentPlan({ agent: "a1b2", decision: "approved" }, { signal: controller.signal, toolUseId: undefined, requestId: 7 });
    expect(isError(unnamed)).toBe(true);
    expect(h.refused.map((r) => [r.verdict.rule, r.toolUseId, r.requestId])).toEqual([
      ["unknown-agent", "toolu_who", 1],
      ["unknown-agent", undefined, 7],
    ]);
    expect(settled(h)).toEqual([]);
  });

  it("every settlement names who answered: the person, and Baton when nobody could", async () => {
    const asking = {
      toolu_ask: { record: record("toolu_bg", "a1b2", true), conductorWaits: false },
      toolu_ask2: { record: record("toolu_bg", "a1b2", true), conductorWaits: false },
    };
    const h = harness(asking);
    const first = h.desk.handlers().askConductor({ question: "Which port?" }, h.call("toolu_ask").context);
    h.desk.answerByPerson("toolu_ask", { kind: "answer", text: "9090" });
    await first;
    const second = h.call("toolu_ask2");
    const withdrawn = h.desk.handlers().askConductor({ question: "And the host?" }, second.context);
    second.abort("the turn was interrupted");
    await withdrawn;
    expect(settled(h).map((e) => [e.by, e.answeredBy])).toEqual([
      ["person", "person"],
      ["baton", "baton"],
    ]);
  });
});

// The escalation chain on the asking agent's record (issue 24): a question or plan shows open with
// where it waits, moves when routed, settles once (the first settlement stays), plan versions are
// kept in order, the phase follows, and events for an agent whose Agent call has not arrived yet
// (a nested agent restored before its sidechain is read) land on its record when it does.

import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import { modelOf } from "../../src/main/hub/index.js";
import { ev, recordOf } from "./hubTestKit.js";

const at = "2026-12-03T10:00:00.000Z";
const opened = (id: string, agent: string, extra: Partial<Extract<ClientEvent, { kind: "escalation_opened" }>> = {}): ClientEvent => ({
  kind: "escalation_opened",
  id,
  agentToolUseId: agent,
  at,
  question: "Which port?",
  routedTo: "conductor",
  routeReason: "the agent runs in the background",
  ...extra,
});
const settled = (id: string, agent: string, reply: string, by: "conductor" | "person" | "baton" = "person"): ClientEvent => ({
  kind: "escalation_settled",
  id,
  agentToolUseId: agent,
  at,
  outcome: "answered",
  reply,
  by,
});

describe("escalations on the asking agent's record", () => {
  const start = [ev.init(), ev.prompt("go"), ev.agent("toolu_A", "coder work", null, { subagent_type: "coder" })];

  it("shows a question open, routed, then answered once: a later settlement does not replace the first", () => {
    const t = modelOf([
      ...start,
      opened("toolu_q", "toolu_A"),
      { kind: "escalation_routed", id: "toolu_q", agentToolUseId: "toolu_A", routedTo: "person", reason: "the conductor did not answer in 120 s" },
      settled("toolu_q", "toolu_A", "8080", "person"),
      settled("toolu_q", "toolu_A", "9090", "conductor"),
    ]).transcript();
    expect(recordOf(t, "toolu_A")?.escalations).toEqual([
      {
        id: "toolu_q",
        kind: "question",
        openedAt: at,
        question: "Which port?",
        state: "answered",
        routedTo: "person",
        routeReason: "the conductor did not answer in 120 s",
        reply: "8080",
        settledBy: "person",
        settledAt: at,
      },
    ]);
  });

  it("keeps plan versions in order with the phase the agent is in", () => {
    const plan = (version: number) => ({ goal: "Add a limiter", steps: ["Write it"], version });
    const t = modelOf([
      ...start,
      { kind: "phase_changed", agentToolUseId: "toolu_A", phase: "clarifying", at },
      opened("toolu_p1", "toolu_A", { question: undefined, plan: plan(1) } as never),
      { kind: "phase_changed", agentToolUseId: "toolu_A", phase: "review", at },
      { kind: "escalation_settled", id: "toolu_p1", agentToolUseId: "toolu_A", at, outcome: "rejected", reply: "Use a token bucket.", by: "person" },
      opened("toolu_p2", "toolu_A", { question: undefined, plan: plan(2) } as never),
      { kind: "escalation_settled", id: "toolu_p2", agentToolUseId: "toolu_A", at, outcome: "approved", approvedPlan: "Goal: x", by: "conductor" },
      { kind: "phase_changed", agentToolUseId: "toolu_A", phase: "executing", at },
    ]).transcript();
    const record = recordOf(t, "toolu_A");
    expect(record?.phase).toBe("executing");
    expect(record?.escalations?.map((e) => [e.kind, e.plan?.version, e.state, e.approvedPlan])).toEqual([
      ["plan", 1, "rejected", undefined],
      ["plan", 2, "approved", "Goal: x"],
    ]);
  });

  it("holds events for an agent not in the tree yet, and puts them on its record when its Agent call arrives", () => {
    const early: ClientEvent[] = [ev.init(), ev.prompt("go"), { kind: "phase_changed", agentToolUseId: "toolu_N", phase: "review", at }, opened("toolu_q", "toolu_N")];
    const before = modelOf(early).transcript();
    expect(recordOf(before, "toolu_N")).toBeUndefined();
    const t = modelOf([...early, settled("toolu_q", "toolu_N", "8080"), ev.agent("toolu_N", "nested coder", null, { subagent_type: "coder" })]).transcript();
    expect(recordOf(t, "toolu_N")).toMatchObject({ phase: "review", escalations: [{ id: "toolu_q", state: "answered", reply: "8080" }] });
  });
});

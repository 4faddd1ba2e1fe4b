// Property tests: the transcript does not depend on how the CLI happens to interleave parallel
// subagents, nor on whether a task_started comes before or after the tool_use it names (at depth 1
// and 2), nor on whether a permission request comes before its tool_use (a foreground subagent)
// or after it (the main agent, a background subagent), nor on when its answer comes.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import { modelOf, SessionModel } from "../../src/main/hub/index.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { ev } from "./hubTestKit.js";

interface AgentPlan {
  readonly startedFirst: boolean;
  /** askAfterUse: the request follows the tool_use (answerFirst is then moot: the answer follows the request). */
  readonly steps: readonly { readonly ask: boolean; readonly askAfterUse: boolean; readonly answerFirst: boolean; readonly fails: boolean }[];
  /** A depth-2 agent inside this one, and whether its task_started precedes its tool_use. */
  readonly inner: { readonly startedFirst: boolean } | null;
}

const agentPlan: fc.Arbitrary<AgentPlan> = fc.record({
  startedFirst: fc.boolean(),
  steps: fc.array(fc.record({ ask: fc.boolean(), askAfterUse: fc.boolean(), answerFirst: fc.boolean(), fails: fc.boolean() }), { maxLength: 4 }),
  inner: fc.option(fc.record({ startedFirst: fc.boolean() }), { nil: null }),
});

/** The agent's own events, in the order the CLI would send them for this one agent. */
function agentEvents(i: number, plan: AgentPlan): ClientEvent[] {
  const id = `toolu_A${i}`;
  const task = `a${i}`;
  const out: ClientEvent[] = [ev.prompt(`do agent ${i}`, id)];
  plan.steps.forEach((step, j) => {
    const use = `toolu_A${i}_s${j}`;
    const req = `req_${i}_${j}`;
    out.push(ev.progress(task, `Running step ${j}`));
    const useEvents: ClientEvent[] = [ev.use(use, "Bash", { command: `step ${j}` }, id)];
    if (step.ask) {
      const answer = ev.answer(req, j % 2 === 0 ? "allow" : "deny");
      if (step.askAfterUse) useEvents.push(ev.ask(req, use, task), answer);
      else {
        out.push(ev.ask(req, use, task));
        if (step.answerFirst) useEvents.unshift(answer);
        else useEvents.push(answer);
      }
    }
    const denied = step.ask && j % 2 === 1;
    out.push(...useEvents, ev.result(use, denied ? "Denied by user" : `out ${j}`, id, { isError: step.fails || denied }));
    out.push(ev.text(`u_${i}_${j}`, `after step ${j}`, id));
  });
  if (plan.inner !== null) {
    const inner = `toolu_A${i}_inner`;
    const started = ev.started(`a${i}_in`, inner);
    const use = ev.agent(inner, `inner of ${i}`, id);
    out.push(ev.progress(task, `inner of ${i}`, "Agent"));
    out.push(...(plan.inner.startedFirst ? [started, use] : [use, started]));
    out.push(ev.progress(`a${i}_in`, "Running inner"), ev.notified(`a${i}_in`, "completed"), ev.agentDone(inner, `inner ${i} done`, `a${i}_in`));
  }
  out.push(ev.updated(task, "completed"), ev.notified(task, "completed", `agent ${i}`), ev.agentDone(id, `agent ${i} done`, task));
  return out;
}

/**
 * Merges the main agent's Agent calls with each subagent's events in the order `picks` chooses.
 * Constraint kept: a subagent's events follow its Agent tool_use, except a task_started marked
 * `startedFirst`, which may come before it.
 */
function interleave(plans: readonly AgentPlan[], picks: readonly number[]): ClientEvent[] {
  const main = plans.map((_, i) => ({ i, event: ev.agent(`toolu_A${i}`, `agent ${i}`) }));
  const queues = plans.map((plan, i) => [ev.started(`a${i}`, `toolu_A${i}`), ...agentEvents(i, plan)]);
  const emitted = new Set<number>();
  const out: ClientEvent[] = [ev.init(), ev.prompt("go"), ev.text("u_intro", "Launching.")];
  let k = 0;
  for (;;) {
    const ready: (() => void)[] = [];
    const nextMain = main[0];
    if (nextMain !== undefined) ready.push(() => (out.push(nextMain.event), emitted.add(nextMain.i), main.shift()));
    queues.forEach((q, i) => {
      const head = q[0];
      if (head === undefined) return;
      const mayGoFirst = head.kind === "task_started" && plans[i]?.startedFirst === true;
      if (emitted.has(i) || mayGoFirst) ready.push(() => (out.push(head), q.shift()));
    });
    if (ready.length === 0) break;
    ready[(picks[k++ % Math.max(picks.length, 1)] ?? 0) % ready.length]?.();
  }
  out.push(ev.text("u_done", "All done."), ev.turnEnd(0.01));
  return out;
}

const sequential = (plans: readonly AgentPlan[]): ClientEvent[] => interleave(plans, [0]);

/** The plans in one fixed order: each task_started after its tool_use, each request before its tool_use and answered after it. */
const referenceOrder = (plans: readonly AgentPlan[]): AgentPlan[] =>
  plans.map((p) => ({
    startedFirst: false,
    steps: p.steps.map((s) => ({ ...s, askAfterUse: false, answerFirst: false })),
    inner: p.inner === null ? null : { startedFirst: false },
  }));

describe("hub properties", () => {
  it("any interleaving of parallel subagents, and either order of task_started or a permission request and its tool_use, gives the same transcript", () => {
    fc.assert(
      fc.property(fc.array(agentPlan, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { minLength: 1, maxLength: 200 }), (plans, picks) => {
        const reference = modelOf(sequential(referenceOrder(plans))).transcript();
        const model = modelOf(interleave(plans, picks));
        expect(model.transcript()).toEqual(reference);
        plans.forEach((plan, i) =>
          plan.steps.forEach((step, j) => {
            const call = model.findToolCall(`toolu_A${i}_s${j}`);
            if (step.ask) expect(call?.permission?.state).toBe(j % 2 === 0 ? "allowed" : "denied");
            expect(call?.status).toBe(step.ask && j % 2 === 1 ? "denied" : step.fails ? "failed" : "completed");
          }),
        );
      }),
      { numRuns: 150 },
    );
  });

  it("while a request waits for its answer, its call shows pending as soon as both are known, in either order", () => {
    fc.assert(
      fc.property(fc.array(agentPlan, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { minLength: 1, maxLength: 100 }), (plans, picks) => {
        const waiting = new Map<string, string>(); // requestId → toolUseId
        const model = new SessionModel();
        for (const e of interleave(plans, picks)) {
          model.apply([e]);
          if (e.kind === "permission_request") waiting.set(e.requestId, e.toolUseId);
          if (e.kind === "permission_resolved") waiting.delete(e.requestId);
          for (const [requestId, toolUseId] of waiting) {
            const call = model.findToolCall(toolUseId);
            if (call !== undefined) expect(call).toEqual(expect.objectContaining({ status: "pending", permission: expect.objectContaining({ requestId, state: "asked" }) }));
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it("one batch, batches of any sizes, or one event at a time give the same transcript; a transcript taken between batches stays as it was", () => {
    fc.assert(
      fc.property(
        fc.array(agentPlan, { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 50 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
        (plans, picks, sizes) => {
          const events = interleave(plans, picks.length === 0 ? [0] : picks);
          const whole = modelOf(events).transcript();
          const batched = new SessionModel();
          const taken: { transcript: Transcript; json: string; at: number }[] = [];
          for (let at = 0, k = 0; at < events.length; k++) {
            const size = sizes[k % sizes.length] as number;
            batched.apply(events.slice(at, at + size));
            at = Math.min(at + size, events.length);
            const transcript = batched.transcript();
            taken.push({ transcript, json: JSON.stringify(transcript), at });
          }
          const stepped = new SessionModel();
          for (const e of events) stepped.apply([e]);
          expect(batched.transcript()).toEqual(whole);
          expect(stepped.transcript()).toEqual(whole);
          for (const { transcript, json, at } of taken) {
            expect(JSON.stringify(transcript)).toBe(json);
            expect(json).toBe(JSON.stringify(modelOf(events.slice(0, at)).transcript()));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

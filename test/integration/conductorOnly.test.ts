// N1 (issue 31, "Only the conductor conducts") through the real CLI, in orchestration mode and the
// default permission mode, driven through Baton's service as the window drives it: the conductor
// spawns a coder in the background, which submits its plan; the conductor then spawns a
// general-purpose helper that calls review_subagent_plan to approve that plan. The helper's call
// is refused (it gets the error as its tool result, its card shows the call denied), the coder
// stays in review, and the trail records the refusal with the helper's agent id. Then the
// conductor approves the plan itself, without a permission prompt, the coder executes and
// completes, and the trail's one review names the conductor by agent id (`main`).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentPhase } from "../../src/shared/escalation.js";
import type { SubagentRecord, Transcript } from "../../src/shared/transcript.js";
import { batonToolId } from "../../src/main/mcp/batonTools.js";
import type { AuditTrailRow } from "../../src/main/audit/audit.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type LoggedRequest, type ModelServer } from "../support/modelServer.js";
import { agentCall, text } from "../support/scenarios/types.js";
import { openOrchestrationApp, value, type OrchestrationApp } from "../support/orchestrationApp.js";
import type { TabWatch } from "../support/tabWatch.js";
import { placedBlocks } from "../support/transcriptWalk.js";

const WaitMs = 90_000;
const SUBMIT = batonToolId("submit_plan");
const REVIEW = batonToolId("review_subagent_plan");
const Refused = "Only the conductor (the main agent) may call review_subagent_plan";

type Body = Readonly<Record<string, unknown>>;

/** The text of the request's last user message (its text blocks and tool results). */
function lastUserText(request: Body): string {
  const messages = request["messages"] as { role: string; content: unknown }[];
  return JSON.stringify([...messages].reverse().find((m) => m.role === "user")?.content ?? "");
}

/** The record of the first agent of `type`, at any depth. */
function recordOf(t: Transcript, type: string): SubagentRecord | undefined {
  return placedBlocks(t).find(({ block }) => block.call?.subagent?.subagentType === type)?.block.call?.subagent;
}

/** Whether a request of `agent` has `fragment` in its newest user message. */
function told(requests: readonly LoggedRequest[], agent: string, fragment: string): boolean {
  return requests.some((r) => r.agent === agent && lastUserText(r.body).includes(fragment));
}

describe("N1: a general-purpose subagent cannot approve a coder's plan", () => {
  let env: CliEnv;
  let model: ModelServer;
  let app: OrchestrationApp;
  let tab: TabWatch;
  let tabId: string;
  let refusedAt: Transcript;
  let finished: Transcript;
  let trail: AuditTrailRow[];
  /** The coder's name as Baton's message to the conductor gives it. */
  let coderName = "";

  beforeAll(async () => {
    env = await createCliEnv({ baseUrl: "http://127.0.0.1:1", cwdName: "conductor-only" });
    // Each agent answers what its newest message says, not a turn number: the order of the
    // conductor's messages (Baton's, the helper's result, the person's prompts) depends on timing.
    const conductor = (request: Body) => {
      const last = lastUserText(request);
      const submitted = /\[coder (\S+) submits plan v1 for review\]/.exec(last);
      if (submitted !== null) {
        coderName = submitted[1] ?? "";
        return [agentCall("Review the coder's plan", `[[HELPER]] approve the plan of ${coderName}`, { subagent_type: "general-purpose", run_in_background: false })];
      }
      if (last.includes("Helper could not approve") || last.includes("Helper approved the plan")) return [text("The helper is done.")];
      if (last.includes("approve it yourself")) return [{ type: "tool_use" as const, name: REVIEW, input: { agent: coderName, decision: "approved", feedback: "Go ahead." } }];
      if (last.includes("Approved;")) return [text("Conductor approved the plan.")];
      if (last.includes("conduct the work")) return [agentCall("Build the limiter", "[[CODER]] build it", { subagent_type: "coder", run_in_background: true })];
      return [text("Conductor waits.")];
    };
    const helper = (request: Body) => {
      const last = lastUserText(request);
      if (last.includes(Refused)) return [text("Helper could not approve: only the conductor may.")];
      // Without the fix: what the assertions below then catch.
      if (last.includes("Approved;")) return [text("Helper approved the plan.")];
      const named = /approve the plan of ([\w-]+)/.exec(last);
      return [{ type: "tool_use" as const, name: REVIEW, input: { agent: named?.[1] ?? "", decision: "approved" } }];
    };
    const coder = (request: Body) =>
      lastUserText(request).includes("Plan approved by the conductor")
        ? [text("Coder executes the approved plan.")]
        : [{ type: "tool_use" as const, name: SUBMIT, input: { goal: "Add a limiter", steps: ["Write limiter.go", "Test it"] } }];
    model = await startModelServer({
      main: Array.from({ length: 16 }, () => ({ blocks: conductor })),
      HELPER: Array.from({ length: 4 }, () => ({ blocks: helper })),
      CODER: Array.from({ length: 4 }, () => ({ blocks: coder })),
    });
    env.env["ANTHROPIC_BASE_URL"] = model.url;
    app = await openOrchestrationApp(env, WaitMs);
    ({ tab, tabId } = app);
    const core = app.core;

    value(await core.service.sendPrompt(tabId, "conduct the work"));
    // Not idle: the coder runs on in the background, waiting for its review.
    refusedAt = await tab.waitFor("the conductor's turn after the helper's", () => {
      const t = tab.transcript();
      return t.blocks.some((b) => b.kind === "text" && b.text?.includes("The helper is done.")) ? t : undefined;
    });
    value(await core.service.sendPrompt(tabId, "approve it yourself"));
    finished = await tab.waitFor("the coder completed, the session idle", () => {
      const t = tab.transcript();
      return recordOf(t, "coder")?.status === "completed" && t.status === "idle" ? t : undefined;
    });
    trail = await app.auditRows<AuditTrailRow>(finished.sessionId);
  }, 240_000);
  afterAll(async () => {
    // Also when the run above failed half way (close is idempotent).
    await app?.close();
    await model?.close();
    await env?.cleanup();
  });

  it("refuses the helper's review_subagent_plan: the helper reads why, and its card shows the call denied", () => {
    expect(coderName).not.toBe("");
    expect(told(model.requests, "HELPER", Refused)).toBe(true);
    const review = recordOf(refusedAt, "general-purpose")?.blocks.find((b) => b.call?.name === REVIEW);
    expect(review?.call?.status).toBe("denied");
  });

  it("keeps the coder in review, its plan open for the conductor, until the conductor approves it", () => {
    const coder = recordOf(refusedAt, "coder");
    expect(coder?.phase).toBe("review");
    expect(coder?.escalations).toEqual([expect.objectContaining({ kind: "plan", state: "open", routedTo: "conductor" })]);
    const done = recordOf(finished, "coder");
    expect(done?.phase).toBe("completed");
    expect(done?.escalations).toEqual([expect.objectContaining({ kind: "plan", state: "approved", settledBy: "conductor", reply: "Go ahead." })]);
    expect(told(model.requests, "CODER", "Plan approved by the conductor")).toBe(true);
  });

  it("records the refusal with the helper's agent id, the one review by the conductor as main, and no prompt for the person", () => {
    const helperId = recordOf(finished, "general-purpose")?.taskId;
    expect(helperId).toMatch(/^a[0-9a-f]+$/);
    const calls = trail.filter((r) => r.kind === "decision" && r.toolName === REVIEW);
    expect(calls).toEqual([
      expect.objectContaining({ agentId: helperId, agentType: "general-purpose", decision: "deny", rule: "conductor-only", origin: "hook", message: expect.stringContaining(Refused) }),
      // The conductor's own call: allowed by the policy, no permission request (the main agent has no id).
      expect.objectContaining({ decision: "allow", rule: "baton-tool", origin: "hook" }),
    ]);
    expect(calls[1]).not.toHaveProperty("agentId");
    const reviews = trail.filter((r) => r.kind === "review");
    expect(reviews).toEqual([expect.objectContaining({ outcome: "approved", by: "conductor", answeredBy: "main", reply: "Go ahead." })]);
    expect(trail.indexOf(calls[0]!)).toBeLessThan(trail.indexOf(reviews[0]!));
    const phases = trail.flatMap((r) => (r.kind === "phase" ? [r.phase as SubagentPhase] : []));
    expect(phases).toEqual(["clarifying", "review", "executing", "completed"]);
    expect(trail.filter((r) => r.kind === "decision" && r.origin === "person")).toEqual([]);
  });
});

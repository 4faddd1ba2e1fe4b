// The desk's own check that only the conductor answers (issue 31), as the CLI reaches it: JSON-RPC
// tools/call messages into the session's MCP server, with the session and the policy stubbed to
// say who made each call. It holds when the PreToolUse hook did not refuse the call: a subagent
// named by the hook or placed by the stream is refused, and so is a caller nobody can place; each
// refusal shows on the caller's card and is written to the trail as a decision of Baton's MCP
// server with the caller's agent id. The conductor (named by the hook, or one of its top-level
// steps when the hook's naming is gone) approves, and the settlement names it `main`.
import { afterEach, describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import type { PolicyAgent } from "../../src/shared/policy.js";
import type { Block, SubagentRecord, Transcript } from "../../src/shared/transcript.js";
import type { LiveSession } from "../../src/main/core/liveSession.js";
import { createSessionEscalations } from "../../src/main/core/sessionEscalations.js";
import type { SessionPolicy } from "../../src/main/policy/sessionPolicy.js";
import type { AuditPolicyDecision } from "../../src/main/audit/audit.js";

const coder: SubagentRecord = {
  toolUseId: "toolu_coder",
  taskId: "a1b2",
  subagentType: "coder",
  description: "Build it",
  prompt: "build",
  background: true,
  status: "running",
  blocks: [],
  droppedBlockCount: 0,
};
const helper: SubagentRecord = { ...coder, toolUseId: "toolu_helper", taskId: "af00d", subagentType: "general-purpose", background: false };

interface Setup {
  /** The records whose steps hold each call (the stream's placement). */
  readonly holders?: Record<string, readonly SubagentRecord[]>;
  /** The agent the PreToolUse hook named for each call. */
  readonly named?: Record<string, PolicyAgent>;
  /** The conductor's top-level calls in the transcript. */
  readonly conductorCalls?: readonly string[];
}

/** Desks made by a test: closed after it, so no conductor timer outlives it. */
const desks: { close(reason: string): void }[] = [];
afterEach(() => {
  for (const desk of desks.splice(0)) desk.close("the test is over");
});

function session(setup: Setup) {
  const events: ClientEvent[] = [];
  const recorded: AuditPolicyDecision[] = [];
  const holders = { toolu_plan: [coder], ...setup.holders };
  const blocks: Block[] = (setup.conductorCalls ?? []).map((id) => ({ kind: "tool", id, call: { toolUseId: id, name: "mcp__baton__review_subagent_plan", input: {}, status: "running" } }));
  const live = {
    sessionId: "s1",
    transcript: { blocks } as unknown as Transcript,
    callersOf: (id: string) => holders[id as keyof typeof holders] ?? [],
    agentRecord: (name: string) => [coder, helper].find((r) => r.taskId === name || r.toolUseId === name),
    addEvent: (event: ClientEvent) => events.push(event),
    client: { send: () => undefined },
  } as unknown as LiveSession;
  const policy = { agentOfCall: (id: string) => setup.named?.[id] } as unknown as SessionPolicy;
  const { desk, server } = createSessionEscalations({
    live: () => live,
    policy,
    conductorTimeoutMs: 60_000,
    graceMs: 30_000,
    personPresent: () => true,
    record: (entry) => recorded.push(entry),
    log: () => undefined,
  });
  let id = 0;
  const call = async (name: string, args: Record<string, unknown>, toolUseId?: string): Promise<{ text: string; isError: boolean }> => {
    const answer = (await server.handle({
      jsonrpc: "2.0",
      id: ++id,
      method: "tools/call",
      params: { name, arguments: args, ...(toolUseId !== undefined ? { _meta: { "claudecode/toolUseId": toolUseId } } : {}) },
    })) as unknown as { result: { content: { text: string }[]; isError?: boolean } };
    return { text: answer.result.content[0]?.text ?? "", isError: answer.result.isError === true };
  };
  desks.push(desk);
  desk.agentSpawned("toolu_coder");
  const plan = call("submit_plan", { goal: "Add a limiter", steps: ["Write it"] }, "toolu_plan");
  return { desk, events, recorded, call, plan };
}

const approve = { agent: "a1b2", decision: "approved" };
const settlements = (events: readonly ClientEvent[]) => events.filter((e) => e.kind === "escalation_settled");

describe("the desk refuses a conductor's tool to anyone but the conductor", () => {
  it("a subagent the hook named: refused, the plan stays in review, the card and the trail name the subagent", async () => {
    const s = session({ named: { toolu_gp: { kind: "subagent", agentId: "af00d", agentType: "general-purpose" } } });
    const refused = await s.call("review_subagent_plan", approve, "toolu_gp");
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("Only the conductor (the main agent) may call review_subagent_plan");
    expect(s.desk.phaseOf("toolu_coder")).toBe("review");
    expect(settlements(s.events)).toEqual([]);
    expect(s.events).toContainEqual(expect.objectContaining({ kind: "policy_decision", toolUseId: "toolu_gp", agentId: "af00d", decision: "deny", rule: "conductor-only" }));
    expect(s.recorded).toEqual([
      expect.objectContaining({
        sessionId: "s1",
        toolUseId: "toolu_gp",
        toolName: "mcp__baton__review_subagent_plan",
        agentId: "af00d",
        agentType: "general-purpose",
        input: approve,
        decision: "deny",
        rule: "conductor-only",
        origin: "mcp",
      }),
    ]);
  });

  it("a call the stream places in a subagent's steps: refused even when the hook's naming says main (the stricter wins)", async () => {
    const s = session({ holders: { toolu_gp: [helper] }, named: { toolu_gp: { kind: "main" } } });
    expect((await s.call("answer_subagent", { agent: "a1b2", answer: "escalate" }, "toolu_gp")).isError).toBe(true);
    expect(s.recorded).toEqual([expect.objectContaining({ toolName: "mcp__baton__answer_subagent", agentId: "af00d", agentType: "general-purpose", rule: "conductor-only" })]);
    expect(s.events.some((e) => e.kind === "escalation_routed")).toBe(false);
  });

  it("a caller nobody can place, or a call the CLI did not name: refused, on the record as an unknown agent, never as main", async () => {
    const s = session({});
    expect((await s.call("review_subagent_plan", approve, "toolu_who")).text).toContain("Baton cannot tell which agent called review_subagent_plan");
    expect((await s.call("review_subagent_plan", approve)).isError).toBe(true);
    expect(s.recorded.map((r) => [r.toolUseId, r.agentId, r.agentType, r.rule])).toEqual([
      ["toolu_who", undefined, "unknown", "unknown-agent"],
      ["mcp-request:3", undefined, "unknown", "unknown-agent"],
    ]);
    expect(s.desk.phaseOf("toolu_coder")).toBe("review");
  });

  it("the conductor, named by the hook or found among its own top-level steps, approves; the settlement names it main", async () => {
    for (const setup of [{ named: { toolu_main: { kind: "main" } as const } }, { conductorCalls: ["toolu_main"] }]) {
      const s = session(setup);
      expect((await s.call("review_subagent_plan", approve, "toolu_main")).text).toContain("Approved");
      expect((await s.plan).text).toContain("Plan approved by the conductor");
      expect(settlements(s.events)).toEqual([expect.objectContaining({ outcome: "approved", by: "conductor", answeredBy: "main" })]);
      expect(s.desk.phaseOf("toolu_coder")).toBe("executing");
      expect(s.recorded).toEqual([]);
    }
  });
});

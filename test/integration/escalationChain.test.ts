// The escalation chain and subagent plan review through the real CLI (issue 24), in orchestration
// mode with the scripted model server, driven through Baton's service as the window drives it:
//   * a background coder asks; Baton tells the conductor; the conductor's answer_subagent is the
//     coder's ask_conductor result, and the record shows question and answer;
//   * a foreground coder's write before approval is refused ("submit your plan first"); its plan
//     goes to the person (the conductor waits on the coder); the person rejects it with feedback,
//     the coder submits again, the person approves with an edit; the coder's tool result carries
//     the edited plan, its write then runs, and its phases go clarifying → review → clarifying →
//     review → executing → completed;
//   * an open question ends as failed, with the reason on the record, when the session is
//     interrupted and when the CLI crashes: nothing hangs;
//   * a coder that ended before its plan was approved is still refused a write when SendMessage
//     continues it, in the same session and after the session is resumed in a new tab.

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Escalation, SubagentPhase } from "../../src/shared/escalation.js";
import type { SubagentRecord, Transcript } from "../../src/shared/transcript.js";
import type { AppCore } from "../../src/main/app/createAppCore.js";
import { run as auditRun } from "../../src/main/commands/audit.js";
import { batonToolId } from "../../src/main/mcp/batonTools.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { openOrchestrationApp } from "../support/orchestrationApp.js";
import { watchTab, type TabWatch } from "../support/tabWatch.js";
import { placedBlocks } from "../support/transcriptWalk.js";
import { startModelServer, type LoggedRequest, type ModelServer, type ScriptTurn } from "../support/modelServer.js";
import { lastAgentId } from "../support/scenarios/sendMessageContinue.js";
import { agentCall, text } from "../support/scenarios/types.js";
import { value } from "../support/apiValue.js";

const WaitMs = 90_000;
const ASK = batonToolId("ask_conductor");
const SUBMIT = batonToolId("submit_plan");
const ANSWER = batonToolId("answer_subagent");

type Body = Readonly<Record<string, unknown>>;
type Message = { role: string; content: unknown };

/** The text of the request's last user message (its text blocks and tool results). */
function lastUserText(request: Body): string {
  const messages = request["messages"] as Message[];
  const last = [...messages].reverse().find((m) => m.role === "user");
  return JSON.stringify(last?.content ?? "");
}

/** The records of every agent of `type`, at any depth, in the order of their cards. */
function recordsOf(t: Transcript, type: string): SubagentRecord[] {
  return placedBlocks(t).flatMap(({ block }) => (block.call?.subagent?.subagentType === type ? [block.call.subagent] : []));
}

function recordOf(t: Transcript, type: string): SubagentRecord | undefined {
  return recordsOf(t, type)[0];
}

function toolResultText(requests: readonly LoggedRequest[], agent: string, fragment: string): string | undefined {
  for (const r of requests) {
    if (r.agent !== agent) continue;
    const all = JSON.stringify(r.body["messages"]);
    if (all.includes(fragment)) return all;
  }
  return undefined;
}

/** A session of its own: an app core in orchestration mode, a model server with `script`, a watched tab. */
async function start(name: string, script: Record<string, ScriptTurn[]>): Promise<{ core: AppCore; env: CliEnv; model: ModelServer; tabId: string; tab: TabWatch; close(): Promise<void> }> {
  const env = await createCliEnv({ baseUrl: "http://127.0.0.1:1", cwdName: name });
  const model = await startModelServer(script);
  env.env["ANTHROPIC_BASE_URL"] = model.url;
  const app = await openOrchestrationApp(env, WaitMs);
  const { core, tabId, tab } = app;
  return {
    core,
    env,
    model,
    tabId,
    tab,
    async close() {
      await app.close();
      await model.close();
      await env.cleanup();
    },
  };
}

/** Every escalation of every agent of `type`, in the order of their cards. */
function escalationsOf(t: Transcript, type: string): readonly Escalation[] {
  return recordsOf(t, type).flatMap((r) => r.escalations ?? []);
}

describe("a background coder asks, and the conductor answers", () => {
  let s: Awaited<ReturnType<typeof start>>;
  let finished: Transcript;

  beforeAll(async () => {
    // The conductor's every turn reads what the last message says: the coder's question (sent by Baton) gets answer_subagent.
    const conductor = (request: Body) => {
      const last = lastUserText(request);
      const asked = /\[coder (\S+) asks\]/.exec(last);
      if (asked !== null) return [{ type: "tool_use" as const, name: ANSWER, input: { agent: asked[1], answer: "Use the token bucket in pkg/limit." } }];
      if (last.includes("Delivered to")) return [text("Answered the coder.")];
      if (last.includes("conduct")) return [agentCall("Build the limiter", "[[CODER]] build it", { subagent_type: "coder", run_in_background: true })];
      return [text("Conductor waits for the coder.")];
    };
    s = await start("escalation-background", {
      main: Array.from({ length: 8 }, () => ({ blocks: conductor })),
      CODER: [{ blocks: [{ type: "tool_use", name: ASK, input: { question: "Which algorithm should the limiter use?" } }] }, { blocks: [text("Coder got its answer.")] }],
    });
    value(await s.core.service.sendPrompt(s.tabId, "conduct the work"));
    await s.tab.waitFor("the coder's question answered", () => escalationsOf(s.tab.transcript(), "coder").find((e) => e.state === "answered"));
    finished = await s.tab.waitFor("the coder done", () => {
      const t = s.tab.transcript();
      return recordOf(t, "coder")?.status === "completed" && t.status === "idle" ? t : undefined;
    });
  }, 240_000);
  afterAll(() => s?.close());

  it("delivers the question to the conductor and the conductor's answer to the coder", () => {
    const [question] = escalationsOf(finished, "coder");
    expect(question).toMatchObject({
      kind: "question",
      question: "Which algorithm should the limiter use?",
      state: "answered",
      routedTo: "conductor",
      reply: "Use the token bucket in pkg/limit.",
      settledBy: "conductor",
    });
    // The coder's next request carries the conductor's answer as its tool result.
    expect(toolResultText(s.model.requests, "CODER", "Use the token bucket in pkg/limit.")).toBeDefined();
    // The conductor was told in a message naming the coder.
    expect(toolResultText(s.model.requests, "main", "Which algorithm should the limiter use?")).toBeDefined();
  });

  it("records the question and its answer, linked to the coder's record, in the audit trail", async () => {
    const sessionId = finished.sessionId;
    const coder = recordOf(finished, "coder");
    await s.core.close(); // flushes the trail
    const out: string[] = [];
    const code = await auditRun([sessionId, "--db", path.join(s.env.home, ".config", "baton", "index.sqlite"), "--json"], { stdout: (t) => out.push(t), stderr: () => undefined });
    expect(code).toBe(0);
    const rows = JSON.parse(out.join("")) as { kind: string; agentToolUseId?: string; question?: string; reply?: string; by?: string }[];
    const question = rows.find((r) => r.kind === "question");
    const answer = rows.find((r) => r.kind === "answer");
    expect(question).toMatchObject({ agentToolUseId: coder?.toolUseId, question: "Which algorithm should the limiter use?" });
    expect(answer).toMatchObject({ agentToolUseId: coder?.toolUseId });
    expect(JSON.stringify(answer)).toContain("Use the token bucket in pkg/limit.");
    expect(JSON.stringify(answer)).toContain("conductor");
    expect(rows.indexOf(question!)).toBeLessThan(rows.indexOf(answer!));
  });
});

describe("a foreground coder's plan: refused write, rejection, resubmission, approval with an edit", () => {
  let s: Awaited<ReturnType<typeof start>>;
  let target: string;

  beforeAll(async () => {
    s = await start("escalation-plan", {});
    target = path.join(s.env.cwd, "limiter.go");
    const write = { type: "tool_use" as const, name: "Write", input: { file_path: target, content: "package limit\n" } };
    s.model.setScript({
      main: [{ blocks: [agentCall("Build the limiter", "[[CODER]] build it", { subagent_type: "coder", run_in_background: false })] }, { blocks: [text("Conductor done.")] }],
      CODER: [
        { blocks: [write] },
        { blocks: [{ type: "tool_use", name: SUBMIT, input: { goal: "Add a limiter", steps: ["Write limiter.go"] } }] },
        { blocks: [{ type: "tool_use", name: SUBMIT, input: { goal: "Add a token-bucket limiter", steps: ["Write limiter.go", "Test it"] } }] },
        { blocks: (request) => (lastUserText(request).includes("Benchmark it too") ? [write] : [text("Coder did not get the edited plan.")]) },
        { blocks: [text("Coder wrote the limiter.")] },
      ],
    });
    value(await s.core.service.sendPrompt(s.tabId, "conduct the work"));
    const first = await s.tab.waitFor("plan v1 waiting for the person", () =>
      escalationsOf(s.tab.transcript(), "coder").find((e) => e.kind === "plan" && e.plan?.version === 1 && e.state === "open" && e.routedTo === "person"),
    );
    value(await s.core.service.answerEscalation(s.tabId, first.id, { kind: "reject", feedback: "Make it a token bucket, with a test." }));
    const second = await s.tab.waitFor("plan v2 waiting for the person", () =>
      escalationsOf(s.tab.transcript(), "coder").find((e) => e.kind === "plan" && e.plan?.version === 2 && e.state === "open"),
    );
    value(await s.core.service.answerEscalation(s.tabId, second.id, { kind: "approve", editedPlan: "Goal: Add a token-bucket limiter\n\n1. Write limiter.go\n2. Test it\n3. Benchmark it too" }));
    await s.tab.idleWith("Conductor done.");
  }, 240_000);
  afterAll(() => s?.close());

  it("refuses the write before the plan is approved, telling the coder to submit its plan first", () => {
    const coder = recordOf(s.tab.transcript(), "coder");
    const writes = (coder?.blocks ?? []).filter((b) => b.call?.name === "Write");
    expect(writes[0]?.call?.status).toBe("denied");
    expect(toolResultText(s.model.requests, "CODER", "submit your plan first")).toBeDefined();
  });

  it("keeps both plan versions with their reviews, and gives the coder the edited plan", () => {
    const plans = escalationsOf(s.tab.transcript(), "coder");
    expect(plans.map((p) => [p.plan?.version, p.state, p.settledBy])).toEqual([
      [1, "rejected", "person"],
      [2, "approved", "person"],
    ]);
    expect(plans[0]?.reply).toBe("Make it a token bucket, with a test.");
    expect(plans[1]?.approvedPlan).toContain("Benchmark it too");
    expect(toolResultText(s.model.requests, "CODER", "Make it a token bucket, with a test.")).toBeDefined();
    expect(toolResultText(s.model.requests, "CODER", "Benchmark it too")).toBeDefined();
  });

  it("runs the write once the plan is approved, and moves through the phases, each on the record", async () => {
    expect(fs.readFileSync(target, "utf8")).toBe("package limit\n");
    const finished = s.tab.transcript();
    expect(recordOf(finished, "coder")?.phase).toBe("completed");
    // Deltas come at most every 50 ms, so a window may skip a phase: the trail keeps each change in order.
    await s.core.close();
    const out: string[] = [];
    await auditRun([finished.sessionId, "--db", path.join(s.env.home, ".config", "baton", "index.sqlite"), "--json"], { stdout: (t) => out.push(t), stderr: () => undefined });
    const phases = (JSON.parse(out.join("")) as { kind: string; phase?: SubagentPhase }[]).flatMap((r) => (r.kind === "phase" && r.phase !== undefined ? [r.phase] : []));
    expect(phases).toEqual(["clarifying", "review", "clarifying", "review", "executing", "completed"]);
  });
});

describe("an open question when the session is interrupted, and when the CLI crashes", () => {
  let s: Awaited<ReturnType<typeof start>>;

  beforeAll(async () => {
    s = await start("escalation-ends", {
      // Whatever the interrupt left of the first turn, the second prompt spawns the second coder.
      main: Array.from({ length: 6 }, () => ({
        blocks: (request: Body) => {
          const last = lastUserText(request);
          if (last.includes("ask something")) return [agentCall("Ask and wait", "[[CODER]] ask", { subagent_type: "coder", run_in_background: false })];
          if (last.includes("ask again")) return [agentCall("Ask again", "[[CODER2]] ask", { subagent_type: "coder", run_in_background: false })];
          return [text("nothing to do")];
        },
      })),
      CODER: [{ blocks: [{ type: "tool_use", name: ASK, input: { question: "First question?" } }] }, { blocks: [text("never")] }],
      CODER2: [{ blocks: [{ type: "tool_use", name: ASK, input: { question: "Second question?" } }] }, { blocks: [text("never")] }],
    });
  }, 120_000);
  afterAll(() => s?.close());

  const open = (question: string) => () =>
    escalationsOf(s.tab.transcript(), "coder").find((e) => e.question === question && e.state === "open" && e.routedTo === "person");
  const failed = (question: string) => () => escalationsOf(s.tab.transcript(), "coder").find((e) => e.question === question && e.state === "failed");

  it("fails the open question with the reason when the session is interrupted, and the session goes on", async () => {
    value(await s.core.service.sendPrompt(s.tabId, "ask something"));
    await s.tab.waitFor("the first question open", open("First question?"));
    value(await s.core.service.interrupt(s.tabId));
    const gone = await s.tab.waitFor("the first question failed", failed("First question?"));
    expect(gone.settledBy).toBe("baton");
    expect(gone.reply).not.toBe("");
    await s.tab.waitFor("the session idle", () => (s.tab.transcript().status === "running" ? undefined : true));
    const late = await s.core.service.answerEscalation(s.tabId, gone.id, { kind: "answer", text: "too late" });
    expect(late.ok).toBe(false);
    if (!late.ok) expect(late.error.code).toBe("conflict");
  });

  it("fails the open question when the CLI crashes", async () => {
    value(await s.core.service.sendPrompt(s.tabId, "ask again"));
    const question = await s.tab.waitFor("the second question open", open("Second question?"));
    const live = s.core.manager as unknown as { tabs: Map<string, { session: { client: { pid: number | undefined } } }> };
    const pid = live.tabs.get(s.tabId)?.session.client.pid;
    expect(pid).toBeDefined();
    process.kill(pid as number, "SIGKILL");
    const gone = await s.tab.waitFor("the second question failed", failed("Second question?"));
    expect(gone.id).toBe(question.id);
    expect(gone.settledBy).toBe("baton");
  });
});

describe("a coder that ended before its plan was approved stays held to it when SendMessage continues it", () => {
  let s: Awaited<ReturnType<typeof start>>;
  let target: string;
  let sessionId: string;

  /** A CODER request answering the write with the refusal (its newest message, not the history it carries). */
  const refusedJustNow = (requests: readonly LoggedRequest[]): boolean => requests.some((r) => r.agent === "CODER" && lastUserText(r.body).includes("submit your plan first"));

  /** Continues the coder (`go` sends the message and names the tab) and waits for it to be done again: the requests made meanwhile. */
  async function continueCoder(go: () => Promise<string>): Promise<readonly LoggedRequest[]> {
    const from = s.model.requests.length;
    const tab = watchTab(s.core.service, await go(), WaitMs);
    try {
      await tab.idleWith("The coder is done again.");
      return s.model.requests.slice(from);
    } finally {
      tab.stop();
    }
  }

  beforeAll(async () => {
    s = await start("escalation-continued", {});
    target = path.join(s.env.cwd, "limiter.go");
    const write = { type: "tool_use" as const, name: "Write", input: { file_path: target, content: "package limit\n" } };
    // By what each request says, not by turn number: a continuation's requests depend on timing.
    const conductor = (request: Body) => {
      const last = lastUserText(request);
      if (last.includes("look at the limiter")) return [agentCall("Look at the limiter", "[[CODER]] look first", { subagent_type: "coder", run_in_background: false })];
      if (last.includes("continue the coder")) return [{ type: "tool_use" as const, name: "SendMessage", input: { to: lastAgentId(request), summary: "write it", message: "Now write limiter.go." } }];
      if (last.includes("task-notification")) return [text("The coder is done again.")];
      return [text("Conductor done.")];
    };
    const coder = (request: Body) => {
      const last = lastUserText(request);
      if (last.includes("Now write limiter.go.")) return [write];
      if (last.includes("submit your plan first")) return [text("Held to the plan.")];
      return [text("Looked; no plan yet.")];
    };
    s.model.setScript({ main: Array.from({ length: 16 }, () => ({ blocks: conductor })), CODER: Array.from({ length: 16 }, () => ({ blocks: coder })) });
    value(await s.core.service.sendPrompt(s.tabId, "look at the limiter"));
    const first = await s.tab.idleWith("Conductor done.");
    sessionId = first.sessionId;
    // It ended without a plan: it does not count as completed work, it is still clarifying.
    expect(recordOf(first, "coder")).toMatchObject({ status: "completed", phase: "clarifying" });
  }, 240_000);
  afterAll(() => s?.close());

  it("in the same session, the continued coder's write is refused", async () => {
    const requests = await continueCoder(async () => {
      value(await s.core.service.sendPrompt(s.tabId, "continue the coder"));
      return s.tabId;
    });
    expect(refusedJustNow(requests)).toBe(true);
    expect(fs.existsSync(target)).toBe(false);
  });

  it("after a resume too: the new run starts from the phases the audit trail recorded", async () => {
    value(await s.core.service.closeTab(s.tabId));
    const requests = await continueCoder(async () => value(await s.core.service.newSession({ cwd: s.env.cwd, permissionMode: "default", resumeSessionId: sessionId, initialPrompt: "continue the coder" })).tabId);
    expect(refusedJustNow(requests)).toBe(true);
    expect(fs.existsSync(target)).toBe(false);
  });
});

// Baton's agent tools through the real CLI: the "baton" SDK MCP server is handed over in
// `initialize`, the scripted model calls mcp__baton__ask_conductor, and the call stays open until
// the test answers it, after the question has reached the client. The answer is what the model
// reads next. An interrupt while a question is open cancels it (the handler learns why) and the
// CLI goes on; so does Baton settling it with an error (nobody left to answer); stopping the
// session settles an open question too. No blanket --allowedTools: in default mode a PreToolUse
// hook's allow (what Baton's policy answers for a legitimate caller) is what spares a call the
// permission request, and without it the CLI asks. Runs on both CLIs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batonToolId, createBatonMcpServer, type AskConductorArgs } from "../../src/main/mcp/batonTools.js";
import type { McpServer } from "../../src/main/mcp/mcpServer.js";
import type { ToolCallContext } from "../../src/main/mcp/toolRegistry.js";
import { hookOutputFor } from "../../src/main/policy/policyAnswers.js";
import type { JsonObject } from "../../src/shared/protocol/messages.js";
import type { LoggedRequest } from "../support/modelServer.js";
import { openSession, type Session } from "../support/scenarios/harness.js";

const ASK = batonToolId("ask_conductor");
const ask = (question: string) => ({ type: "tool_use" as const, name: ASK, input: { question } });

interface Question {
  readonly args: AskConductorArgs;
  readonly call: ToolCallContext;
  answer(text: string): void;
}

/** The questions the handler received, in order; a test waits for the next one. */
class Questions {
  private readonly received: Question[] = [];
  private readonly waiters: ((q: Question) => void)[] = [];
  private taken = 0;

  readonly handler = (args: AskConductorArgs, call: ToolCallContext): Promise<string> =>
    new Promise<string>((resolve) => {
      const question = { args, call, answer: resolve };
      const waiter = this.waiters.shift();
      if (waiter) waiter(question);
      else this.received.push(question);
    });

  next(): Promise<Question> {
    this.taken++;
    const ready = this.received.shift();
    return ready ? Promise.resolve(ready) : new Promise((resolve) => this.waiters.push(resolve));
  }
  get count(): number {
    return this.taken + this.received.length;
  }
}

/** Resolves with the abort reason once the call's signal fires. */
function aborted(call: ToolCallContext): Promise<Error> {
  return new Promise((resolve) => {
    if (call.signal.aborted) resolve(call.signal.reason as Error);
    else call.signal.addEventListener("abort", () => resolve(call.signal.reason as Error), { once: true });
  });
}

/** The tool_result block for `toolUseId` in a model request, as the model reads it. */
function toolResultIn(request: LoggedRequest, toolUseId: string | undefined): unknown {
  const messages = request.body["messages"] as { role: string; content: unknown }[];
  for (const message of messages) {
    if (message.role !== "user" || !Array.isArray(message.content)) continue;
    const found = (message.content as { type: string; tool_use_id?: string }[]).find((b) => b.type === "tool_result" && b.tool_use_id === toolUseId);
    if (found) return found;
  }
  return undefined;
}

const notUsed = async () => ({ text: "not part of this test", isError: true });

/** The question the test's hook stays silent on, as if no rule decided it. */
const UNDECIDED = "May I ask without a rule?";

/** As Baton's policy answers a legitimate caller of its tools; silent on UNDECIDED and on every other tool. */
function hook(input: JsonObject): JsonObject {
  const toolInput = input["tool_input"] as { question?: unknown } | undefined;
  if (typeof input["tool_name"] !== "string" || !input["tool_name"].startsWith("mcp__baton__") || toolInput?.question === UNDECIDED) return { continue: true };
  return hookOutputFor({ decision: "allow", rule: "baton-tool", message: "A legitimate caller." });
}

describe("SDK MCP server: ask_conductor through the real CLI", () => {
  let session: Session;
  let server: McpServer;
  const questions = new Questions();

  beforeAll(async () => {
    server = createBatonMcpServer({ askConductor: questions.handler, submitPlan: notUsed, answerSubagent: notUsed, reviewSubagentPlan: notUsed });
    session = await openSession(
      {
        main: [
          { blocks: [ask("Which module owns the parser?")] },
          { blocks: [{ type: "text", text: "answered" }] },
          // Foreground on every CLI: 2.1.332 backgrounds an Agent call unless told not to.
          { blocks: [{ type: "tool_use", name: "Agent", input: { description: "Ask up", prompt: "[[SUB-A]] ask the conductor", subagent_type: "general-purpose", run_in_background: false } }] },
          { blocks: [{ type: "text", text: "agent done" }] },
          { blocks: [ask(UNDECIDED)] },
          { blocks: [{ type: "text", text: "asked after the prompt" }] },
          { blocks: [ask("Shall I wait?")] },
          { blocks: [{ type: "text", text: "still here" }] },
          { blocks: [ask("Is anyone watching?")] },
          { blocks: [{ type: "text", text: "carried on without an answer" }] },
          { blocks: [ask("Anyone there?")] },
        ],
        "SUB-A": [{ blocks: [ask("May I touch the tests?")] }, { blocks: [{ type: "text", text: "sub done" }] }],
      },
      // Default mode; every can_use_tool is recorded and allowed, so a test sees whether one came.
      {
        cwdName: "mcp-sdk-server",
        mcpServers: [server],
        initialize: { hooks: { PreToolUse: [{ hookCallbackIds: ["test_policy"] }] } },
        onHookCallback: async (request) => hook(request.input),
        decidePermission: async () => ({ behavior: "allow", decidedBy: "test" }),
      },
    );
    await session.client.start();
  });
  afterAll(() => session?.close());

  it("lists Baton's four tools to the model, loaded, and names the server in system/init", async () => {
    const from = session.log.mark;
    const turn = session.turn("ask the conductor");
    const init = await session.log.waitFor("session_init", () => true, { from });
    expect(init.tools).toEqual(expect.arrayContaining([ASK, batonToolId("submit_plan"), batonToolId("answer_subagent"), batonToolId("review_subagent_plan")]));
    const first = await session.server.waitForRequest((r) => r.agent === "main" && r.turn === 0);
    const tools = first.body["tools"] as { name: string; description?: string; input_schema?: unknown }[];
    const listed = tools.find((t) => t.name === ASK);
    expect(listed?.description).toContain("clarifying question");
    expect(listed?.input_schema).toMatchObject({ required: ["question"] });

    // The state: the question reached the handler and the client shows the call. Then answer it.
    const question = await questions.next();
    expect(question.args).toEqual({ question: "Which module owns the parser?" });
    const call = await session.log.waitFor("assistant_block", (e) => e.block.type === "tool_use" && e.block.name === ASK, { from });
    expect(call.block.type === "tool_use" && call.block.id).toBe(question.call.toolUseId);
    question.answer("src/parser owns it; keep the API stable.");

    expect(await turn).toMatchObject({ subtype: "success", result: "answered" });
    const next = await session.server.waitForRequest((r) => r.agent === "main" && r.turn === 1);
    expect(JSON.stringify(toolResultIn(next, question.call.toolUseId))).toContain("src/parser owns it; keep the API stable.");
    const result = session.log.of("tool_result").find((e) => e.toolUseId === question.call.toolUseId);
    expect(result).toMatchObject({ isError: false, text: "src/parser owns it; keep the API stable." });
    expect(session.log.of("permission_request").filter((e) => e.toolName === ASK)).toEqual([]);
  });

  it("gives a subagent's question the subagent's tool_use id, so the asker can be found", async () => {
    const from = session.log.mark;
    const turn = session.turn("let a subagent ask");
    const question = await questions.next();
    expect(question.args.question).toBe("May I touch the tests?");
    const call = await session.log.waitFor("assistant_block", (e) => e.block.type === "tool_use" && e.block.id === question.call.toolUseId, { from });
    const agentCall = session.log.of("assistant_block").find((e) => e.block.type === "tool_use" && e.block.name === "Agent");
    expect(agentCall).toBeDefined();
    expect(call.parentToolUseId).toBe(agentCall!.block.type === "tool_use" ? agentCall!.block.id : "");
    question.answer("Yes, only under test/.");
    expect(await turn).toMatchObject({ subtype: "success", result: "agent done" });
    const subNext = await session.server.waitForRequest((r) => r.agent === "SUB-A" && r.turn === 1);
    expect(JSON.stringify(toolResultIn(subNext, question.call.toolUseId))).toContain("Yes, only under test/.");
    // The hook allowed it: the subagent's call was not put to the person either.
    expect(session.log.of("permission_request").filter((e) => e.toolName === ASK)).toEqual([]);
  });

  it("asks for a call of Baton's tools the hook does not allow: nothing allows them wholesale", async () => {
    const turn = session.turn("ask with no rule");
    const question = await questions.next();
    expect(question.args.question).toBe(UNDECIDED);
    const asked = session.log.of("permission_request").filter((e) => e.toolName === ASK);
    expect(asked.map((e) => e.toolUseId)).toEqual([question.call.toolUseId]);
    question.answer("Asked, and answered.");
    expect(await turn).toMatchObject({ subtype: "success", result: "asked after the prompt" });
  });

  it("settles an open question when the turn is interrupted, and the session goes on", async () => {
    const from = session.log.mark;
    session.client.send("ask and wait");
    const question = await questions.next();
    await session.log.waitFor("assistant_block", (e) => e.block.type === "tool_use" && e.block.id === question.call.toolUseId, { from });
    expect(server.openCalls).toBe(1);

    const reason = aborted(question.call);
    await session.client.interrupt();
    expect((await reason).message).toMatch(/^The call was cancelled by Claude Code/);
    expect(server.openCalls).toBe(0);
    const result = await session.log.waitFor("turn_result", () => true, { from });
    expect(result).toMatchObject({ subtype: "error_during_execution", isError: true });
    expect(session.log.of("tool_result").find((e) => e.toolUseId === question.call.toolUseId)?.isError).toBe(true);
    question.answer("too late: nobody reads this");

    expect(await session.turn("are you still there?")).toMatchObject({ subtype: "success", isError: false, result: "still here" });
  });

  it("answers an open question with Baton's error when nobody is left to answer, and the turn goes on", async () => {
    const from = session.log.mark;
    const turn = session.turn("ask with nobody watching");
    const question = await questions.next();
    await session.log.waitFor("assistant_block", (e) => e.block.type === "tool_use" && e.block.id === question.call.toolUseId, { from });
    const reason = aborted(question.call);
    session.client.abortOpenToolCalls("Nobody answered: the window was closed.");
    expect((await reason).message).toBe("Nobody answered: the window was closed.");
    expect(await turn).toMatchObject({ subtype: "success", result: "carried on without an answer" });
    const result = session.log.of("tool_result").find((e) => e.toolUseId === question.call.toolUseId);
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain("Nobody answered: the window was closed.");
  });

  it("settles an open question when the session is stopped, and the stop does not wait for it", async () => {
    const from = session.log.mark;
    session.client.send("ask once more");
    const question = await questions.next();
    await session.log.waitFor("assistant_block", (e) => e.block.type === "tool_use" && e.block.id === question.call.toolUseId, { from });
    const reason = aborted(question.call);
    const exit = await session.client.stop();
    expect(exit.requested).toBe(true);
    expect((await reason).message).toBe("Baton stopped this session.");
    expect(server.openCalls).toBe(0);
    expect(questions.count).toBe(6);
  });
});

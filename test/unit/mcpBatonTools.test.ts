// The four tools Baton gives the agents, as the model sees them (names, descriptions, schemas from
// the orchestration seed) and as the injected handlers receive them.
import { describe, expect, it } from "vitest";
import { batonToolId, BatonToolNames, createBatonMcpServer, type BatonToolHandlers } from "../../src/main/mcp/batonTools.js";

type Listed = { name: string; description: string; inputSchema: { properties: Record<string, { description?: string }>; required?: string[] } };

function serverWith(overrides: Partial<BatonToolHandlers> = {}) {
  const calls: [string, unknown, string | undefined][] = [];
  const record =
    (tool: string) =>
    async (args: unknown, call: { toolUseId: string | undefined }): Promise<string> => {
      calls.push([tool, args, call.toolUseId]);
      return `${tool} handled`;
    };
  const server = createBatonMcpServer({
    askConductor: record("ask_conductor"),
    submitPlan: record("submit_plan"),
    answerSubagent: record("answer_subagent"),
    reviewSubagentPlan: record("review_subagent_plan"),
    ...overrides,
  });
  return { server, calls };
}

async function listed(): Promise<Listed[]> {
  const { server } = serverWith();
  const answer = await server.handle({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  return (answer as unknown as { result: { tools: Listed[] } }).result.tools;
}

const call = (name: string, args: unknown) => ({
  jsonrpc: "2.0",
  id: 5,
  method: "tools/call",
  params: { name, arguments: args, _meta: { "claudecode/toolUseId": "toolu_x" } },
});

describe("Baton's agent tools", () => {
  it("is the server 'baton' with the four tools the model calls as mcp__baton__<tool>", async () => {
    expect(serverWith().server.name).toBe("baton");
    expect((await listed()).map((t) => t.name)).toEqual([...BatonToolNames]);
    expect(BatonToolNames.map(batonToolId)).toEqual([
      "mcp__baton__ask_conductor",
      "mcp__baton__submit_plan",
      "mcp__baton__answer_subagent",
      "mcp__baton__review_subagent_plan",
    ]);
  });

  it("describes the parameters as the seed does", async () => {
    const byName = new Map((await listed()).map((t) => [t.name, t]));
    const ask = byName.get("ask_conductor")!.inputSchema;
    expect(ask.required).toEqual(["question"]);
    expect(ask.properties["question"]!.description).toBe(
      "A clarifying question for the conductor about the task requirements, constraints, or approach.",
    );
    const plan = byName.get("submit_plan")!.inputSchema;
    expect(plan.required).toEqual(["goal", "steps"]);
    expect(plan.properties["goal"]!.description).toBe("One-sentence goal of the task");
    expect(plan.properties["steps"]).toMatchObject({ type: "array", items: { type: "string" }, description: "Ordered implementation steps" });
    expect(byName.get("answer_subagent")!.inputSchema.required).toEqual(["agent", "answer"]);
    expect(byName.get("answer_subagent")!.inputSchema.properties["answer"]!.description).toBe("Your answer to the subagent's question");
    const review = byName.get("review_subagent_plan")!.inputSchema;
    expect(review.required).toEqual(["agent", "decision"]);
    expect(review.properties["decision"]).toMatchObject({ enum: ["approved", "rejected"] });
    for (const tool of byName.values()) expect(tool.description.length).toBeGreaterThan(20);
  });

  it("hands each call's checked input and tool_use id to its own handler", async () => {
    const { server, calls } = serverWith();
    const answers = await Promise.all([
      server.handle(call("ask_conductor", { question: "Which module?" })),
      server.handle({ ...call("submit_plan", { goal: "Fix it", steps: ["read", "edit"] }), id: 6 }),
      server.handle({ ...call("answer_subagent", { agent: "a1", answer: "module b" }), id: 7 }),
      server.handle({ ...call("review_subagent_plan", { agent: "a1", decision: "rejected", feedback: "add a test" }), id: 8 }),
    ]);
    expect(calls).toEqual([
      ["ask_conductor", { question: "Which module?" }, "toolu_x"],
      ["submit_plan", { goal: "Fix it", steps: ["read", "edit"] }, "toolu_x"],
      ["answer_subagent", { agent: "a1", answer: "module b" }, "toolu_x"],
      ["review_subagent_plan", { agent: "a1", decision: "rejected", feedback: "add a test" }, "toolu_x"],
    ]);
    expect(answers.map((a) => JSON.stringify(a))).toEqual(BatonToolNames.map((t) => expect.stringContaining(`${t} handled`)));
  });

  it("refuses input outside the schema without calling the handler, and says what is wrong", async () => {
    const { server, calls } = serverWith();
    const bad = [
      call("ask_conductor", { question: "   " }),
      call("submit_plan", { goal: "g", steps: [] }),
      call("submit_plan", { goal: "g", steps: "one step" }),
      call("review_subagent_plan", { agent: "a1", decision: "maybe" }),
      call("answer_subagent", { answer: "no agent" }),
    ];
    for (const message of bad) {
      const answer = await server.handle(message);
      expect(answer).toMatchObject({ result: { isError: true } });
      expect(JSON.stringify(answer)).toContain(`Invalid arguments for ${message.params.name}`);
    }
    expect(calls).toEqual([]);
  });

  it("passes a handler's own error result through as an error the model reads", async () => {
    const { server } = serverWith({ answerSubagent: async () => ({ text: "no subagent a9 is waiting for an answer", isError: true }) });
    expect(await server.handle(call("answer_subagent", { agent: "a9", answer: "x" }))).toMatchObject({
      result: { isError: true, content: [{ type: "text", text: "no subagent a9 is waiting for an answer" }] },
    });
  });
});

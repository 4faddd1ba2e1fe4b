// Baton's in-process MCP server as the CLI drives it (the message shapes are the ones recorded in
// docs/protocol-notes.md): the handshake, the tool list, calls that answer, throw, wait and are
// cancelled, and input no well-behaved client would send, which gets a clear error and never
// breaks the server.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { JsonRpcErrorCode } from "../../src/main/mcp/jsonRpc.js";
import { createMcpServer, SupportedProtocolVersions, ToolCallAbortedError, type McpServer } from "../../src/main/mcp/mcpServer.js";
import { defineTool, type ToolCallContext } from "../../src/main/mcp/toolRegistry.js";

/** A promise and the functions that settle it, for handlers a test answers when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

interface Asked {
  question: string;
  call: ToolCallContext;
  answer(text: string): void;
}

function testServer() {
  const asked: Asked[] = [];
  const waiters: ((a: Asked) => void)[] = [];
  const server = createMcpServer({
    name: "baton",
    version: "9.9.9",
    tools: [
      defineTool({
        name: "ask",
        description: "Ask and wait",
        input: z.object({ question: z.string().min(1) }),
        handle(input, call) {
          const answer = deferred<string>();
          const entry = { question: input.question, call, answer: answer.resolve };
          asked.push(entry);
          waiters.splice(0).forEach((w) => w(entry));
          return answer.promise;
        },
      }),
      defineTool({
        name: "explode",
        description: "Always throws",
        input: z.object({}),
        handle: async () => {
          throw new Error("the handler blew up");
        },
      }),
      defineTool({
        name: "refuse",
        description: "Answers with an error result",
        input: z.object({}),
        handle: async () => ({ text: "not allowed now", isError: true }),
      }),
    ],
  });
  const nextAsk = () => new Promise<Asked>((resolve) => waiters.push(resolve));
  return { server, asked, nextAsk };
}

const rpc = (id: number | string, method: string, params?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method,
  ...(params ? { params } : {}),
});
const callTool = (id: number | string, name: string, args: unknown, toolUseId = "toolu_1") =>
  rpc(id, "tools/call", { name, arguments: args, _meta: { "claudecode/toolUseId": toolUseId, progressToken: id } });

describe("MCP server: handshake and listing", () => {
  it("answers the CLI's initialize with the version it asked for, and offers its newest for an unknown one", async () => {
    const { server } = testServer();
    const params = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "claude-code", version: "2.1.332" } };
    expect(await server.handle(rpc(0, "initialize", params))).toEqual({
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: "2025-06-18", capabilities: { tools: { listChanged: false } }, serverInfo: { name: "baton", version: "9.9.9" } },
    });
    const future = await server.handle(rpc(1, "initialize", { ...params, protocolVersion: "2099-01-01" }));
    expect(future).toMatchObject({ id: 1, result: { protocolVersion: SupportedProtocolVersions[0] } });
    const missing = await server.handle(rpc(2, "initialize", {}));
    expect(missing).toMatchObject({ id: 2, error: { code: JsonRpcErrorCode.invalidParams, message: expect.stringContaining("protocolVersion") } });
  });

  it("lists each tool with its JSON Schema and asks to be always loaded", async () => {
    const { server } = testServer();
    const answer = await server.handle(rpc(1, "tools/list"));
    const tools = (answer as unknown as { result: { tools: { name: string; inputSchema: unknown; _meta: unknown }[] } }).result.tools;
    expect(tools.map((t) => t.name)).toEqual(["ask", "explode", "refuse"]);
    expect(tools[0]).toEqual({
      name: "ask",
      description: "Ask and wait",
      inputSchema: { type: "object", properties: { question: { type: "string", minLength: 1 } }, required: ["question"] },
      _meta: { "anthropic/alwaysLoad": true },
    });
  });

  it("answers ping, ignores notifications and stray responses, and says 'method not found' for the rest", async () => {
    const { server } = testServer();
    expect(await server.handle(rpc("p", "ping"))).toEqual({ jsonrpc: "2.0", id: "p", result: {} });
    expect(await server.handle({ jsonrpc: "2.0", method: "notifications/initialized" })).toBeUndefined();
    expect(await server.handle({ jsonrpc: "2.0", method: "notifications/whatever", params: { x: 1 } })).toBeUndefined();
    expect(await server.handle({ jsonrpc: "2.0", id: 5, result: {} })).toBeUndefined();
    expect(await server.handle(rpc(3, "resources/list"))).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: JsonRpcErrorCode.methodNotFound, message: "Method not found: resources/list" },
    });
  });
});

describe("MCP server: tool calls", () => {
  it("passes the checked input and the tool_use id to the handler, and returns its answer as text", async () => {
    const { server, nextAsk } = testServer();
    const asking = nextAsk();
    const answer = server.handle(callTool(7, "ask", { question: "Which file?" }, "toolu_abc"));
    const asked = await asking;
    expect(asked.question).toBe("Which file?");
    expect(asked.call).toMatchObject({ toolUseId: "toolu_abc", requestId: 7 });
    expect(server.openCalls).toBe(1);
    asked.answer("src/x.ts");
    expect(await answer).toEqual({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "src/x.ts" }] } });
    expect(server.openCalls).toBe(0);
  });

  it("turns a throwing handler into an error result the model can read, and keeps serving", async () => {
    const { server } = testServer();
    expect(await server.handle(callTool(1, "explode", {}))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "explode failed: the handler blew up" }], isError: true },
    });
    expect(await server.handle(callTool(2, "refuse", {}))).toMatchObject({ result: { isError: true, content: [{ text: "not allowed now" }] } });
    expect(await server.handle(rpc(3, "ping"))).toMatchObject({ result: {} });
  });

  it("answers bad arguments with a result naming the problem, and an unknown tool with invalid params", async () => {
    const { server, asked } = testServer();
    const bad = await server.handle(callTool(1, "ask", { question: 42 }));
    expect(bad).toMatchObject({ id: 1, result: { isError: true } });
    expect(JSON.stringify(bad)).toContain("Invalid arguments for ask");
    expect(JSON.stringify(bad)).toContain("question");
    expect(await server.handle(callTool(2, "ask", undefined))).toMatchObject({ result: { isError: true } });
    expect(await server.handle(callTool(3, "nope", {}))).toMatchObject({ error: { code: JsonRpcErrorCode.invalidParams, message: "Unknown tool: nope" } });
    expect(await server.handle(rpc(4, "tools/call", { name: "ask", arguments: ["a"] }))).toMatchObject({
      error: { code: JsonRpcErrorCode.invalidParams },
    });
    expect(asked).toHaveLength(0);
  });

  it("refuses a second open call under an id that is still open", async () => {
    const { server, nextAsk } = testServer();
    const asking = nextAsk();
    const first = server.handle(callTool(1, "ask", { question: "one" }));
    const asked = await asking;
    expect(await server.handle(callTool(1, "ask", { question: "two" }))).toMatchObject({ error: { code: JsonRpcErrorCode.invalidRequest } });
    asked.answer("one's answer");
    expect(await first).toMatchObject({ result: { content: [{ text: "one's answer" }] } });
  });
});

describe("MCP server: calls that wait, and how they end", () => {
  it("settles a waiting call when the CLI cancels it: the handler's signal says why, a late answer is dropped", async () => {
    const { server, nextAsk } = testServer();
    const asking = nextAsk();
    const answer = server.handle(callTool(2, "ask", { question: "Which file?" }));
    const asked = await asking;
    await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "AbortError: remote-cancel" } });
    expect(await answer).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: JsonRpcErrorCode.requestCancelled, message: "The call was cancelled by Claude Code (AbortError: remote-cancel)." },
    });
    expect(asked.call.signal.aborted).toBe(true);
    expect(asked.call.signal.reason).toBeInstanceOf(ToolCallAbortedError);
    asked.answer("too late");
    expect(server.openCalls).toBe(0);
  });

  it("settles every open call when the session ends, even handlers that never look at the signal", async () => {
    const { server, nextAsk } = testServer();
    const calls = [];
    for (const id of [1, 2, 3]) {
      const asking = nextAsk();
      calls.push(server.handle(callTool(id, "ask", { question: `q${id}` })));
      await asking;
    }
    expect(server.openCalls).toBe(3);
    server.abortOpenCalls("The Claude Code process exited.");
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a && "error" in a && a.error)).toEqual([1, 2, 3].map(() => ({
      code: JsonRpcErrorCode.connectionClosed,
      message: "The Claude Code process exited.",
    })));
    expect(server.openCalls).toBe(0);
    // The server goes on: the next process's calls are served as usual.
    expect(await server.handle(callTool(1, "refuse", {}))).toMatchObject({ result: { isError: true } });
  });

  it("ignores a cancel for a call that is not open", async () => {
    const { server } = testServer();
    for (const params of [{ requestId: 99 }, { requestId: { nested: 1 } }, {}, undefined]) {
      expect(await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", ...(params ? { params } : {}) })).toBeUndefined();
    }
  });
});

describe("MCP server: hostile and malformed input", () => {
  const invalid = JsonRpcErrorCode.invalidRequest;

  it.each([
    ["a string", "tools/list", null],
    ["null", null, null],
    ["a number", 42, null],
    ["a batch", [{ jsonrpc: "2.0", id: 1, method: "ping" }], null],
    ["no jsonrpc", { id: 1, method: "ping" }, 1],
    ["jsonrpc 1.0", { jsonrpc: "1.0", id: 1, method: "ping" }, 1],
    ["an object id", { jsonrpc: "2.0", id: { a: 1 }, method: "ping" }, null],
    ["a fractional id", { jsonrpc: "2.0", id: 1.5, method: "ping" }, null],
    ["a huge string id", { jsonrpc: "2.0", id: "x".repeat(10_000), method: "ping" }, null],
    ["a numeric method", { jsonrpc: "2.0", id: 1, method: 7 }, 1],
    ["an empty method", { jsonrpc: "2.0", id: 1, method: "" }, 1],
    ["no method", { jsonrpc: "2.0", id: 1 }, 1],
    ["array params", { jsonrpc: "2.0", id: 1, method: "tools/list", params: [1] }, 1],
  ])("answers %s with 'invalid request'", async (_name, message, id) => {
    const { server } = testServer();
    const answer = await server.handle(message);
    expect(answer).toMatchObject({ jsonrpc: "2.0", id, error: { code: invalid, message: expect.stringMatching(/^Invalid JSON-RPC message: /) } });
  });

  it("does not echo a huge tool or method name back whole", async () => {
    const { server } = testServer();
    const long = "n".repeat(100_000);
    const unknownTool = await server.handle(callTool(1, long, {}));
    expect(JSON.stringify(unknownTool).length).toBeLessThan(1000);
  });

  it("never throws and leaves no call open, whatever arrives", async () => {
    const { server } = testServer();
    const method = fc.constantFrom("initialize", "ping", "tools/list", "tools/call", "notifications/cancelled", "x/y");
    const message = fc.oneof(
      fc.anything(),
      fc.record(
        {
          jsonrpc: fc.oneof(fc.constant("2.0"), fc.anything()),
          id: fc.oneof(fc.integer(), fc.string(), fc.anything()),
          method: fc.oneof(method, fc.anything()),
          params: fc.oneof(fc.dictionary(fc.string(), fc.anything()), fc.record({ name: fc.constantFrom("explode", "refuse", "ask"), arguments: fc.anything() }), fc.anything()),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(message, async (m) => {
        // "ask" waits for an answer; end it so the property does not wait forever.
        const pending = server.handle(m);
        server.abortOpenCalls("end of this sample");
        const answer = await pending;
        if (answer !== undefined) expect(answer.jsonrpc).toBe("2.0");
      }),
      { numRuns: 400 },
    );
    expect(server.openCalls).toBe(0);
  });
});

describe("MCP server: tool definitions", () => {
  const tool = (name: string) => defineTool({ name, description: "d", input: z.object({}), handle: async () => "ok" });
  it("refuses names the CLI cannot call, duplicates, and non-object input schemas", () => {
    const make = (tools: Parameters<typeof createMcpServer>[0]["tools"]): McpServer => createMcpServer({ name: "s", version: "1", tools });
    expect(() => make([tool("has space")])).toThrow(/must match/);
    expect(() => make([tool("a".repeat(65))])).toThrow(/must match/);
    expect(() => make([tool("dup"), tool("dup")])).toThrow(/defined twice/);
    expect(() => make([defineTool({ name: "s", description: "d", input: z.string(), handle: async () => "ok" })])).toThrow(/object schema/);
  });
});

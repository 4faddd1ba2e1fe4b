// The control-protocol side of Baton's MCP server: `mcp_message` requests from the CLI are answered
// with `{mcp_response}` (or an error for a server Baton does not run), a withdrawn or abandoned call
// settles its handler and answers nothing, and a session without servers refuses the request.
import { describe, expect, it } from "vitest";
import { createIncomingRequests } from "../../src/main/cli/incomingRequests.js";
import { createMcpRelay } from "../../src/main/mcp/controlRelay.js";
import { createMcpServer } from "../../src/main/mcp/mcpServer.js";
import { defineTool, type ToolCallContext } from "../../src/main/mcp/toolRegistry.js";
import type { ControlResponseMessage, McpMessageRequest } from "../../src/shared/protocol/messages.js";
import { z } from "zod";

function setup(withServer = true) {
  const sent: ControlResponseMessage[] = [];
  const open: ToolCallContext[] = [];
  const server = createMcpServer({
    name: "baton",
    version: "1",
    tools: [
      defineTool({
        name: "wait",
        description: "Waits until aborted",
        input: z.object({}),
        handle: (_input, call) => {
          open.push(call);
          return new Promise<string>(() => undefined);
        },
      }),
    ],
  });
  const send = (line: ControlResponseMessage) => sent.push(line);
  const mcp = withServer
    ? createMcpRelay({
        servers: [server],
        answer: (requestId, response) => send({ type: "control_response", response: { subtype: "success", request_id: requestId, response } }),
        fail: (requestId, error) => send({ type: "control_response", response: { subtype: "error", request_id: requestId, error } }),
      })
    : undefined;
  const incoming = createIncomingRequests({
    decidePermission: async () => ({ behavior: "deny", message: "no", decidedBy: "test" }),
    ...(mcp ? { mcp } : {}),
    send,
    emit: () => undefined,
    log: () => undefined,
  });
  return { sent, open, incoming, server, relay: mcp };
}

const mcpMessage = (message: unknown, server = "baton"): McpMessageRequest => ({ subtype: "mcp_message", server_name: server, message: message as never });
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("mcp_message control requests", () => {
  it("answers requests with the server's response and notifications the way the Agent SDK does", async () => {
    const { sent, incoming } = setup();
    incoming.handle("r1", mcpMessage({ jsonrpc: "2.0", id: 0, method: "ping" }));
    incoming.handle("r2", mcpMessage({ jsonrpc: "2.0", method: "notifications/initialized" }));
    incoming.handle("r3", mcpMessage("not json-rpc at all"));
    await settle();
    expect(sent).toEqual([
      { type: "control_response", response: { subtype: "success", request_id: "r1", response: { mcp_response: { jsonrpc: "2.0", id: 0, result: {} } } } },
      { type: "control_response", response: { subtype: "success", request_id: "r2", response: { mcp_response: { jsonrpc: "2.0", result: {}, id: 0 } } } },
      {
        type: "control_response",
        response: {
          subtype: "success",
          request_id: "r3",
          response: { mcp_response: { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid JSON-RPC message: a JSON-RPC message must be an object" } } },
        },
      },
    ]);
  });

  it("refuses a server Baton does not run, and any server in a session without one", async () => {
    const withServer = setup();
    withServer.incoming.handle("r1", mcpMessage({ jsonrpc: "2.0", id: 0, method: "ping" }, "other"));
    const without = setup(false);
    without.incoming.handle("r2", mcpMessage({ jsonrpc: "2.0", id: 0, method: "ping" }));
    await settle();
    expect(withServer.sent).toEqual([{ type: "control_response", response: { subtype: "error", request_id: "r1", error: "SDK MCP server not found: other" } }]);
    expect(without.sent).toEqual([
      { type: "control_response", response: { subtype: "error", request_id: "r2", error: "Baton runs no SDK MCP server in this session" } },
    ]);
  });

  it("settles a call the CLI withdraws (control_cancel_request) without answering it", async () => {
    const { sent, open, incoming, server } = setup();
    incoming.handle("r1", mcpMessage({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "wait", arguments: {} } }));
    await settle();
    expect(open).toHaveLength(1);
    incoming.cancel("r1");
    await settle();
    expect(open[0]!.signal.aborted).toBe(true);
    expect(server.openCalls).toBe(0);
    expect(sent).toEqual([]);
  });

  it("answers open calls with Baton's error when it settles them itself (nobody left to answer)", async () => {
    const { sent, open, incoming, relay } = setup();
    incoming.handle("r1", mcpMessage({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "wait", arguments: {} } }));
    await settle();
    relay!.abortOpenCalls("Nobody answered: the window was closed.");
    await settle();
    expect(open[0]!.signal.aborted).toBe(true);
    expect(sent).toEqual([
      {
        type: "control_response",
        response: {
          subtype: "success",
          request_id: "r1",
          response: { mcp_response: { jsonrpc: "2.0", id: 2, error: { code: -32000, message: "Nobody answered: the window was closed." } } },
        },
      },
    ]);
  });

  it("settles open calls when the process is gone, answering nothing", async () => {
    const { sent, open, incoming, server } = setup();
    incoming.handle("r1", mcpMessage({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "wait", arguments: {} } }));
    await settle();
    incoming.abandonAll();
    await settle();
    expect(String((open[0]!.signal.reason as Error).message)).toBe("The Claude Code process is gone.");
    expect(server.openCalls).toBe(0);
    expect(sent).toEqual([]);
  });
});

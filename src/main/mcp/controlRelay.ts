// Carries `mcp_message` control requests to Baton's in-process MCP servers and their answers back
// as `{mcp_response}` (docs/protocol-notes.md, "SDK MCP servers"). One relay per CLI process; every
// request gets exactly one answer unless the CLI withdraws it or the process is gone.

import type { JsonObject, McpMessageRequest } from "../../shared/protocol/messages.js";
import type { JsonRpcId } from "./jsonRpc.js";
import type { McpLogger, McpServer } from "./mcpServer.js";

export interface McpRelay {
  /** The names for `initialize.sdkMcpServers`. */
  readonly serverNames: readonly string[];
  handle(requestId: string, request: McpMessageRequest): void;
  /** `control_cancel_request` for a relayed call: cancels it and answers nothing. False if not ours. */
  cancel(requestId: string): boolean;
  /** Settles every open call with an error the CLI is told (the model reads it as the tool result). */
  abortOpenCalls(reason: string): void;
  /** The process is gone or going: settles every open call for its handler, answers nothing. */
  abandon(reason: string): void;
}

export interface McpRelayOptions {
  readonly servers: readonly McpServer[];
  /** Sends a success control_response with this body. */
  answer(requestId: string, response: JsonObject): void;
  /** Sends an error control_response. */
  fail(requestId: string, error: string): void;
  readonly log?: McpLogger;
}

/** What the Agent SDK answers for a notification: the CLI waits for some answer to every control request. */
const NOTIFICATION_ACK: JsonObject = { jsonrpc: "2.0", result: {}, id: 0 };

export function createMcpRelay(options: McpRelayOptions): McpRelay {
  const servers = new Map<string, McpServer>();
  for (const server of options.servers) {
    if (servers.has(server.name)) throw new Error(`two SDK MCP servers are named "${server.name}"`);
    servers.set(server.name, server);
  }
  const log: McpLogger = options.log ?? (() => undefined);
  /** Relayed requests not answered yet, with the JSON-RPC id a cancel must name. */
  const inFlight = new Map<string, { readonly server: McpServer; readonly rpcId: JsonRpcId | undefined }>();

  return {
    serverNames: [...servers.keys()],
    handle(requestId, request) {
      const server = servers.get(request.server_name);
      if (!server) {
        log("warning", "mcp_message for an SDK MCP server Baton does not run", { server: request.server_name.slice(0, 100) });
        options.fail(requestId, `SDK MCP server not found: ${request.server_name.slice(0, 100)}`);
        return;
      }
      inFlight.set(requestId, { server, rpcId: rpcIdOf(request.message) });
      void server.handle(request.message).then((response) => {
        if (!inFlight.delete(requestId)) return; // withdrawn, or the process is gone
        options.answer(requestId, { mcp_response: (response as unknown as JsonObject | undefined) ?? NOTIFICATION_ACK });
      });
    },
    cancel(requestId) {
      const call = inFlight.get(requestId);
      if (!call) return false;
      inFlight.delete(requestId);
      if (call.rpcId !== undefined) {
        void call.server.handle({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: call.rpcId, reason: "the CLI withdrew the request" },
        });
      }
      return true;
    },
    abortOpenCalls(reason) {
      for (const server of servers.values()) server.abortOpenCalls(reason);
    },
    abandon(reason) {
      inFlight.clear();
      for (const server of servers.values()) server.abortOpenCalls(reason);
    },
  };
}

function rpcIdOf(message: unknown): JsonRpcId | undefined {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return undefined;
  const id = (message as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

// A small in-process MCP server: the CLI relays its JSON-RPC messages in `mcp_message` control
// requests and Baton answers each with a JSON-RPC response (docs/protocol-notes.md, "SDK MCP
// servers"). It speaks the tools part of MCP only: initialize (with protocol version negotiation),
// ping, tools/list, tools/call, and notifications/cancelled; other notifications are ignored and
// other methods get "method not found". Nothing the CLI sends can make it throw.
//
// A tools/call may stay open for as long as its handler needs. It always ends in exactly one
// answer: the handler's result, an error result when the handler throws, or a JSON-RPC error when
// the CLI cancels the call or the session ends (`abortOpenCalls`), even if the handler never returns.

import type { JsonObject } from "../../shared/protocol/messages.js";
import {
  classifyJsonRpc,
  isJsonObject,
  JsonRpcErrorCode,
  rpcFailure,
  rpcSuccess,
  type JsonRpcId,
  type JsonRpcResponse,
} from "./jsonRpc.js";
import { createToolRegistry, type ToolDefinition, type ToolOutcome, type ToolRegistry } from "./toolRegistry.js";

/** Newest first; the first is offered when the client asks for one this server does not know. */
export const SupportedProtocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

export interface McpServer {
  /** The server's name in `initialize.sdkMcpServers`; the CLI names its tools `mcp__<name>__<tool>`. */
  readonly name: string;
  /** Answers one relayed message: a response for a request, undefined for anything else. Never rejects. */
  handle(message: unknown): Promise<JsonRpcResponse | undefined>;
  /** Settles every open call with a "connection closed" error; their handlers' signals fire with `reason`. */
  abortOpenCalls(reason: string): void;
  /** How many tools/call requests are waiting for their handler. */
  readonly openCalls: number;
}

export type McpLogger = (level: "debug" | "info" | "warning" | "error", message: string, fields?: Record<string, unknown>) => void;

export interface McpServerOptions {
  readonly name: string;
  readonly version: string;
  /** Sent in the initialize result; Claude Code shows it to the model as the server's instructions. */
  readonly instructions?: string;
  readonly tools: readonly ToolDefinition[];
  readonly log?: McpLogger;
}

/** Why an open call was settled without its handler's answer; the handler's `signal.reason`. */
export class ToolCallAbortedError extends Error {
  override readonly name = "ToolCallAbortedError";
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

interface OpenCall {
  readonly controller: AbortController;
}

/** Longest text copied from a message into an answer or a log (names, cancel reasons). */
const MAX_ECHO = 200;

export function createMcpServer(options: McpServerOptions): McpServer {
  const registry: ToolRegistry = createToolRegistry(options.tools);
  const log: McpLogger = options.log ?? (() => undefined);
  const open = new Map<string, OpenCall>();

  function initialize(id: JsonRpcId, params: JsonObject | undefined): JsonRpcResponse {
    const asked = params?.["protocolVersion"];
    if (typeof asked !== "string") return rpcFailure(id, JsonRpcErrorCode.invalidParams, "initialize needs a string `protocolVersion`");
    const known = (SupportedProtocolVersions as readonly string[]).includes(asked);
    if (!known) log("info", "MCP client asked for an unknown protocol version; offering ours", { asked: clip(asked) });
    return rpcSuccess(id, {
      protocolVersion: known ? asked : SupportedProtocolVersions[0],
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: options.name, version: options.version },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    });
  }

  function call(id: JsonRpcId, params: JsonObject | undefined): Promise<JsonRpcResponse> {
    const name = params?.["name"];
    if (typeof name !== "string") return Promise.resolve(rpcFailure(id, JsonRpcErrorCode.invalidParams, "tools/call needs a string `name`"));
    const tool = registry.get(name);
    if (!tool) return Promise.resolve(rpcFailure(id, JsonRpcErrorCode.invalidParams, `Unknown tool: ${clip(name)}`));
    const args = params?.["arguments"];
    if (args !== undefined && !isJsonObject(args)) {
      return Promise.resolve(rpcFailure(id, JsonRpcErrorCode.invalidParams, "tools/call `arguments` must be an object"));
    }
    const parsed = tool.parse(args);
    if (!parsed.ok) return Promise.resolve(rpcSuccess(id, errorResult(parsed.problem)));
    const key = keyOf(id);
    if (open.has(key)) {
      return Promise.resolve(rpcFailure(id, JsonRpcErrorCode.invalidRequest, `request id ${clip(String(id))} is already in use by an open call`));
    }
    const controller = new AbortController();
    open.set(key, { controller });
    return new Promise<JsonRpcResponse>((resolve) => {
      let settled = false;
      const settle = (response: JsonRpcResponse) => {
        if (settled) return;
        settled = true;
        open.delete(key);
        resolve(response);
      };
      controller.signal.addEventListener(
        "abort",
        () => {
          const reason = controller.signal.reason as unknown;
          const aborted = reason instanceof ToolCallAbortedError ? reason : new ToolCallAbortedError(String(reason), JsonRpcErrorCode.connectionClosed);
          settle(rpcFailure(id, aborted.code, aborted.message));
        },
        { once: true },
      );
      const context = { signal: controller.signal, toolUseId: toolUseIdOf(params), requestId: id };
      Promise.resolve()
        .then(() => tool.handle(parsed.value, context))
        .then(
          (outcome) => settle(rpcSuccess(id, resultOf(name, outcome))),
          (error: unknown) => {
            const text = error instanceof Error ? error.message : String(error);
            if (!settled) log("warning", "MCP tool handler failed", { tool: name, error: text });
            settle(rpcSuccess(id, errorResult(`${name} failed: ${text}`)));
          },
        );
    });
  }

  function cancelled(params: JsonObject | undefined): void {
    const requestId = params?.["requestId"];
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const entry = open.get(keyOf(requestId));
    if (!entry) return;
    const why = typeof params?.["reason"] === "string" ? ` (${clip(params["reason"])})` : "";
    entry.controller.abort(new ToolCallAbortedError(`The call was cancelled by Claude Code${why}.`, JsonRpcErrorCode.requestCancelled));
  }

  async function dispatch(message: unknown): Promise<JsonRpcResponse | undefined> {
    const incoming = classifyJsonRpc(message);
    switch (incoming.kind) {
      case "invalid":
        log("warning", "malformed MCP message", { reason: incoming.reason });
        return rpcFailure(incoming.id, JsonRpcErrorCode.invalidRequest, `Invalid JSON-RPC message: ${incoming.reason}`);
      case "response":
        log("debug", "MCP response to a request this server never sent; dropped", { id: incoming.id });
        return undefined;
      case "notification":
        if (incoming.method === "notifications/cancelled") cancelled(incoming.params);
        return undefined;
      case "request":
        switch (incoming.method) {
          case "initialize":
            return initialize(incoming.id, incoming.params);
          case "ping":
            return rpcSuccess(incoming.id, {});
          case "tools/list":
            return rpcSuccess(incoming.id, { tools: [...registry.values()].map((tool) => tool.listed) as unknown as JsonObject[] });
          case "tools/call":
            return call(incoming.id, incoming.params);
          default:
            return rpcFailure(incoming.id, JsonRpcErrorCode.methodNotFound, `Method not found: ${clip(incoming.method)}`);
        }
    }
  }

  return {
    name: options.name,
    async handle(message) {
      try {
        return await dispatch(message);
      } catch (error) {
        // Only a bug here gets this far; the CLI still gets an answer.
        log("error", "MCP server failed on a message", { error: String(error) });
        const id = isJsonObject(message) && (typeof message["id"] === "string" || typeof message["id"] === "number") ? message["id"] : null;
        return rpcFailure(id, JsonRpcErrorCode.internalError, "Baton's MCP server failed on this message");
      }
    },
    abortOpenCalls(reason) {
      for (const entry of [...open.values()]) entry.controller.abort(new ToolCallAbortedError(reason, JsonRpcErrorCode.connectionClosed));
    },
    get openCalls() {
      return open.size;
    },
  };
}

function keyOf(id: JsonRpcId): string {
  return `${typeof id}:${id}`;
}

function clip(text: string): string {
  return text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text;
}

function toolUseIdOf(params: JsonObject | undefined): string | undefined {
  const meta = params?.["_meta"];
  if (!isJsonObject(meta)) return undefined;
  const id = meta["claudecode/toolUseId"];
  return typeof id === "string" && id.length <= MAX_ECHO ? id : undefined;
}

function errorResult(text: string): JsonObject {
  return { content: [{ type: "text", text }], isError: true };
}

function resultOf(tool: string, outcome: ToolOutcome): JsonObject {
  if (typeof outcome === "string") return { content: [{ type: "text", text: outcome }] };
  if (isJsonObject(outcome) && typeof outcome.text === "string") {
    return outcome.isError === true ? errorResult(outcome.text) : { content: [{ type: "text", text: outcome.text }] };
  }
  return errorResult(`${tool} returned no text (a bug in Baton).`);
}

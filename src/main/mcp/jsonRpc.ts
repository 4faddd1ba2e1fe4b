// JSON-RPC 2.0 as MCP uses it, for the messages the CLI relays in `mcp_message` control requests.
// Everything here reads untrusted values: a message is classified, never assumed, and anything
// malformed becomes an `invalid` verdict with a reason the answer can carry.

import type { Json, JsonObject } from "../../shared/protocol/messages.js";

export type JsonRpcId = string | number;

export interface JsonRpcSuccess {
  readonly jsonrpc: "2.0";
  readonly id: JsonRpcId;
  readonly result: JsonObject;
}
export interface JsonRpcFailure {
  readonly jsonrpc: "2.0";
  /** null when the request's own id could not be read. */
  readonly id: JsonRpcId | null;
  readonly error: { readonly code: number; readonly message: string; readonly data?: Json };
}
export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** Standard codes, plus the two Baton uses for calls it settles itself (MCP leaves those open). */
export const JsonRpcErrorCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** The session ended (stop, process exit) while the call was open (MCP SDK: ConnectionClosed). */
  connectionClosed: -32000,
  /** The CLI withdrew the call (`notifications/cancelled`, e.g. after an interrupt). */
  requestCancelled: -32800,
} as const;

export type IncomingJsonRpc =
  | { readonly kind: "request"; readonly id: JsonRpcId; readonly method: string; readonly params: JsonObject | undefined }
  | { readonly kind: "notification"; readonly method: string; readonly params: JsonObject | undefined }
  /** An answer to a request of ours; this server sends none, so it is dropped. */
  | { readonly kind: "response"; readonly id: JsonRpcId | null }
  | { readonly kind: "invalid"; readonly id: JsonRpcId | null; readonly reason: string };

/** Longest method name or string id read; anything longer is refused, not copied around. */
const MAX_TOKEN_LENGTH = 256;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readId(value: unknown): JsonRpcId | undefined {
  if (typeof value === "string") return value.length <= MAX_TOKEN_LENGTH ? value : undefined;
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : undefined;
  return undefined;
}

/** Sorts one message into request, notification, response or invalid. Never throws. */
export function classifyJsonRpc(value: unknown): IncomingJsonRpc {
  if (Array.isArray(value)) return { kind: "invalid", id: null, reason: "batches are not supported (MCP 2025-06-18 dropped them)" };
  if (!isJsonObject(value)) return { kind: "invalid", id: null, reason: "a JSON-RPC message must be an object" };
  const hasId = Object.hasOwn(value, "id") && value["id"] !== null;
  const id = hasId ? readId(value["id"]) : undefined;
  if (hasId && id === undefined) return { kind: "invalid", id: null, reason: "`id` must be a string or an integer" };
  const answerId = id ?? null;
  if (value["jsonrpc"] !== "2.0") return { kind: "invalid", id: answerId, reason: '`jsonrpc` must be "2.0"' };
  if (!Object.hasOwn(value, "method")) {
    if (Object.hasOwn(value, "result") || Object.hasOwn(value, "error")) return { kind: "response", id: answerId };
    return { kind: "invalid", id: answerId, reason: "missing `method`" };
  }
  const method = value["method"];
  if (typeof method !== "string" || method === "" || method.length > MAX_TOKEN_LENGTH) {
    return { kind: "invalid", id: answerId, reason: "`method` must be a non-empty string" };
  }
  const rawParams = value["params"];
  if (rawParams !== undefined && !isJsonObject(rawParams)) {
    return { kind: "invalid", id: answerId, reason: "`params` must be an object" };
  }
  const params = rawParams as JsonObject | undefined;
  return id === undefined ? { kind: "notification", method, params } : { kind: "request", id, method, params };
}

export function rpcSuccess(id: JsonRpcId, result: JsonObject): JsonRpcSuccess {
  return { jsonrpc: "2.0", id, result };
}

export function rpcFailure(id: JsonRpcId | null, code: number, message: string): JsonRpcFailure {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

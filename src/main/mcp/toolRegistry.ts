// Typed tools for Baton's in-process MCP server: a name, a description, a zod schema (sent to the
// CLI as JSON Schema) and an async handler. A handler may stay open as long as it needs (a question
// waiting for its answer); it gets an AbortSignal that fires when the call is withdrawn or the
// session ends, and the server settles the call then whether or not the handler notices.

import { z } from "zod";
import type { JsonObject } from "../../shared/protocol/messages.js";
import type { JsonRpcId } from "./jsonRpc.js";

/** What a handler knows about the call it answers. */
export interface ToolCallContext {
  /** Fires when the CLI cancels the call or the session ends; `signal.reason` is an Error saying why. */
  readonly signal: AbortSignal;
  /** The model's tool_use id (`_meta["claudecode/toolUseId"]`): links the call to the agent that made it. */
  readonly toolUseId: string | undefined;
  /** The JSON-RPC id of the `tools/call`. */
  readonly requestId: JsonRpcId;
}

/** A handler's answer: text for the model, or text marked as an error (`isError`, still a result). */
export type ToolOutcome = string | { readonly text: string; readonly isError?: boolean };

export interface ToolDefinition<Schema extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly input: Schema;
  handle(input: z.output<Schema>, call: ToolCallContext): Promise<ToolOutcome>;
}

/** A tool as `tools/list` describes it. */
export interface ListedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly _meta: JsonObject;
}

export interface RegisteredTool {
  readonly listed: ListedTool;
  /** Checks the arguments; a problem is a sentence for the model. */
  parse(args: unknown): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };
  handle(input: unknown, call: ToolCallContext): Promise<ToolOutcome>;
}

export type ToolRegistry = ReadonlyMap<string, RegisteredTool>;

/** MCP tool names Claude Code accepts (it prefixes them `mcp__<server>__`). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Keeps the handler's input type tied to its schema. */
export function defineTool<Schema extends z.ZodType>(tool: ToolDefinition<Schema>): ToolDefinition<Schema> {
  return tool;
}

export function createToolRegistry(tools: readonly ToolDefinition<z.ZodType>[]): ToolRegistry {
  const registry = new Map<string, RegisteredTool>();
  for (const tool of tools) {
    if (!TOOL_NAME.test(tool.name)) throw new Error(`MCP tool name "${tool.name}" must match ${TOOL_NAME}`);
    if (registry.has(tool.name)) throw new Error(`MCP tool "${tool.name}" is defined twice`);
    registry.set(tool.name, register(tool));
  }
  return registry;
}

function register(tool: ToolDefinition<z.ZodType>): RegisteredTool {
  const listed: ListedTool = {
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchemaOf(tool),
    // 2.1.332 defers MCP tools behind ToolSearch unless they ask to be loaded (docs/protocol-notes.md).
    _meta: { "anthropic/alwaysLoad": true },
  };
  return {
    listed,
    parse(args) {
      const parsed = tool.input.safeParse(args ?? {});
      if (parsed.success) return { ok: true, value: parsed.data };
      return { ok: false, problem: `Invalid arguments for ${tool.name}: ${z.prettifyError(parsed.error)}` };
    },
    handle: (input, call) => tool.handle(input, call),
  };
}

function inputSchemaOf(tool: ToolDefinition<z.ZodType>): JsonObject {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.input, { io: "input" }) as Record<string, unknown>;
  if (schema["type"] !== "object") throw new Error(`MCP tool "${tool.name}" needs an object schema for its input`);
  return schema as JsonObject;
}

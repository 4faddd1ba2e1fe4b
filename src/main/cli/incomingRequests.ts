// Answers the requests the CLI sends to the client (`control_request` on stdout): permission
// checks go to the permission gate, hook callbacks to an optional handler (default
// `{continue: true}`), `mcp_message` to Baton's in-process MCP servers (src/main/mcp/), anything
// else gets an error answer so the CLI never waits forever.

import type { ClientEvent } from "../../shared/events.js";
import type {
  CanUseToolRequest,
  ControlResponseMessage,
  HookCallbackRequest,
  IncomingControlRequest,
  JsonObject,
  McpMessageRequest,
} from "../../shared/protocol/messages.js";
import type { McpRelay } from "../mcp/controlRelay.js";
import { createPermissionGate, type PermissionDecider, type PermissionGate, type PlanFromFile } from "./permissionGate.js";
import { plansDirFor, readPlanFile } from "./planFile.js";

/** Answers a hook callback; the returned object is the hook output (`{continue: true}`, …). */
export type HookCallbackHandler = (request: HookCallbackRequest, signal: AbortSignal) => Promise<JsonObject>;

export interface IncomingRequestsOptions {
  readonly decidePermission: PermissionDecider;
  readonly permissionTimeoutMs?: number;
  readonly onHookCallback?: HookCallbackHandler;
  /** Where the CLI keeps plan files (planFile.ts); defaults to this process's `~/.claude/plans`. */
  readonly plansDir?: string;
  /** Baton's SDK MCP servers of this process; without it every `mcp_message` gets an error answer. */
  readonly mcp?: McpRelay;
  /** Writes one line to stdin. */
  send(line: ControlResponseMessage): void;
  emit(event: ClientEvent): void;
  log(level: "info" | "warning" | "error", message: string, fields?: Record<string, unknown>): void;
}

export interface IncomingRequests {
  handle(requestId: string, request: IncomingControlRequest | { readonly subtype: string }): void;
  /** `control_cancel_request`: withdraws a permission check or a hook call. */
  cancel(requestId: string): void;
  /** Answers a request Baton could not read, so the CLI is not left waiting. */
  refuse(requestId: string, reason: string): void;
  readonly permissions: PermissionGate;
  /** The process is gone: abort everything, answer nothing. */
  abandonAll(): void;
}

export function createIncomingRequests(options: IncomingRequestsOptions): IncomingRequests {
  const hookCalls = new Map<string, AbortController>();
  /** Plan reviews whose plan file is being read; a withdrawn one is dropped here, before it is ever asked. */
  const readingPlans = new Set<string>();

  const success = (requestId: string, response: JsonObject) =>
    options.send({ type: "control_response", response: { subtype: "success", request_id: requestId, response } });
  const failure = (requestId: string, error: string) =>
    options.send({ type: "control_response", response: { subtype: "error", request_id: requestId, error } });

  const permissions = createPermissionGate({
    decide: options.decidePermission,
    ...(options.permissionTimeoutMs !== undefined ? { timeoutMs: options.permissionTimeoutMs } : {}),
    answer: (requestId, result) => success(requestId, result as unknown as JsonObject),
    emit: options.emit,
  });

  function askWithPlanFile(requestId: string, request: CanUseToolRequest, planFile: string): void {
    readingPlans.add(requestId);
    void readPlanFile(planFile, options.plansDir ?? plansDirFor())
      .then(
        (read): PlanFromFile => (read.ok ? { text: read.text } : { problem: read.problem }),
        (error: unknown): PlanFromFile => ({ problem: `The plan file could not be read: ${String(error)}.` }),
      )
      .then((plan) => {
        if (!readingPlans.delete(requestId)) return; // withdrawn by the CLI meanwhile
        if (plan.problem !== undefined) options.log("warning", "plan file of ExitPlanMode not read", { requestId, problem: plan.problem });
        permissions.handle(requestId, request, plan);
      });
  }

  function handleHook(requestId: string, request: HookCallbackRequest): void {
    const handler = options.onHookCallback;
    if (!handler) {
      success(requestId, { continue: true });
      return;
    }
    const controller = new AbortController();
    hookCalls.set(requestId, controller);
    Promise.resolve()
      .then(() => handler(request, controller.signal))
      .then(
        (output) => {
          if (hookCalls.delete(requestId)) success(requestId, output);
        },
        (error: unknown) => {
          if (!hookCalls.delete(requestId)) return;
          const text = error instanceof Error ? error.message : String(error);
          options.log("error", "hook callback handler failed", { callbackId: request.callback_id, error: text });
          failure(requestId, `Baton hook handler failed: ${text}`);
        },
      );
  }

  return {
    handle(requestId, request) {
      switch (request.subtype) {
        case "can_use_tool": {
          const check = request as CanUseToolRequest;
          const planFile = planFileOf(check);
          if (planFile === undefined) permissions.handle(requestId, check);
          else askWithPlanFile(requestId, check, planFile);
          return;
        }
        case "hook_callback":
          handleHook(requestId, request as HookCallbackRequest);
          return;
        case "mcp_message":
          if (options.mcp) options.mcp.handle(requestId, request as McpMessageRequest);
          else failure(requestId, "Baton runs no SDK MCP server in this session");
          return;
        default:
          options.log("warning", "unsupported control request from the CLI", { subtype: request.subtype, requestId });
          failure(requestId, `Baton does not support control request "${request.subtype}"`);
      }
    },
    cancel(requestId) {
      if (readingPlans.delete(requestId)) return;
      if (permissions.cancel(requestId)) return;
      if (options.mcp?.cancel(requestId)) return;
      const hook = hookCalls.get(requestId);
      if (hook) {
        hookCalls.delete(requestId);
        hook.abort(new Error(`hook callback ${requestId} withdrawn by the CLI`));
      }
    },
    refuse(requestId, reason) {
      failure(requestId, `Baton could not read this request: ${reason}`);
    },
    permissions,
    abandonAll() {
      permissions.abandonAll();
      options.mcp?.abandon("The Claude Code process is gone.");
      for (const controller of hookCalls.values()) controller.abort(new Error("the Claude Code process is gone"));
      hookCalls.clear();
    },
  };
}

/** ExitPlanMode's `planFilePath` when its input carries no plan text (2.1.332: `plan: null`). */
function planFileOf(request: CanUseToolRequest): string | undefined {
  if (request.tool_name !== "ExitPlanMode") return undefined;
  const plan = request.input["plan"];
  const file = request.input["planFilePath"];
  if (typeof plan === "string" && plan.trim() !== "") return undefined;
  return typeof file === "string" ? file : undefined;
}

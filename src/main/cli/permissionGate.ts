// Answers the CLI's `can_use_tool` requests through ONE pluggable decision function, and makes sure
// every request gets exactly one answer of a shape the CLI accepts: allow always echoes
// `updatedInput` (without it the CLI fails the call with a ZodError); anything that goes wrong (the
// decider throws, takes too long, the client stops) becomes a deny with a clear message, so the
// turn goes on. A request the CLI withdraws (`control_cancel_request`) is aborted and never
// answered.

import type { PermissionCancelledEvent, PermissionRequestEvent, PermissionResolvedEvent } from "../../shared/events.js";
import type { CanUseToolRequest, JsonObject, PermissionResult, PermissionUpdate } from "../../shared/protocol/messages.js";

export type PermissionDecision =
  | {
      readonly behavior: "allow";
      /** The input to run with; the original input when absent. */
      readonly updatedInput?: JsonObject;
      readonly updatedPermissions?: readonly PermissionUpdate[];
      /** Who decided: "user", "policy:<name>", … */
      readonly decidedBy?: string;
    }
  | {
      readonly behavior: "deny";
      /** Sent to the model as the tool_result text. */
      readonly message: string;
      /** Also stop the turn (the CLI aborts the running tools). */
      readonly interrupt?: boolean;
      readonly decidedBy?: string;
    };

/** Decides one permission request. `signal` aborts when the CLI withdraws it or the client stops. */
export type PermissionDecider = (request: PermissionRequestEvent, signal: AbortSignal) => Promise<PermissionDecision>;

export interface PermissionGateOptions {
  readonly decide: PermissionDecider;
  /** Deny when the decider has not answered in time. Undefined: wait as long as it takes. */
  readonly timeoutMs?: number;
  /** Writes the `control_response` for `requestId`. */
  answer(requestId: string, result: PermissionResult & { readonly toolUseID?: string }): void;
  emit(event: PermissionResolvedEvent | PermissionCancelledEvent): void;
}

/** The plan of an ExitPlanMode request read from its plan file, or why it could not be. */
export interface PlanFromFile {
  readonly text?: string;
  readonly problem?: string;
}

export interface PermissionGate {
  handle(requestId: string, request: CanUseToolRequest, plan?: PlanFromFile): void;
  /** The CLI withdrew the request: abort the decider, never answer. Returns false if unknown. */
  cancel(requestId: string): boolean;
  /** Deny everything still open (the client is stopping, the window is gone). */
  denyAll(decidedBy: string, message: string): void;
  /** The process is gone: abort deciders, nothing can be answered any more. */
  abandonAll(): void;
  readonly openRequests: readonly string[];
}

const DEFAULT_DECIDED_BY = "handler";

export function createPermissionGate(options: PermissionGateOptions): PermissionGate {
  const open = new Map<string, { controller: AbortController; finish(decision: PermissionDecision, by: string): void }>();

  function close(requestId: string): AbortController | undefined {
    const entry = open.get(requestId);
    if (!entry) return undefined;
    open.delete(requestId);
    return entry.controller;
  }

  return {
    handle(requestId, request, plan) {
      if (open.has(requestId)) return;
      const event = toPermissionRequestEvent(requestId, request, plan);
      const controller = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;

      const finish = (decision: PermissionDecision, decidedBy: string) => {
        if (!open.has(requestId)) return;
        close(requestId);
        if (timer) clearTimeout(timer);
        const result = toPermissionResult(decision, request.input);
        options.answer(requestId, { ...result, toolUseID: request.tool_use_id });
        options.emit({
          kind: "permission_resolved",
          requestId,
          behavior: result.behavior,
          decidedBy,
          ...(result.behavior === "deny" ? { message: result.message } : {}),
        });
        controller.abort(new Error(`permission request ${requestId} resolved`));
      };
      open.set(requestId, { controller, finish });

      if (options.timeoutMs !== undefined && Number.isFinite(options.timeoutMs)) {
        const ms = options.timeoutMs;
        timer = setTimeout(() => {
          finish(denial(`No permission decision within ${formatMs(ms)}; denied by Baton.`), "timeout");
        }, ms);
      }

      Promise.resolve()
        .then(() => options.decide(event, controller.signal))
        .then(
          (decision) => {
            const checked = checkDecision(decision);
            if (checked) finish(checked, checked.decidedBy ?? DEFAULT_DECIDED_BY);
            else finish(denial("Permission handler returned an invalid decision; denied by Baton."), "error");
          },
          (error: unknown) => {
            finish(denial(`Permission handler failed (${errorText(error)}); denied by Baton.`), "error");
          },
        );
    },
    cancel(requestId) {
      const controller = close(requestId);
      if (!controller) return false;
      controller.abort(new Error(`permission request ${requestId} withdrawn by the CLI`));
      return true;
    },
    denyAll(decidedBy, message) {
      for (const entry of [...open.values()]) entry.finish(denial(message), decidedBy);
    },
    abandonAll() {
      for (const requestId of [...open.keys()]) {
        close(requestId)?.abort(new Error("the Claude Code process is gone"));
        options.emit({ kind: "permission_cancelled", requestId });
      }
    },
    get openRequests() {
      return [...open.keys()];
    },
  };
}

/** The answer the CLI accepts for a decision. Allow always carries `updatedInput`. */
export function toPermissionResult(decision: PermissionDecision, originalInput: JsonObject): PermissionResult {
  if (decision.behavior === "allow") {
    return {
      behavior: "allow",
      updatedInput: decision.updatedInput ?? originalInput,
      ...(decision.updatedPermissions?.length ? { updatedPermissions: decision.updatedPermissions } : {}),
    };
  }
  return {
    behavior: "deny",
    message: decision.message.trim() || "Denied by Baton.",
    ...(decision.interrupt ? { interrupt: true } : {}),
  };
}

export function toPermissionRequestEvent(requestId: string, request: CanUseToolRequest, plan?: PlanFromFile): PermissionRequestEvent {
  return {
    kind: "permission_request",
    requestId,
    toolName: request.tool_name,
    toolUseId: request.tool_use_id,
    input: request.input,
    ...(request.agent_id !== undefined ? { agentId: request.agent_id } : {}),
    ...(request.description !== undefined ? { description: request.description } : {}),
    ...(request.permission_suggestions !== undefined ? { suggestions: request.permission_suggestions } : {}),
    ...(request.blocked_path !== undefined ? { blockedPath: request.blocked_path } : {}),
    // Only a person may answer these (2.1.332): the prompt shows them whatever the tool.
    ...(request.requires_user_interaction === true ? { requiresUserInteraction: true } : {}),
    ...(plan?.text !== undefined ? { planFromFile: plan.text } : {}),
    ...(plan?.problem !== undefined ? { planFileProblem: plan.problem } : {}),
  };
}

/** Deciders are plugged in from other code (and JS); do not trust their return value's shape. */
function checkDecision(value: unknown): PermissionDecision | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const d = value as Record<string, unknown>;
  if (d.decidedBy !== undefined && typeof d.decidedBy !== "string") return undefined;
  if (d.behavior === "allow") {
    const input = d.updatedInput;
    if (input !== undefined && (typeof input !== "object" || input === null || Array.isArray(input))) return undefined;
    if (d.updatedPermissions !== undefined && !Array.isArray(d.updatedPermissions)) return undefined;
    return value as PermissionDecision;
  }
  if (d.behavior === "deny" && typeof d.message === "string") return value as PermissionDecision;
  return undefined;
}

function denial(message: string): PermissionDecision {
  return { behavior: "deny", message };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

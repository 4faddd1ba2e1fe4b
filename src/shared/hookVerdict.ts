// Baton's verdict for a terminal session's hook and the PreToolUse answer the CLI expects, apart
// from the hook input's schema (terminalHooks.ts, which re-exports these): `baton hook` runs on
// every tool call and imports this file alone, without zod (a ~40 ms load, measured by
// `npm run bench:hook`). Pure.

/**
 * Baton's answer for a PreToolUse or PermissionRequest hook: allow or deny; "ask", the terminal
 * asks the person itself (every failure); "defer", Baton has no opinion and the CLI goes on as it
 * would without Baton (its own permission flow, which raises a PermissionRequest, and so Baton's
 * card, only where it would show a dialog). Events Baton only observes get "defer".
 */
export type HookDecision = "allow" | "deny" | "ask" | "defer";

export interface HookVerdict {
  readonly decision: HookDecision;
  /** Said to the model on deny, to the person in the terminal on ask. */
  readonly reason?: string;
}

const Decisions: ReadonlySet<unknown> = new Set<HookDecision>(["allow", "deny", "ask", "defer"]);

/** Whether `value` is a decision (a verdict read from the socket is checked, not trusted). */
export function isHookDecision(value: unknown): value is HookDecision {
  return Decisions.has(value);
}

/** No opinion: the CLI decides as it would without Baton. */
export const DeferVerdict: HookVerdict = { decision: "defer" };

/** The verdict every failure falls back to: the terminal asks the person itself. */
export const AskVerdict: HookVerdict = { decision: "ask", reason: "Baton did not answer; the terminal asks instead" };

/** What `baton hook` prints for a PreToolUse verdict (the CLI's `hookSpecificOutput`); nothing for "defer". */
export function preToolUseOutput(verdict: HookVerdict): { hookSpecificOutput: { hookEventName: "PreToolUse"; permissionDecision: Exclude<HookDecision, "defer">; permissionDecisionReason?: string } } | undefined {
  if (verdict.decision === "defer") return undefined;
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: verdict.decision,
      ...(verdict.reason !== undefined ? { permissionDecisionReason: verdict.reason } : {}),
    },
  };
}

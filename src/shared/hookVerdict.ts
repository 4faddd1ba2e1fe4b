// Baton's verdict for a terminal session's hook and the PreToolUse answer the CLI expects, apart
// from the hook input's schema (terminalHooks.ts, which re-exports these): `baton hook` runs on
// every tool call and imports this file alone, without zod (a ~40 ms load, measured by
// `npm run bench:hook`). Pure.

/** Baton's answer for a PreToolUse (or PermissionRequest) hook; other events get "ask" (no opinion). */
export interface HookVerdict {
  readonly decision: "allow" | "deny" | "ask";
  /** Said to the model on deny, to the person in the terminal on ask. */
  readonly reason?: string;
}

/** The verdict every failure falls back to: the terminal asks the person itself. */
export const AskVerdict: HookVerdict = { decision: "ask", reason: "Baton did not answer; the terminal asks instead" };

/** What `baton hook` prints for a PreToolUse verdict (the CLI's `hookSpecificOutput`). */
export function preToolUseOutput(verdict: HookVerdict): { hookSpecificOutput: { hookEventName: "PreToolUse"; permissionDecision: HookVerdict["decision"]; permissionDecisionReason?: string } } {
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: verdict.decision,
      ...(verdict.reason !== undefined ? { permissionDecisionReason: verdict.reason } : {}),
    },
  };
}

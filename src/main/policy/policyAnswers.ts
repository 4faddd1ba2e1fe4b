// A policy verdict as the CLI hears it. Through the PreToolUse hook: deny and allow are decided
// there (both hold in every permission mode, bypassPermissions included: observed on 2.1.197 and
// 2.1.332), an explicit ask forces the CLI's permission request, and a verdict that only means
// "nobody has a rule" leaves the call to the CLI's own flow (which asks Baton when it needs to).
// `updatedInput` (a preset subagent's prompt with its context) is honoured with or without a
// decision. Through `can_use_tool`: allow and deny are answered, ask goes to the person.

import type { JsonObject } from "../../shared/protocol/messages.js";
import type { PolicyVerdict } from "../../shared/policy.js";
import type { PermissionDecision } from "../cli/permissionGate.js";

/** The rule of a verdict that only says no rule decided: the hook stays silent, a request asks the person. */
export const NoRuleDecided = "default:ask";

export function hookOutputFor(verdict: PolicyVerdict, updatedInput?: JsonObject): JsonObject {
  const changed: JsonObject = updatedInput !== undefined ? { updatedInput } : {};
  if (verdict.decision === "ask" && verdict.rule === NoRuleDecided) {
    return updatedInput === undefined ? { continue: true } : { hookSpecificOutput: { hookEventName: "PreToolUse", ...changed } };
  }
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: verdict.decision,
      permissionDecisionReason: verdict.message,
      ...(verdict.decision === "deny" ? {} : changed),
    },
  };
}

/** The answer to a `can_use_tool` request (an allow runs `updatedInput` when given), or undefined when the person must decide. */
export function permissionDecisionFor(verdict: PolicyVerdict, updatedInput?: JsonObject): PermissionDecision | undefined {
  const decidedBy = `policy:${verdict.rule}`;
  if (verdict.decision === "deny") return { behavior: "deny", message: verdict.message, decidedBy };
  if (verdict.decision === "allow") return { behavior: "allow", decidedBy, ...(updatedInput !== undefined ? { updatedInput } : {}) };
  return undefined;
}

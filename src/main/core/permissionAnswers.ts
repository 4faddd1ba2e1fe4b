// What a person's answer means to the CLI's `can_use_tool` request: "allow for this session" adds
// the request's own rule suggestions with destination "session", and Baton keeps the request's
// `allowRules` as its own session rules; "always allow in this project" keeps them as rules of the
// project folder (Baton's rules.json, never the CLI's settings, so the CLI is sent no update and
// the Rules view can take the rule back); AskUserQuestion answers go back
// as `updatedInput.answers` keyed by question text (multi-select comma-joined); an edited plan
// goes back in `updatedInput.plan`. A request the CLI marks `requires_user_interaction` (2.1.332:
// ExitPlanMode, AskUserQuestion) is answered by the person each time: it never becomes a session
// or project rule, and an AskUserQuestion allowed without answers would tell the model nothing. Pure.

import type { PendingPermission, PermissionAnswer } from "../../shared/api.js";
import type { JsonObject, PermissionUpdate } from "../../shared/protocol/messages.js";
import type { PermissionDecision } from "../cli/permissionGate.js";

export const ClearContextMessage =
  "The user approved this plan and chose to clear the context: it continues in a fresh session. Stop here.";

/** Rules Baton keeps because of an answer (RuleBook, origin "prompt"). */
export interface KeptRules {
  readonly scope: "session" | "project";
  /** In Claude Code's syntax, as the prompt showed them. */
  readonly rules: readonly string[];
}

export type AnswerOutcome =
  | { readonly ok: true; readonly decision: PermissionDecision; readonly startFreshWith?: string; readonly keep?: KeptRules }
  | { readonly ok: false; readonly code: "invalid_argument"; readonly message: string };

export function decisionFor(request: PendingPermission, answer: PermissionAnswer): AnswerOutcome {
  if (answer.behavior === "deny") {
    return { ok: true, decision: { behavior: "deny", message: answer.message, ...(answer.interrupt ? { interrupt: true } : {}), decidedBy: "user" } };
  }
  if (request.requiresUserInteraction === true) {
    if (answer.scope === "session" || answer.scope === "project" || answer.updatedPermissions !== undefined) {
      return invalid(`${request.toolName} needs your answer each time; it cannot be allowed for the ${answer.scope === "project" ? "project" : "session"}`);
    }
    if (request.toolName === "AskUserQuestion" && answer.answers === undefined && answer.updatedInput?.["answers"] === undefined) {
      return invalid("AskUserQuestion needs your answers; pick an option for each question or deny it");
    }
  }
  let input: JsonObject = answer.updatedInput ?? request.input;
  if (answer.answers !== undefined) {
    if (request.toolName !== "AskUserQuestion") return invalid("answers are only for AskUserQuestion");
    input = { ...input, answers: joinAnswers(answer.answers) };
  }
  if (answer.plan !== undefined || answer.clearContext === true) {
    if (request.toolName !== "ExitPlanMode") return invalid("plan and clearContext are only for ExitPlanMode");
  }
  if (answer.plan !== undefined) input = { ...input, plan: answer.plan };
  if (answer.clearContext === true) {
    // Allowing would let this session start on the plan too; it stops, and a new one carries it out.
    const plan = typeof input["plan"] === "string" ? input["plan"] : "";
    return { ok: true, decision: { behavior: "deny", message: ClearContextMessage, interrupt: true, decidedBy: "user" }, startFreshWith: plan };
  }
  const allowRules = request.allowRules ?? [];
  if (answer.scope === "project" && allowRules.length === 0) {
    return invalid(`No rule would allow this ${request.toolName} call in general; allow it once or for this session`);
  }
  const keep: KeptRules | undefined =
    (answer.scope === "session" || answer.scope === "project") && allowRules.length > 0 ? { scope: answer.scope, rules: allowRules } : undefined;
  const permissions = answer.updatedPermissions ?? (answer.scope === "session" ? sessionRules(request.suggestions) : undefined);
  return {
    ok: true,
    decision: {
      behavior: "allow",
      updatedInput: input,
      ...(permissions !== undefined && permissions.length > 0 ? { updatedPermissions: permissions } : {}),
      decidedBy: "user",
    },
    ...(keep !== undefined ? { keep } : {}),
  };
}

/** The request's addRules suggestions, remembered for this session only. */
export function sessionRules(suggestions: readonly PermissionUpdate[] | undefined): PermissionUpdate[] {
  return (suggestions ?? []).filter((s) => s.type === "addRules").map((s) => ({ ...s, destination: "session" as const }));
}

export function joinAnswers(answers: { readonly [question: string]: string | readonly string[] }): JsonObject {
  const out: Record<string, string> = {};
  for (const [question, value] of Object.entries(answers)) out[question] = typeof value === "string" ? value : value.join(", ");
  return out;
}

function invalid(message: string): AnswerOutcome {
  return { ok: false, code: "invalid_argument", message };
}

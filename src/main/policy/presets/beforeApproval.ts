// What a Deliberate subagent may do before its plan is approved (issue 24; the one table both
// the prompt and the check read): while it is
// clarifying or its plan is in review, only reading and asking. A write, an edit, a spawn or a
// command that is not read-only is refused with "submit your plan first".

import type { SubagentPhase } from "../../../shared/escalation.js";
import { ReadOnlyCommands, type Preset } from "../../../shared/policy.js";
import { canonicalToolName } from "../../../shared/ruleSyntax.js";
import { batonToolId } from "../../mcp/batonTools.js";
import { judgeReading, NEUTRAL_BUILTINS } from "./execPolicy.js";
import type { CommandLineReading } from "../shell/shellCommands.js";


/** The tools before approval, besides Bash with ReadOnlyCommands (a preset still needs each in its own list). */
export const ToolsBeforeApproval: readonly string[] = [
  "Read",
  "Grep",
  "Glob",
  "LS",
  "NotebookRead",
  "WebSearch",
  "WebFetch",
  "TodoWrite",
  "ToolSearch",
  batonToolId("ask_conductor"),
  batonToolId("submit_plan"),
];

/** Phases in which the table applies. */
export function beforeApproval(phase: SubagentPhase | undefined): phase is "clarifying" | "review" {
  return phase === "clarifying" || phase === "review";
}

const ReadOnlyAllow = [...NEUTRAL_BUILTINS, ...ReadOnlyCommands];
const AllowedBefore: ReadonlySet<string> = new Set(ToolsBeforeApproval.map(canonicalToolName));

/** Why a call is refused before approval, or undefined when it may run. */
export function beforeApprovalViolation(preset: Preset, phase: SubagentPhase, toolName: string, reading: CommandLineReading | undefined, line: string): string | undefined {
  const tool = canonicalToolName(toolName);
  const waiting = phase === "review" ? "its plan is in review" : "it has not submitted a plan yet";
  const advice = phase === "review" ? "wait for the review of your plan" : "submit your plan first (submit_plan) and wait for its approval";
  if (tool === "Bash") {
    const verdict = reading === undefined ? undefined : judgeReading(line, reading, ReadOnlyAllow, []);
    if (verdict?.allowed === true && verdict.writes.length === 0) return undefined;
    return `${preset.name} may not run \`${line.trim()}\` yet: ${waiting}, and until it is approved only read-only commands run; ${advice}`;
  }
  if (AllowedBefore.has(tool)) return undefined;
  return `${preset.name} may not use ${toolName} yet: ${waiting}, and until it is approved only reading and asking tools run (${ToolsBeforeApproval.join(", ")}); ${advice}`;
}

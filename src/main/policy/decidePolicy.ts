// The one decision every tool call of every agent passes (issue 22), for the PreToolUse hook, the
// `can_use_tool` requests and `baton policy` alike. In order:
//   1. an agent Baton cannot place, in orchestration mode: deny (fail closed);
//   2. the person's deny rules;
//   3. a preset agent's sandbox (preset.ts): its tools, its commands, its write root, its spawns;
//      then, for a Deliberate preset whose plan is not approved yet, only reading and asking
//      (beforeApproval.ts); a preset's deny stands even against the person's allow rule;
//   4. a request only a person may answer (AskUserQuestion, ExitPlanMode on 2.1.332): ask;
//   5. the person's ask, then allow rules;
//   6. what a preset allows runs without asking;
//   7. no rule: ask (the hook then leaves the call to the CLI's own permission flow).
// It never throws: any error is a deny that says so. The file system is reached only through
// `context.fs` (real paths of write targets), so the decision is a function of its arguments.

import type { SubagentPhase } from "../../shared/escalation.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import type { PermissionRule, PolicyAgent, PolicyVerdict, Preset, PresetSet } from "../../shared/policy.js";
import { beforeApproval, beforeApprovalViolation } from "./beforeApproval.js";
import { NoRuleDecided } from "./policyAnswers.js";
import { presetViolation } from "./presetSandbox.js";
import { matchRules, type RuleMatch } from "./ruleMatch.js";
import { argvOf, readCommandLine, type CommandLineReading } from "./shellCommands.js";
import { nodeWritePathFs } from "./writePathFs.js";
import type { WritePathFs } from "./writeRoot.js";

export interface PolicyCall {
  readonly agent: PolicyAgent;
  readonly toolName: string;
  readonly input: JsonObject;
  /** The CLI says only a person may answer this call (2.1.332 `requires_user_interaction`). */
  readonly requiresUserInteraction?: boolean;
  /** The calling agent's phase, when it is a Deliberate preset's in orchestration mode (issue 24). */
  readonly phase?: SubagentPhase;
}

export interface PolicyContext {
  readonly orchestration: boolean;
  readonly presets: PresetSet;
  /** The person's rules in force for this session (every scope). */
  readonly rules: readonly PermissionRule[];
  /** The session's working directory: the write root, and where relative paths start. */
  readonly cwd: string;
  /** The project root for `/path` rules (the cwd unless known better). */
  readonly projectRoot: string;
  readonly home: string;
  /** The agent's own worktree, also a write root. */
  readonly worktree?: string;
  readonly fs: WritePathFs;
}

/** A context with the usual defaults: the project root is the cwd, the file system is the real one. */
export function policyContext(parts: Omit<PolicyContext, "projectRoot" | "fs"> & Partial<Pick<PolicyContext, "projectRoot" | "fs">>): PolicyContext {
  return { ...parts, projectRoot: parts.projectRoot ?? parts.cwd, fs: parts.fs ?? nodeWritePathFs };
}

export function decidePolicy(call: PolicyCall, context: PolicyContext): PolicyVerdict {
  try {
    return decide(call, context);
  } catch (error) {
    return { decision: "deny", rule: "error", message: `Baton's policy could not decide this call (${error instanceof Error ? error.message : String(error)}); denied.` };
  }
}

function decide(call: PolicyCall, context: PolicyContext): PolicyVerdict {
  if (context.orchestration && call.agent.kind === "unknown") {
    return {
      decision: "deny",
      rule: "unknown-agent",
      message: `Baton cannot tell which agent ${call.agent.agentId} is, so it cannot apply that agent's sandbox; denied.`,
    };
  }
  const reading = call.toolName === "Bash" ? readBash(call.input) : undefined;
  const commands = reading?.ok === true ? reading.commands.map(argvOf) : undefined;
  const ruled = matchRules(context.rules, { toolName: call.toolName, input: call.input, ...(commands !== undefined ? { commands } : {}) }, context);
  if (ruled?.behavior === "deny") return fromRule(ruled, "deny");

  const preset = presetOf(call.agent, context);
  if (preset !== undefined) {
    const violation = presetViolation(preset, call, reading, context) ?? phaseViolation(preset, call, reading);
    if (violation !== undefined) {
      const overridden = ruled?.behavior === "allow" ? ` (your rule ${describe(ruled.rule)} cannot override a preset's sandbox)` : "";
      return { decision: "deny", rule: violation.rule, message: `${violation.message}${overridden}` };
    }
  }
  if (call.requiresUserInteraction === true) {
    return { decision: "ask", rule: "person-only", message: `Only you can answer ${call.toolName}.` };
  }
  if (ruled !== undefined) return fromRule(ruled, ruled.behavior);
  if (preset !== undefined) return { decision: "allow", rule: `preset:${preset.name}`, message: `${preset.name}'s sandbox allows it.` };
  return { decision: "ask", rule: NoRuleDecided, message: "No rule decides this call; the person is asked." };
}

/** A Deliberate preset before its plan is approved may only read and ask. */
function phaseViolation(preset: Preset, call: PolicyCall, reading: CommandLineReading | undefined): { rule: string; message: string } | undefined {
  if (preset.character !== "deliberate" || !beforeApproval(call.phase)) return undefined;
  const line = typeof call.input["command"] === "string" ? call.input["command"] : "";
  const message = beforeApprovalViolation(preset, call.phase, call.toolName, reading, line);
  return message === undefined ? undefined : { rule: `preset:${preset.name}/${call.phase}`, message };
}

/** The preset an agent runs as: only in orchestration mode, only for a subagent of a preset's type. */
export function presetOf(agent: PolicyAgent, context: Pick<PolicyContext, "orchestration" | "presets">): Preset | undefined {
  if (!context.orchestration || agent.kind !== "subagent") return undefined;
  return context.presets.presets.find((p) => p.name === agent.agentType);
}

function readBash(input: JsonObject): CommandLineReading {
  const command = input["command"];
  if (typeof command !== "string") return { ok: false, reason: "the Bash call has no command" };
  return readCommandLine(command);
}

function fromRule(match: RuleMatch, decision: RuleMatch["behavior"]): PolicyVerdict {
  const rule = `rule:${match.rule.behavior} ${match.rule.rule} (${match.rule.scope})`;
  const part = match.command !== undefined ? ` (\`${match.command.join(" ")}\`)` : "";
  const message =
    decision === "deny"
      ? `Denied by the person's rule ${describe(match.rule)}${part}.`
      : decision === "ask"
        ? `The person's rule ${describe(match.rule)} asks them first${part}.`
        : `Allowed by the person's rule ${describe(match.rule)}.`;
  return { decision, rule, message };
}

function describe(rule: PermissionRule): string {
  return `${rule.behavior} ${rule.rule} (${rule.scope === "everywhere" ? "everywhere" : `this ${rule.scope}`})`;
}

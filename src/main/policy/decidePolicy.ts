// The one decision every tool call of every agent passes (issue 22), for the PreToolUse hook, the
// `can_use_tool` requests and `baton policy` alike. In order:
//   1. an agent Baton cannot place, in orchestration mode: deny (fail closed);
//      then, in orchestration mode, a call of one of Baton's agent tools by an agent it is not
//      for (batonToolAccess.ts: the conductor's tools by any subagent, `conductor-only`): deny,
//      whatever the person's rules say;
//   2. the person's deny rules;
//   3. a preset agent's sandbox (preset.ts): its tools, its commands, its write root, its spawns;
//      then, for a Deliberate preset whose plan is not approved yet, only reading and asking
//      (beforeApproval.ts); a preset's deny stands even against the person's allow rule;
//   4. a request only a person may answer (AskUserQuestion, ExitPlanMode on 2.1.332): ask;
//   5. the person's ask, then allow rules;
//   6. a Baton agent tool called by an agent it is for (the conductor's tools by the conductor,
//      ask_conductor by a subagent, submit_plan by a Deliberate preset's agent) runs without
//      asking: with no blanket `--allowedTools`, this allow spares it the CLI's permission prompt;
//      then what a preset allows runs without asking;
//   7. no rule: ask (the hook then leaves the call to the CLI's own permission flow).
// It never throws: any error is a deny that says so. The file system is reached only through
// `context.fs` (real paths of write targets), so the decision is a function of its arguments.

import type { SubagentPhase } from "../../shared/escalation.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import type { PermissionRule, PolicyAgent, PolicyVerdict, Preset, PresetSet } from "../../shared/policy.js";
import { batonToolAccess, batonToolOf, type BatonCaller, type BatonToolVerdict } from "../mcp/batonToolAccess.js";
import { beforeApproval, beforeApprovalViolation } from "./presets/beforeApproval.js";
import { NoRuleDecided } from "./policyAnswers.js";
import { presetViolation } from "./presets/presetSandbox.js";
import { matchRules, type RuleMatch } from "./rules/ruleMatch.js";
import { argvOf, readCommandLine, type CommandLineReading } from "./shell/shellCommands.js";
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
  /** The agent's own worktree: then its only write root. */
  readonly worktree?: string;
  /** Baton's own files (settings, rules, presets, the audit trail): never written by a preset agent. */
  readonly batonFiles?: readonly string[];
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
  const baton = batonToolVerdict(call, context);
  if (baton?.allowed === false) return { decision: "deny", rule: baton.rule, message: baton.message };
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
  if (baton !== undefined) return { decision: "allow", rule: baton.rule, message: baton.message };
  if (preset !== undefined) return { decision: "allow", rule: `preset:${preset.name}`, message: `${preset.name}'s sandbox allows it.` };
  return { decision: "ask", rule: NoRuleDecided, message: "No rule decides this call; the person is asked." };
}

/**
 * Who may call Baton's agent tools (batonToolAccess.ts); undefined for every other tool, and
 * outside orchestration mode, where Baton runs no such server (a person's own server may be named
 * "baton").
 */
function batonToolVerdict(call: PolicyCall, context: PolicyContext): BatonToolVerdict | undefined {
  const tool = context.orchestration ? batonToolOf(call.toolName) : undefined;
  if (tool === undefined) return undefined;
  const deliberate = context.presets.presets.filter((p) => p.character === "deliberate").map((p) => p.name);
  return batonToolAccess(tool, batonCaller(call.agent, context), deliberate);
}

function batonCaller(agent: PolicyAgent, context: PolicyContext): BatonCaller {
  if (agent.kind === "main") return { kind: "conductor" };
  if (agent.kind === "unknown") return { kind: "subagent", agentId: agent.agentId, deliberate: false };
  return {
    kind: "subagent",
    ...(agent.agentId !== undefined ? { agentId: agent.agentId } : {}),
    agentType: agent.agentType,
    deliberate: presetOf(agent, context)?.character === "deliberate",
  };
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

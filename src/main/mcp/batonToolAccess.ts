// Who may call which of Baton's agent tools (issue 31, "Only the conductor conducts"). One table,
// read at both points a call passes: the policy's decision in the PreToolUse hook
// (decidePolicy.ts), and the escalation desk when the tools/call arrives (escalationDesk.ts), so
// a call that skipped the hook still cannot answer or approve.
//   * answer_subagent and review_subagent_plan are the conductor's (the main agent): every
//     subagent is refused, whatever its type (a preset, general-purpose, one a repository
//     defines). Otherwise a helper could approve a coder's plan and the trail would say the
//     conductor did.
//   * ask_conductor is any subagent's: the desk finds and routes the asker whatever its type, and
//     a question gates nothing, so a general-purpose agent may ask too.
//   * submit_plan is a Deliberate preset's: only those agents have a phase that an approval moves
//     (beforeApproval.ts). Any other agent is not held to a plan, so a review of its plan would
//     approve nothing while the trail said "approved".
//   * The conductor itself asks the person with AskUserQuestion; the desk has nobody to route its
//     own ask_conductor or submit_plan to.

import { BatonMcpServerName, BatonToolNames, type BatonToolName } from "./batonTools.js";

/** The agent id the trail gives the conductor: the main agent has none of its own. */
export const ConductorAgentId = "main";

/** The calling agent, as far as the table cares. */
export type BatonCaller =
  | { readonly kind: "conductor" }
  | {
      readonly kind: "subagent";
      readonly agentId?: string;
      /** Its `agent_type` (a preset's name, general-purpose, a repository's type), when known. */
      readonly agentType?: string;
      /** A Deliberate preset's agent: it has a phase, and its plan gates its changes. */
      readonly deliberate: boolean;
    }
  /** Nobody Baton can place: refused wherever it matters. */
  | { readonly kind: "unknown" };

export type BatonToolRule = "baton-tool" | "conductor-only" | "subagents-only" | "deliberate-only" | "unknown-agent";

export interface BatonToolVerdict {
  readonly allowed: boolean;
  /** The rule the audit trail names: `baton-tool` for an allowed call, else why it was refused. */
  readonly rule: BatonToolRule;
  /** For an allowed call a short note; for a refused one what the model is told (it can act on it). */
  readonly message: string;
}

/** The tools only the conductor may call. */
export const ConductorTools: readonly BatonToolName[] = ["answer_subagent", "review_subagent_plan"];

const Prefix = `mcp__${BatonMcpServerName}__`;

/** The Baton tool a tool name calls (`mcp__baton__submit_plan` → submit_plan), or undefined. */
export function batonToolOf(toolName: string): BatonToolName | undefined {
  if (!toolName.startsWith(Prefix)) return undefined;
  const tool = toolName.slice(Prefix.length);
  return (BatonToolNames as readonly string[]).includes(tool) ? (tool as BatonToolName) : undefined;
}

/**
 * Whether `caller` may call `tool`. `deliberatePresets` names the Deliberate presets in force, for
 * the message that tells another agent submit_plan is not its tool.
 */
export function batonToolAccess(tool: BatonToolName, caller: BatonCaller, deliberatePresets: readonly string[] = []): BatonToolVerdict {
  if (caller.kind === "unknown") {
    return { allowed: false, rule: "unknown-agent", message: `Baton cannot tell which agent called ${tool}, so it cannot check that this agent may; refused.` };
  }
  if (ConductorTools.includes(tool)) {
    if (caller.kind === "conductor") return { allowed: true, rule: "baton-tool", message: `${tool} is the conductor's tool.` };
    return {
      allowed: false,
      rule: "conductor-only",
      message:
        `Only the conductor (the main agent) may call ${tool}; you are a subagent (${who(caller)}), and a subagent cannot answer another's question or review its plan. ` +
        "Do not retry: say in your result what you found, and the conductor decides.",
    };
  }
  if (caller.kind === "conductor") {
    return {
      allowed: false,
      rule: "subagents-only",
      message: `${tool} is for subagents, to reach you: you are the conductor. Ask the person with AskUserQuestion instead.`,
    };
  }
  if (tool === "submit_plan" && !caller.deliberate) {
    const presets = deliberatePresets.length > 0 ? ` (${deliberatePresets.join(", ")})` : "";
    return {
      allowed: false,
      rule: "deliberate-only",
      message:
        `submit_plan is for the Deliberate presets${presets}, whose changes wait for an approved plan; you (${who(caller)}) are not held to a plan, so there is nothing to review. ` +
        "Go on with your task, and ask the conductor with ask_conductor if something is unclear.",
    };
  }
  return { allowed: true, rule: "baton-tool", message: tool === "submit_plan" ? "A Deliberate agent submits its plan for review." : "A subagent asks the conductor." };
}

function who(caller: Extract<BatonCaller, { kind: "subagent" }>): string {
  return [caller.agentType ?? "an agent of unknown type", caller.agentId].filter((p) => p !== undefined).join(" ");
}

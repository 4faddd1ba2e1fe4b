// One live session's side of the policy engine: what `initialize` carries (the PreToolUse hook
// for every tool, and in orchestration mode the presets as custom agents and the conductor's
// guidance), the hook's answers, the decider that puts the engine before the person on
// `can_use_tool`, and a record of every decision. The engine (decidePolicy.ts) stays pure; this
// file gathers its context and delivers its verdicts.

import os from "node:os";
import type { SubagentPhase } from "../../shared/escalation.js";
import type { ClientEvent } from "../../shared/events.js";
import type { HookCallbackRequest, InitializeRequest, JsonObject } from "../../shared/protocol/messages.js";
import type { PermissionRule, PolicyAgent, PolicyVerdict, PresetSet } from "../../shared/policy.js";
import type { HookCallbackHandler } from "../cli/incomingRequests.js";
import type { PermissionDecider } from "../cli/permissionGate.js";
import type { AuditPolicyDecision } from "../store/audit.js";
import { CallingAgents, type AgentTypeLookup } from "./callingAgent.js";
import { conductorGuidance } from "./conductorGuidance.js";
import { decidePolicy, policyContext, presetOf, type PolicyContext } from "./decidePolicy.js";
import { hookOutputFor, permissionDecisionFor } from "./policyAnswers.js";
import { environmentBlock, readMemorySections } from "./subagentContext.js";
import type { WritePathFs } from "./writeRoot.js";

/** The hook callback id Baton registers; other ids (a test's, the CLI's own) are not the policy's. */
export const PolicyHookId = "baton_policy";

export interface SessionPolicyOptions {
  readonly orchestration: boolean;
  readonly presets: () => PresetSet;
  /** The person's rules in force for this session now. */
  readonly rules: () => readonly PermissionRule[];
  readonly cwd: string;
  readonly home?: string;
  readonly fs?: WritePathFs;
  /** The type of a subagent by its id, from the session's records. */
  readonly agentType: AgentTypeLookup;
  /** The session's id, once the CLI has said it. */
  readonly sessionId: () => string | undefined;
  readonly record?: (entry: AuditPolicyDecision) => void;
  /** Events for the transcript: a call the policy refused through the hook shows denied on its card. */
  readonly emit: (event: ClientEvent) => void;
  /** A Deliberate subagent's phase, by its agent id (issue 24); undefined for every other agent. */
  readonly phaseOf?: (agentId: string) => SubagentPhase | undefined;
  /** The policy let a Deliberate preset's Agent call through (its tool_use id): its phase starts. */
  readonly onDeliberateSpawn?: (toolUseId: string) => void;
  readonly log?: (message: string, fields: Record<string, unknown>) => void;
}

export class SessionPolicy {
  private readonly agents: CallingAgents;

  constructor(private readonly options: SessionPolicyOptions) {
    this.agents = new CallingAgents(options.agentType);
  }

  /** Whether this session runs in orchestration mode (presets as subagents, Baton's agent tools). */
  get orchestration(): boolean {
    return this.options.orchestration;
  }

  /** The fields of `initialize` the policy needs, merged over `base` (a caller's own hooks stay). */
  initialize(base: Omit<InitializeRequest, "subtype"> = {}): Omit<InitializeRequest, "subtype"> {
    const hooks = { ...base.hooks, PreToolUse: [...(base.hooks?.["PreToolUse"] ?? []), { hookCallbackIds: [PolicyHookId] }] };
    if (!this.options.orchestration) return { ...base, hooks };
    const presets = this.options.presets().presets;
    const agents = Object.fromEntries(presets.map((p) => [p.name, { description: p.description, prompt: p.prompt, tools: [...p.tools] }]));
    const guidance = conductorGuidance(presets);
    return {
      ...base,
      hooks,
      agents: { ...base.agents, ...agents },
      appendSystemPrompt: base.appendSystemPrompt === undefined ? guidance : `${base.appendSystemPrompt}\n\n${guidance}`,
    };
  }

  /** Answers Baton's PreToolUse hook; other callbacks go to `next` (or continue). */
  hookHandler(next?: HookCallbackHandler): HookCallbackHandler {
    return async (request, signal) => {
      if (request.callback_id !== PolicyHookId) return next ? next(request, signal) : { continue: true };
      return this.onPreToolUse(request);
    };
  }

  /** The engine first; what it leaves to the person goes to `person`. */
  decider(person: PermissionDecider): PermissionDecider {
    return async (request, signal) => {
      const agent = this.agents.fromPermission(request.agentId, request.toolUseId);
      this.agents.forget(request.toolUseId);
      const context = this.context();
      const verdict = decidePolicy(
        { agent, toolName: request.toolName, input: request.input, requiresUserInteraction: request.requiresUserInteraction === true, ...this.phaseField(agent, context) },
        context,
      );
      this.note(agent, request.toolUseId, request.toolName, request.input, verdict, "permission", context);
      return permissionDecisionFor(verdict) ?? person(request, signal);
    };
  }

  private onPreToolUse(request: HookCallbackRequest): JsonObject {
    const input = request.input;
    const toolName = typeof input["tool_name"] === "string" ? input["tool_name"] : "";
    const toolInput = isObject(input["tool_input"]) ? input["tool_input"] : {};
    const toolUseId = request.tool_use_id ?? (typeof input["tool_use_id"] === "string" ? input["tool_use_id"] : "");
    const agent = this.agents.fromHook(input, toolUseId === "" ? undefined : toolUseId);
    const context = this.context();
    const verdict = decidePolicy({ agent, toolName, input: toolInput, ...this.phaseField(agent, context) }, context);
    this.note(agent, toolUseId, toolName, toolInput, verdict, "hook", context);
    if (verdict.decision !== "deny" && toolUseId !== "") this.noteSpawn(toolUseId, toolName, toolInput, context);
    // Decided here, no permission request follows: the card learns it from this event.
    if (verdict.decision !== "ask" && toolUseId !== "") {
      this.options.emit({
        kind: "policy_decision",
        toolName,
        toolUseId,
        ...(agent.kind !== "main" && agent.agentId !== undefined ? { agentId: agent.agentId } : {}),
        decision: verdict.decision,
        rule: verdict.rule,
        message: verdict.message,
      });
    }
    return hookOutputFor(verdict, verdict.decision === "deny" ? undefined : this.withEnvironment(toolName, toolInput, context));
  }

  /** Only a Deliberate preset's calls read a phase: the others do not look it up. */
  private phaseField(agent: PolicyAgent, context: PolicyContext): { phase?: SubagentPhase } {
    if (agent.kind !== "subagent" || agent.agentId === undefined || presetOf(agent, context)?.character !== "deliberate") return {};
    const phase = this.options.phaseOf?.(agent.agentId);
    return phase === undefined ? {} : { phase };
  }

  /** A Deliberate preset's spawn the policy let through starts that agent's phase. */
  private noteSpawn(toolUseId: string, toolName: string, input: JsonObject, context: PolicyContext): void {
    if (!this.options.orchestration || (toolName !== "Agent" && toolName !== "Task")) return;
    const type = input["subagent_type"];
    if (typeof type !== "string") return;
    if (presetOf({ kind: "subagent", agentType: type }, context)?.character === "deliberate") this.options.onDeliberateSpawn?.(toolUseId);
  }

  /** The agent the PreToolUse hook named for a call (an MCP tool's caller, issue 24). */
  agentOfCall(toolUseId: string): PolicyAgent | undefined {
    return this.agents.known(toolUseId);
  }

  private context(): PolicyContext {
    return policyContext({
      orchestration: this.options.orchestration,
      presets: this.options.presets(),
      rules: this.options.rules(),
      cwd: this.options.cwd,
      home: this.options.home ?? os.homedir(),
      ...(this.options.fs !== undefined ? { fs: this.options.fs } : {}),
    });
  }

  /**
   * A spawn of a preset subagent gets its environment appended to its prompt (seed 003
   * SubagentEnvironment); undefined for every other call.
   */
  private withEnvironment(toolName: string, input: JsonObject, context: PolicyContext): JsonObject | undefined {
    if (!this.options.orchestration || (toolName !== "Agent" && toolName !== "Task")) return undefined;
    const type = input["subagent_type"];
    const prompt = input["prompt"];
    if (typeof type !== "string" || typeof prompt !== "string") return undefined;
    if (presetOf({ kind: "subagent", agentType: type }, context) === undefined) return undefined;
    const block = environmentBlock(this.options.cwd, undefined, readMemorySections(this.options.cwd));
    return { ...input, prompt: `${prompt}\n\n${block}` };
  }

  private note(agent: PolicyAgent, toolUseId: string, toolName: string, input: JsonObject, verdict: PolicyVerdict, origin: "hook" | "permission", context: PolicyContext): void {
    const sessionId = this.options.sessionId();
    if (this.options.record === undefined || sessionId === undefined) return;
    const preset = presetOf(agent, context);
    this.options.record({
      sessionId,
      time: new Date().toISOString(),
      toolUseId,
      toolName,
      ...(agent.kind !== "main" && agent.agentId !== undefined ? { agentId: agent.agentId } : {}),
      ...(agent.kind === "subagent" ? { agentType: agent.agentType } : {}),
      ...(preset !== undefined ? { preset: preset.name } : {}),
      input,
      decision: verdict.decision,
      rule: verdict.rule,
      message: verdict.message,
      origin,
    });
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

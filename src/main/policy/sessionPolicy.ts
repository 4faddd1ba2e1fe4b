// One live session's side of the policy engine: what `initialize` carries (the PreToolUse hook
// for every tool, and in orchestration mode the presets as custom agents and the conductor's
// guidance), the hook's answers, the decider that puts the engine before the person on
// `can_use_tool`, and a record of every decision. The engine (decidePolicy.ts) stays pure; this
// file gathers its context and delivers its verdicts. A preset agent's Bash that the engine lets
// through runs inside the operating system's sandbox (src/main/sandbox/): the allowed input is
// the wrapped command, and the PostToolUse hooks say when it ended.

import os from "node:os";
import type { SubagentPhase } from "../../shared/escalation.js";
import type { ClientEvent } from "../../shared/events.js";
import type { HookCallbackRequest, HookMatcher, InitializeRequest, JsonObject } from "../../shared/protocol/messages.js";
import type { PermissionRule, PolicyAgent, PolicyVerdict, PresetSet, SandboxProtection } from "../../shared/policy.js";
import type { HookCallbackHandler } from "../cli/incomingRequests.js";
import type { PermissionDecider, PermissionDecision } from "../cli/permissionGate.js";
import type { SessionSandbox } from "../sandbox/sessionSandbox.js";
import type { AuditPolicyDecision } from "../audit/audit.js";
import { agentWorktree } from "./agentWorktree.js";
import { CallingAgents, type AgentTypeLookup } from "./callingAgent.js";
import { conductorGuidance } from "./presets/conductorGuidance.js";
import { decidePolicy, policyContext, presetOf, type PolicyContext } from "./decidePolicy.js";
import { hookOutputFor, permissionDecisionFor } from "./policyAnswers.js";
import { environmentBlock, readMemorySections } from "./subagentContext.js";
import type { WritePathFs } from "./writeRoot.js";

/** The hook callback id Baton registers; other ids (a test's, the CLI's own) are not the policy's. */
export const PolicyHookId = "baton_policy";
/** The PostToolUse and PostToolUseFailure callback: a call ended (its sandbox's lease, what was remembered of it). */
export const CallDoneHookId = "baton_call_done";

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
  /** Orchestration mode: where preset agents' Bash commands are wrapped in the OS sandbox. */
  readonly sandbox?: SessionSandbox;
  /** Baton's own files, which no preset agent may write. */
  readonly batonFiles?: readonly string[];
}

/** What held a call: the policy's verdict, and for a preset's Bash the sandbox's part. */
interface Guarded {
  readonly verdict: PolicyVerdict;
  /** The input the CLI runs when allowed: the sandboxed command. */
  readonly input?: JsonObject;
  readonly protection?: SandboxProtection;
}

export class SessionPolicy {
  private readonly agents: CallingAgents;
  /** Where the hook said each call's agent runs its commands, for the call's permission request. */
  private readonly agentCwds = new Map<string, string>();

  constructor(private readonly options: SessionPolicyOptions) {
    this.agents = new CallingAgents(options.agentType);
  }

  /** Whether this session runs in orchestration mode (presets as subagents, Baton's agent tools). */
  get orchestration(): boolean {
    return this.options.orchestration;
  }

  /** The fields of `initialize` the policy needs, merged over `base` (a caller's own hooks stay). */
  initialize(base: Omit<InitializeRequest, "subtype"> = {}): Omit<InitializeRequest, "subtype"> {
    const ended: Record<string, HookMatcher[]> = this.options.sandbox === undefined ? {} : { PostToolUse: withHook(base, "PostToolUse", CallDoneHookId), PostToolUseFailure: withHook(base, "PostToolUseFailure", CallDoneHookId) };
    const hooks = { ...base.hooks, PreToolUse: withHook(base, "PreToolUse", PolicyHookId), ...ended };
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
      if (request.callback_id === PolicyHookId) return this.onPreToolUse(request);
      if (request.callback_id === CallDoneHookId) {
        const toolUseId = toolUseIdOf(request);
        this.options.sandbox?.finished(toolUseId);
        this.agents.forget(toolUseId);
        this.agentCwds.delete(toolUseId);
        return { continue: true };
      }
      return next ? next(request, signal) : { continue: true };
    };
  }

  /** The engine first; what it leaves to the person goes to `person`. */
  decider(person: PermissionDecider): PermissionDecider {
    return async (request, signal) => {
      // What the hook named stays until the call ends (the desk asks who made a Baton tool's call).
      const agent = this.agents.fromPermission(request.agentId, request.toolUseId);
      const agentCwd = this.agentCwds.get(request.toolUseId);
      const call = { agent, toolName: request.toolName, toolUseId: request.toolUseId, ...(agentCwd !== undefined ? { agentCwd } : {}) };
      const context = this.context(call);
      const decided = await this.guard(call, request.input, decidePolicy({ ...call, input: request.input, requiresUserInteraction: request.requiresUserInteraction === true, ...this.phaseField(agent, context) }, context), context);
      this.note(agent, request.toolUseId, request.toolName, request.input, decided.verdict, "permission", context, decided.protection);
      const answer = permissionDecisionFor(decided.verdict, decided.input) ?? (await person(request, signal));
      // The person let a preset agent's command run: it runs in its sandbox like any other.
      return answer.behavior === "allow" && decided.verdict.decision === "ask" ? this.sandboxedAnswer(call, request.input, answer, context) : answer;
    };
  }

  /** The person's allow of a preset agent's Bash, with the command put in the agent's sandbox (or refused when it cannot be). */
  private async sandboxedAnswer(call: GuardCall, input: JsonObject, answer: Extract<PermissionDecision, { behavior: "allow" }>, context: PolicyContext): Promise<PermissionDecision> {
    const allowed = { decision: "allow" as const, rule: "person", message: "The person allowed it." };
    const guarded = await this.guard(call, answer.updatedInput ?? input, allowed, context);
    if (guarded.verdict.decision === "deny") {
      this.note(call.agent, call.toolUseId, call.toolName, input, guarded.verdict, "permission", context);
      return { behavior: "deny", message: guarded.verdict.message, decidedBy: `policy:${guarded.verdict.rule}` };
    }
    return guarded.input === undefined ? answer : { ...answer, updatedInput: guarded.input };
  }

  /**
   * A preset agent's Bash the engine allows runs in the agent's OS sandbox: the verdict then
   * carries the sandboxed input, or becomes a refusal when no sandbox can hold the command.
   * Every other call is the verdict alone.
   */
  private async guard(call: GuardCall, input: JsonObject, verdict: PolicyVerdict, context: PolicyContext): Promise<Guarded> {
    const sandbox = this.options.sandbox;
    const preset = presetOf(call.agent, context);
    if (sandbox === undefined || preset === undefined || call.toolName !== "Bash" || verdict.decision !== "allow") return { verdict };
    const guarded = await sandbox.guard({
      preset,
      input,
      toolUseId: call.toolUseId,
      ...(call.agentCwd !== undefined ? { agentCwd: call.agentCwd } : {}),
      ...(context.worktree !== undefined ? { worktree: context.worktree } : {}),
    });
    if (guarded.kind === "refused") return { verdict: { decision: "deny", rule: guarded.rule, message: guarded.message } };
    const message = `${verdict.message} It ${guarded.note}.`;
    return { verdict: { ...verdict, message }, protection: guarded.protection, ...(guarded.kind === "sandboxed" ? { input: guarded.input } : {}) };
  }

  private async onPreToolUse(request: HookCallbackRequest): Promise<JsonObject> {
    const input = request.input;
    const toolName = typeof input["tool_name"] === "string" ? input["tool_name"] : "";
    const toolInput = isObject(input["tool_input"]) ? input["tool_input"] : {};
    const toolUseId = toolUseIdOf(request);
    const agent = this.agents.fromHook(input, toolUseId === "" ? undefined : toolUseId);
    const agentCwd = typeof input["cwd"] === "string" && input["cwd"] !== "" ? input["cwd"] : undefined;
    const call = { agent, toolName, toolUseId, ...(agentCwd !== undefined ? { agentCwd } : {}) };
    const context = this.context(call);
    const { verdict, input: sandboxed, protection } = await this.guard(call, toolInput, decidePolicy({ ...call, input: toolInput, ...this.phaseField(agent, context) }, context), context);
    // An ask goes on to a permission request, which must know where the agent runs.
    if (verdict.decision === "ask" && agentCwd !== undefined && toolUseId !== "") this.rememberCwd(toolUseId, agentCwd);
    this.note(agent, toolUseId, toolName, toolInput, verdict, "hook", context, protection);
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
    return hookOutputFor(verdict, verdict.decision === "deny" ? undefined : (sandboxed ?? this.withEnvironment(toolName, toolInput, context)));
  }

  /** The session stops: its sandboxed commands' leases end. */
  close(): void {
    this.options.sandbox?.close();
    this.agentCwds.clear();
  }

  private rememberCwd(toolUseId: string, cwd: string): void {
    // Bounded like CallingAgents: a request that never came must not keep its entry forever.
    if (this.agentCwds.size >= 10_000) this.agentCwds.delete(this.agentCwds.keys().next().value as string);
    this.agentCwds.set(toolUseId, cwd);
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

  /**
   * The decision's context. A subagent that works in a worktree of its own (the hook's `cwd` lies
   * in it) has that worktree as its working directory and only write root; the session's folder
   * stays the project root of the person's `/path` rules.
   */
  private context(call?: GuardCall): PolicyContext {
    const agentId = call?.agent.kind === "subagent" ? call.agent.agentId : undefined;
    const worktree = agentWorktree(agentId, call?.agentCwd);
    return policyContext({
      orchestration: this.options.orchestration,
      presets: this.options.presets(),
      rules: this.options.rules(),
      cwd: worktree ?? this.options.cwd,
      projectRoot: this.options.cwd,
      home: this.options.home ?? os.homedir(),
      ...(worktree !== undefined ? { worktree } : {}),
      ...(this.options.batonFiles !== undefined ? { batonFiles: this.options.batonFiles } : {}),
      ...(this.options.fs !== undefined ? { fs: this.options.fs } : {}),
    });
  }

  /**
   * A spawn of a preset subagent gets its environment appended to its prompt
   * (subagentContext.ts); undefined for every other call.
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

  private note(agent: PolicyAgent, toolUseId: string, toolName: string, input: JsonObject, verdict: PolicyVerdict, origin: "hook" | "permission", context: PolicyContext, protection?: SandboxProtection): void {
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
      ...(protection !== undefined ? { protection } : {}),
    });
  }
}

interface GuardCall {
  readonly agent: PolicyAgent;
  readonly toolName: string;
  readonly toolUseId: string;
  readonly agentCwd?: string;
}

/** The hooks of `event` in `base`, with Baton's callback added. */
function withHook(base: Omit<InitializeRequest, "subtype">, event: string, id: string): HookMatcher[] {
  return [...(base.hooks?.[event] ?? []), { hookCallbackIds: [id] }];
}

function toolUseIdOf(request: HookCallbackRequest): string {
  return request.tool_use_id ?? (typeof request.input["tool_use_id"] === "string" ? request.input["tool_use_id"] : "");
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Which agent makes a tool call (issue 22): the PreToolUse hook names it (`agent_id`, `agent_type`:
// docs/protocol-notes.md, "The PreToolUse hook as a policy point"); a `can_use_tool` request
// carries only `agent_id`, so its type comes from the hook that fired for the same call, else from
// the agent's record. A call with no agent id is the main agent's. An id Baton cannot place is
// `unknown`, which the engine denies.

import type { JsonObject } from "../../shared/protocol/messages.js";
import type { PolicyAgent } from "../../shared/policy.js";

/** The type of the agent with this id, from the session's records; undefined when Baton has none. */
export type AgentTypeLookup = (agentId: string) => string | undefined;

/** Remembers the agent the hook named for each call, so the call's permission request knows it too. */
export class CallingAgents {
  private readonly byToolUse = new Map<string, PolicyAgent>();

  constructor(private readonly lookup: AgentTypeLookup) {}

  /** From a hook's input. Remembers the answer for the call's `can_use_tool`. */
  fromHook(input: JsonObject, toolUseId: string | undefined): PolicyAgent {
    const agentId = text(input["agent_id"]);
    const agentType = text(input["agent_type"]);
    const agent = this.place(agentId, agentType);
    if (toolUseId !== undefined) this.remember(toolUseId, agent);
    return agent;
  }

  /** From a `can_use_tool` request's `agent_id` and `tool_use_id`. */
  fromPermission(agentId: string | undefined, toolUseId: string): PolicyAgent {
    const known = this.byToolUse.get(toolUseId);
    if (known !== undefined && (known.kind === "main" ? agentId === undefined : known.kind === "subagent" && known.agentId === agentId)) return known;
    return this.place(agentId, undefined);
  }

  /** The agent the hook named for this call, if it fired and was remembered. */
  known(toolUseId: string): PolicyAgent | undefined {
    return this.byToolUse.get(toolUseId);
  }

  /** The call is over: its permission request, if any, has come and gone. */
  forget(toolUseId: string): void {
    this.byToolUse.delete(toolUseId);
  }

  private place(agentId: string | undefined, agentType: string | undefined): PolicyAgent {
    if (agentId === undefined) return { kind: "main" };
    const type = agentType ?? this.lookup(agentId);
    return type === undefined || type === "" ? { kind: "unknown", agentId } : { kind: "subagent", agentId, agentType: type };
  }

  private remember(toolUseId: string, agent: PolicyAgent): void {
    // Bounded: a call whose result never came (a killed process) must not keep its entry forever.
    if (this.byToolUse.size >= MaxRemembered) this.byToolUse.delete(this.byToolUse.keys().next().value as string);
    this.byToolUse.set(toolUseId, agent);
  }
}

const MaxRemembered = 10_000;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

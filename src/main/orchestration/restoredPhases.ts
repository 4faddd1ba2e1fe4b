// The phase each Deliberate agent of a session was last in, from the session's audit trail: a
// resumed session (`--resume` keeps the id, so one trail spans every run) starts its escalation
// desk from these, and an agent continued by SendMessage is held to its phase as before. The new
// run's model has no record of an earlier run's agents, so their agent ids (which the policy
// hooks name) are read from the trail too.
import type { SubagentPhase } from "../../shared/escalation.js";
import type { AuditTrailRow } from "../audit/audit.js";

export interface RestoredPhases {
  /** By the agent's Agent call. */
  readonly phases: ReadonlyMap<string, SubagentPhase>;
  /** Agent id → its Agent call, for every agent with a phase. */
  readonly calls: ReadonlyMap<string, string>;
}

export function phasesFromTrail(trail: readonly AuditTrailRow[] | undefined): RestoredPhases {
  const phases = new Map<string, SubagentPhase>();
  const calls = new Map<string, string>();
  for (const row of trail ?? []) {
    if (row.kind === "phase") phases.set(row.agentToolUseId, row.phase);
    if ("agentToolUseId" in row && "agentId" in row && typeof row.agentId === "string" && row.agentId !== "") calls.set(row.agentId, row.agentToolUseId);
  }
  for (const [agentId, call] of calls) if (!phases.has(call)) calls.delete(agentId);
  return { phases, calls };
}

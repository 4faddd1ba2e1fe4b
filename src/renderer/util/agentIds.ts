// Which ids of a list are subagent calls, kept up to date as the list changes. A list mostly grows
// at its end (and a capped record also loses its head), and an id turns into a subagent call only
// in a delta that bumps the transcript state's agentEpoch: so only the ids a list gained need a look.

import { listShift } from "../../shared/delta/listShift.js";

export interface AgentIds {
  readonly ids: readonly string[];
  readonly epoch: number;
  readonly agents: readonly string[];
  /** The agent ids joined by "\n": a value React can compare. */
  readonly joined: string;
}

export function agentIds(previous: AgentIds | undefined, ids: readonly string[], epoch: number, isAgent: (id: string) => boolean): AgentIds {
  if (previous !== undefined && previous.ids === ids && previous.epoch === epoch) return previous;
  const shift = previous !== undefined && previous.epoch === epoch ? listShift(previous.ids, ids) : undefined;
  let agents: string[];
  if (previous === undefined || shift === undefined) {
    agents = ids.filter(isAgent);
  } else {
    const gone = new Set(previous.ids.slice(0, shift.head));
    agents = previous.agents.filter((id) => !gone.has(id));
    for (let i = shift.kept; i < ids.length; i++) if (isAgent(ids[i] as string)) agents.push(ids[i] as string);
  }
  return { ids, epoch, agents, joined: agents.join("\n") };
}

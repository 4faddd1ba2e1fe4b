// Which ids of a list are subagent calls, kept up to date as the list changes. A list mostly grows
// at its end (and a capped record also loses its head), and an id turns into a subagent call only
// in a delta that bumps the store's agentEpoch: so only the ids a list gained need a look.

export interface AgentIds {
  readonly ids: readonly string[];
  readonly epoch: number;
  readonly agents: readonly string[];
  /** The agent ids joined by "\n": a value React can compare. */
  readonly joined: string;
}

export function agentIds(previous: AgentIds | undefined, ids: readonly string[], epoch: number, isAgent: (id: string) => boolean): AgentIds {
  if (previous !== undefined && previous.ids === ids && previous.epoch === epoch) return previous;
  const kept = previous !== undefined && previous.epoch === epoch ? keptPrefix(previous.ids, ids) : undefined;
  let agents: string[];
  if (kept === undefined) {
    agents = ids.filter(isAgent);
  } else {
    const gone = new Set(previous!.ids.slice(0, kept.head));
    agents = previous!.agents.filter((id) => !gone.has(id));
    for (let i = kept.length; i < ids.length; i++) if (isAgent(ids[i] as string)) agents.push(ids[i] as string);
  }
  const joined = agents.join("\n");
  return { ids, epoch, agents, joined: previous?.joined === joined ? previous.joined : joined };
}

/** When `next` is `previous` without its first `head` ids and with more at the end: head, and how many of `next` were kept. */
function keptPrefix(previous: readonly string[], next: readonly string[]): { readonly head: number; readonly length: number } | undefined {
  if (previous.length === 0) return { head: 0, length: 0 };
  const head = next.length === 0 ? previous.length : previous.indexOf(next[0] as string);
  if (head < 0) return undefined;
  const length = previous.length - head;
  if (length > next.length) return undefined;
  for (let i = 0; i < length; i++) if (previous[head + i] !== next[i]) return undefined;
  return { head, length };
}

// The CLI appends a note for the model to every Agent tool_result: "agentId: … (use SendMessage
// with to: '…' to continue this agent)\n<usage>…</usage>". People never read it: summaries and
// the search index leave it out. It is the only place a result inside a sidechain (a depth-2
// agent's) names the agent and its totals: such lines carry no toolUseResult envelope.

/** A result block that is only the trailer. */
export const AgentTrailerBlock = /^agentId: \S+ \(use SendMessage[\s\S]*$/;

/** `text` without a trailing Agent trailer. */
export function withoutAgentTrailer(text: string): string {
  // Most texts (every tool output the index reads) have none: a plain search is cheaper than the pattern.
  if (!text.includes("(use SendMessage")) return text;
  return text.replace(/\n*agentId: \S+ \(use SendMessage[\s\S]*$/, "").trim();
}

/** What a trailer says of the agent: its id and the `<usage>` figures. */
export interface AgentTrailer {
  readonly agentId: string;
  readonly totalTokens?: number;
  readonly toolUses?: number;
  readonly durationMs?: number;
}

const TrailerStart = /agentId: (\S+) \(use SendMessage/;
const UsageBody = /<usage>([\s\S]*?)<\/usage>/;

/** The trailer of an Agent result's text, if it has one. */
export function agentTrailerOf(text: string): AgentTrailer | undefined {
  if (!text.includes("(use SendMessage")) return undefined;
  const start = TrailerStart.exec(text);
  if (start === null) return undefined;
  const agentId = start[1]!;
  const figures = new Map<string, number>();
  for (const m of (UsageBody.exec(text.slice(start.index))?.[1] ?? "").matchAll(/(\w+):\s*(\d+)/g)) {
    figures.set(m[1]!, Number(m[2]));
  }
  const totalTokens = figures.get("subagent_tokens") ?? figures.get("total_tokens");
  const toolUses = figures.get("tool_uses");
  const durationMs = figures.get("duration_ms");
  return {
    agentId,
    ...(totalTokens === undefined ? {} : { totalTokens }),
    ...(toolUses === undefined ? {} : { toolUses }),
    ...(durationMs === undefined ? {} : { durationMs }),
  };
}

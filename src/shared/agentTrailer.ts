// The CLI appends a note for the model to every Agent tool_result: "agentId: … (use SendMessage
// with to: '…' to continue this agent)\n<usage>…</usage>". People never need it: summaries and
// the search index leave it out.

/** A result block that is only the trailer. */
export const AgentTrailerBlock = /^agentId: \S+ \(use SendMessage[\s\S]*$/;

/** `text` without a trailing Agent trailer. */
export function withoutAgentTrailer(text: string): string {
  // Most texts (every tool output the index reads) have none: a plain search is cheaper than the pattern.
  if (!text.includes("(use SendMessage")) return text;
  return text.replace(/\n*agentId: \S+ \(use SendMessage[\s\S]*$/, "").trim();
}

// A subagent card's share of its session's tokens: what the agent's own model calls read against
// what every call of the session read (src/main/hub/tokenShares.ts counts both). Never guessed:
// when the agent's calls did not reach Baton, the card says so instead of a number.

import type { SubagentRecord } from "../../shared/transcript.js";
import { formatTokens } from "./format.js";

export interface ShareView {
  readonly text: string;
  /** What the figure counts, or why there is none. */
  readonly why: string;
}

const Counts = "input, cache read and cache write tokens of this agent's own model calls (the agents it started count on their own cards; output tokens are left out: the stream reports them before the answer is written)";

/** What the card shows, or undefined when the session's total is not known (before a turn ended; a restored session). */
export function shareView(record: SubagentRecord, sessionTokens: number | undefined): ShareView | undefined {
  if (sessionTokens === undefined || sessionTokens <= 0) return undefined;
  const own = record.inputTokens;
  if (own === undefined) {
    // A running first-level agent's calls are still to come; a nested one's may never be streamed.
    if (record.status === "running" && (record.spawnDepth ?? 1) < 2) return undefined;
    return { text: "share —", why: "Share of the session's tokens: not known. None of this agent's model calls reached Baton (Claude Code 2.1.197 streams the calls of first-level agents only)." };
  }
  if (own > sessionTokens) {
    return { text: "share —", why: "Share of the session's tokens: not known. The session's total counts only the Claude Code runs since Baton started it." };
  }
  const percent = (own / sessionTokens) * 100;
  const text = own > 0 && percent < 1 ? "<1% of session" : `${Math.round(percent)}% of session`;
  return { text, why: `${formatTokens(own)} of the session's ${formatTokens(sessionTokens)} tokens: ${Counts}.` };
}

// A subagent card's share of its session's tokens: what the agent's own model calls read against
// what every call of the session read (src/main/hub/tokenShares.ts counts both). Never guessed:
// when the agent's calls did not reach Baton, the card says so instead of a number. A live
// session's total is its CLI runs' own (with any earlier turns counted from their lines); a
// restored session's is what its files record (no side calls, no runs' totals): the tooltip says which.

import type { SubagentRecord } from "../../shared/transcript.js";
import { formatTokens } from "./format.js";

export interface ShareView {
  readonly text: string;
  /** What the figure counts, or why there is none. */
  readonly why: string;
}

const Counts = "input, cache read and cache write tokens of this agent's own model calls (the agents it started count on their own cards; output tokens are left out: the stream reports them before the answer is written)";

/**
 * What the card shows, or undefined when the session's total is not known (before any call; a
 * restored session whose subagent files are still being read). `restored`: the session was read
 * from history, so its total is what its files record.
 */
export function shareView(record: SubagentRecord, sessionTokens: number | undefined, restored = false): ShareView | undefined {
  if (sessionTokens === undefined || sessionTokens <= 0) return undefined;
  const own = record.inputTokens;
  if (own === undefined) {
    // A running first-level agent's calls are still to come; a nested one's may never be streamed.
    if (record.status === "running" && (record.spawnDepth ?? 1) < 2) return undefined;
    if (restored) {
      return { text: "share —", why: "Share of the session's tokens: not known. None of this agent's model calls is in the session's files as Baton read them (its file is missing, or it started after the session was opened: opening its steps reads it)." };
    }
    return { text: "share —", why: "Share of the session's tokens: not known. None of this agent's model calls reached Baton (Claude Code 2.1.197 streams the calls of first-level agents only)." };
  }
  if (own > sessionTokens) {
    return { text: "share —", why: "Share of the session's tokens: not known. The session's total counts only the Claude Code runs since Baton started it." };
  }
  const percent = (own / sessionTokens) * 100;
  const text = own > 0 && percent < 1 ? "<1% of session" : `${Math.round(percent)}% of session`;
  const of = restored ? `of the ${formatTokens(sessionTokens)} input-side tokens the session's files record` : `of the session's ${formatTokens(sessionTokens)} tokens`;
  return { text, why: `${formatTokens(own)} ${of}: ${Counts}.` };
}

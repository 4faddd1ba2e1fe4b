// What each agent's model calls read, against what the whole session read: each subagent card's
// share of the session's tokens. Counted on the input side only (input, cache read and cache
// creation tokens): a streamed assistant line carries its call's usage as the response began, so
// its output count is not final (docs/protocol-notes.md), while the input side is. The session's
// total comes from the turn results' `modelUsage`, which sums every call of the CLI process
// (subagents and side calls too) and is cumulative within that process.

import type { AssistantBlockEvent, TurnResultEvent } from "../../shared/events.js";
import type { Usage } from "../../shared/protocol/messages.js";
import { editRecord } from "./edits.js";
import type { Node } from "./blockTree.js";
import type { SessionModel } from "./session.js";

/** Input, cache read and cache creation tokens of one model call. */
export function inputSideOf(usage: Usage): number {
  return (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

/**
 * Adds a subagent's model call to its record, once per call (a call's blocks share its usage;
 * history may feed a line again). Any call, the main thread's too, waits for a process total to
 * cover it (noteProcessTokens).
 */
export function noteAgentCall(s: SessionModel, ev: AssistantBlockEvent, agent: Node | undefined): void {
  if (ev.usage === undefined || ev.apiError !== undefined) return;
  s.callsSinceTotal = true;
  if (agent?.call?.subagent === undefined) return;
  const key = `${agent.call.toolUseId}\n${ev.messageId}`;
  if (s.countedCalls.has(key)) return;
  s.countedCalls.add(key);
  const tokens = inputSideOf(ev.usage);
  editRecord(s, agent, (r) => ({ ...r, inputTokens: (r.inputTokens ?? 0) + tokens }));
}

/** A turn result's process total; a smaller one than the last means a new CLI process (the earlier one's total is kept). */
export function noteProcessTokens(s: SessionModel, ev: TurnResultEvent): void {
  if (ev.processInputTokens === undefined) return;
  s.callsSinceTotal = false;
  const previous = s.inputThisProcess ?? 0;
  if (ev.processInputTokens < previous) s.inputBefore += previous;
  s.inputThisProcess = ev.processInputTokens;
}

/**
 * The process ended: its total joins the earlier processes'. Calls no total covered (turns read
 * from history before a fork or a resume, a CLI that died mid-turn) leave the session's total
 * unknown from then on: a share against it would be too large.
 */
export function endProcessTokens(s: SessionModel): void {
  if (s.callsSinceTotal) s.totalIncomplete = true;
  s.callsSinceTotal = false;
  s.inputBefore += s.inputThisProcess ?? 0;
  s.inputThisProcess = undefined;
}

/**
 * The session's input-side tokens over all its CLI processes; undefined before any turn result (a
 * restored session's files keep none) and once some calls were never in a total.
 */
export function sessionInputTokens(s: SessionModel): number | undefined {
  if (s.totalIncomplete || (s.inputThisProcess === undefined && s.inputBefore === 0)) return undefined;
  return s.inputBefore + (s.inputThisProcess ?? 0);
}

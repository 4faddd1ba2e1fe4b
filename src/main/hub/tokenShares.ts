// What each agent's model calls read, against what the whole session read: each subagent card's
// share of the session's tokens. Counted on the input side only (input, cache read and cache
// creation tokens): a streamed assistant line carries its call's usage as the response began, so
// its output count is not final (docs/protocol-notes.md), while the input side is. The session's
// total comes from the turn results' `modelUsage`, which sums every call of the CLI process
// (subagents and side calls too) and is cumulative within that process; 2.1.332's also carries a
// resumed or forked session's earlier runs, so there the results' `model_usage_since_last_result`
// are summed instead. Calls no process total covers (turns read from history: a restored session,
// a fork's earlier turns; a CLI that died mid-turn) are counted from their own lines instead, each
// call once, so a restored session's total is what its files record (history/subagentUsage.ts
// reads its subagents' files).

import type { AssistantBlockEvent, TurnResultEvent } from "../../shared/events.js";
import type { Usage } from "../../shared/protocol/messages.js";
import type { SubagentRecord } from "../../shared/transcript.js";
import { editRecord } from "./edits.js";
import type { Node } from "./blockTree.js";
import type { SessionModel } from "./session.js";

/** Input, cache read and cache creation tokens of one model call (a file's count that is no count adds nothing). */
function inputSideOf(usage: Usage): number {
  return count(usage.input_tokens) + count(usage.cache_read_input_tokens) + count(usage.cache_creation_input_tokens);
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** One model call as a file or the stream recorded it: the agent whose call it was (null: the main thread). */
export interface RecordedCall {
  readonly parentToolUseId: string | null;
  readonly messageId: string;
  readonly usage: Usage;
}

/**
 * Counts a model call once (a call's blocks share its usage; history may feed a line again): on
 * its agent's card, and towards the session's total until a process total covers it
 * (noteProcessTokens). `agent`: the node its lines went to, when they were applied.
 */
export function noteAgentCall(s: SessionModel, ev: AssistantBlockEvent, agent: Node | undefined): void {
  if (ev.usage === undefined || ev.apiError !== undefined) return;
  countCall(s, { parentToolUseId: agent?.call?.subagent !== undefined ? agent.call.toolUseId : ev.parentToolUseId, messageId: ev.messageId, usage: ev.usage });
}

/**
 * A call read from a file without its blocks, made by a run none of this session's CLI processes
 * is (a restored session's subagents: history/subagentUsage.ts; a fork's earlier agents): no
 * process total will cover it.
 */
export function noteRecordedCall(s: SessionModel, call: RecordedCall): void {
  countCall(s, call, true);
}

function countCall(s: SessionModel, call: RecordedCall, earlierRun = false): void {
  const agentId = call.parentToolUseId ?? "";
  const key = `${agentId}\n${call.messageId}`;
  if (s.countedCalls.has(key)) return;
  s.countedCalls.add(key);
  const tokens = inputSideOf(call.usage);
  if (earlierRun) s.input.before += tokens;
  else if (!s.readingOwnFiles) s.uncoveredInput += tokens;
  if (agentId === "") return;
  const node = s.tree.agents.get(agentId);
  if (node?.call?.subagent !== undefined) editRecord(s, node, (r) => ({ ...r, inputTokens: (r.inputTokens ?? 0) + tokens }));
  else s.tokensAhead.set(agentId, (s.tokensAhead.get(agentId) ?? 0) + tokens);
}

/** A new card takes the tokens its agent's calls were counted with before it existed. */
export function withTokensAhead(s: SessionModel, record: SubagentRecord): SubagentRecord {
  const ahead = s.tokensAhead.get(record.toolUseId);
  if (ahead === undefined) return record;
  s.tokensAhead.delete(record.toolUseId);
  return { ...record, inputTokens: (record.inputTokens ?? 0) + ahead };
}

/** A turn result's process total (processTotal.ts says how the figures add up): it covers every call seen so far. */
export function noteProcessTokens(s: SessionModel, ev: TurnResultEvent): void {
  if (s.input.noteResult(ev.sinceLastInputTokens, ev.processInputTokens)) s.uncoveredInput = 0;
}

/** The process ended: its total joins the earlier processes', and so do the calls no total covered, counted from their lines. */
export function endProcessTokens(s: SessionModel): void {
  s.input.endProcess(s.uncoveredInput);
  s.uncoveredInput = 0;
}

/**
 * The session's input-side tokens: its CLI processes' totals plus the calls none covered.
 * Undefined before any call or total was seen, and while a restored session's subagent files are
 * still being read.
 */
export function sessionInputTokens(s: SessionModel): number | undefined {
  if (s.filesUncounted || (!s.input.seen && s.countedCalls.size === 0)) return undefined;
  return s.input.total + s.uncoveredInput;
}

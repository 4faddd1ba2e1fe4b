// A restored session's token shares (issue 37): its files keep no turn results, so the session's
// total is what its lines record, the main file's calls and every subagent's. Sidechains are read
// lazily (a card's steps when it is opened), so after a restore this pass reads each subagent's
// file once, nested agents and Workflow runs too, and counts only its calls' usage into the model
// (the cards and the total): no blocks go into the model or the loaded cache, and a card opened
// later counts nothing twice (the hub counts each call once, by agent and message id).

import type { ClientEvent } from "../../shared/events.js";
import type { RecordedCall } from "../hub/index.js";
import { readSidechain, sidechainSource, type HistorySession } from "./historySession.js";

/** Whether the session has subagents whose files the pass would read. */
export function hasSubagentFiles(session: HistorySession): boolean {
  return unread(session, new Set()).length > 0;
}

/**
 * Reads every subagent's file for its calls' usage into the session's model, then lets the
 * session's total show. Stops when `signal` is aborted (the tab closed).
 */
export async function countSubagentUsage(session: HistorySession, signal: AbortSignal): Promise<void> {
  const read = new Set<string>();
  for (let next = unread(session, read); next.length > 0; next = unread(session, read)) {
    for (const id of next) {
      if (signal.aborted) return;
      read.add(id);
      const calls: RecordedCall[] = [];
      // What a file holds that cannot be shown is reported once its card is opened, not twice.
      await readSidechain(session, id, (events) => collectCalls(events, calls), []);
      if (signal.aborted) return;
      session.model.countRecordedCalls(calls);
    }
  }
  session.model.setFilesUncounted(false);
}

/** The agents whose calls are neither counted by this pass nor in the model with their steps. */
function unread(session: HistorySession, read: ReadonlySet<string>): readonly string[] {
  const ids = new Set([...session.calls.keys(), ...session.workflows.keys()]);
  return [...ids].filter((id) => !read.has(id) && !session.loaded.has(id) && sidechainSource(session, id) !== undefined);
}

/** An agent's own model calls (and those of agents nested in its file): a call's usage rides on each of its blocks. */
function collectCalls(events: readonly ClientEvent[], into: RecordedCall[]): void {
  for (const event of events) {
    if (event.kind !== "assistant_block" || event.usage === undefined || event.apiError !== undefined || event.parentToolUseId === null) continue;
    into.push({ parentToolUseId: event.parentToolUseId, messageId: event.messageId, usage: event.usage });
  }
}

// A restored session's token shares (issue 37): its files keep no turn results, so the session's
// total is what its lines record, the main file's calls and every subagent's. Sidechains are read
// lazily (a card's steps when it is opened), so after a restore this pass reads each subagent's
// file once, nested agents and Workflow runs too, and counts only its calls' usage into the model
// (the cards and the total): no blocks go into the model or the loaded cache, and a card opened
// later counts nothing twice (the hub counts each call once, by agent and message id). A fork's
// tab reads the agents of the turns it continues the same way (agentCallsOf): their files stay
// with the original session.

import path from "node:path";
import type { ClientEvent } from "../../shared/events.js";
import { SessionModel, type RecordedCall } from "../hub/index.js";
import type { EventStream } from "./eventStream.js";
import { createHistorySession, readSidechain, sidechainSource, type HistorySession } from "./historySession.js";
import { sessionIdFromPath } from "../platform/projectsDir.js";
import type { HistoryProblem } from "./problems.js";
import { linkForkedSidechains, type ForkOrigins } from "./copiedSidechains.js";
import { findSidechainFiles } from "./sidechains.js";

/**
 * Reads every subagent's file for its calls' usage into the session's model, then lets the
 * session's total show (until then it has none, when there are such files). Stops when `signal`
 * is aborted (the tab closed).
 */
export async function countSubagentUsage(session: HistorySession, signal: AbortSignal): Promise<void> {
  if (unread(session, new Set()).length > 0) session.model.setFilesUncounted(true);
  if (await readSubagentCalls(session, signal, (calls) => session.model.countRecordedCalls(calls))) session.model.setFilesUncounted(false);
}

/**
 * The model calls of the agents a session file's lines `stream` was given (a fork's kept turns:
 * core/sessionFork.ts), read from that session's subagent files, nested agents' too; their steps
 * are not read into anything. The fork's own files do not hold them: they stay with the original.
 */
export async function agentCallsOf(file: string, stream: EventStream, from: ForkOrigins = {}): Promise<readonly RecordedCall[]> {
  if (stream.mapper.agentCalls.size === 0 && stream.mapper.workflowRuns.size === 0) return [];
  const projectDir = path.dirname(file);
  const sessionId = sessionIdFromPath(file);
  const problems: HistoryProblem[] = [];
  const session = createHistorySession({
    sessionId,
    path: file,
    projectDir,
    finished: true,
    model: new SessionModel({ sessionId }),
    stream,
    offset: 0,
    files: await findSidechainFiles(projectDir, sessionId, problems),
    problems,
  });
  // The original may be a fork itself: its earlier agents' files are in its own original's folder.
  await linkForkedSidechains(session, from);
  const calls: RecordedCall[] = [];
  await readSubagentCalls(session, new AbortController().signal, (read) => calls.push(...read));
  return calls;
}

/** Reads every agent's file the session names, nested ones as they are found, handing each file's calls to `take`; false once `signal` stopped it. */
async function readSubagentCalls(session: HistorySession, signal: AbortSignal, take: (calls: readonly RecordedCall[]) => void): Promise<boolean> {
  const read = new Set<string>();
  for (let next = unread(session, read); next.length > 0; next = unread(session, read)) {
    for (const id of next) {
      if (signal.aborted) return false;
      read.add(id);
      const calls: RecordedCall[] = [];
      // What a file holds that cannot be shown is reported once its card is opened, not twice.
      await readSidechain(session, id, (events) => collectCalls(events, calls), []);
      if (signal.aborted) return false;
      take(calls);
    }
  }
  return true;
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

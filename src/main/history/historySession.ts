// A restored session: the hub's session model built from the main file, plus where each
// subagent's own transcript can be read from. Sidechains are applied to the same model when asked
// for (lazily, when a card is opened) or all at once (export).

import { existsSync } from "node:fs";
import path from "node:path";
import type { ClientEvent, SessionInitEvent } from "../../shared/events.js";
import type { Block, Transcript } from "../../shared/transcript.js";
import { modelOf, SessionModel } from "../hub/index.js";
import { isRejection, type AuditOverlay } from "./auditOverlay.js";
import type { AgentCall } from "./agentCall.js";
import { eventStream, type EventStream } from "./eventStream.js";
import { readJsonl } from "./jsonlReader.js";
import { lineProblems, type HistoryProblem } from "./problems.js";
import { linkSidechains, type SidechainFile } from "./sidechains.js";
import { workflowEvents, workflowRunDir } from "./workflowRuns.js";

export interface HistorySession {
  readonly sessionId: string;
  readonly path: string;
  readonly projectDir: string;
  /** The file is complete: nothing still runs, so open calls end as stopped. */
  readonly finished: boolean;
  /** Replaced when a followed file is truncated and read again (historySource.ts). */
  model: SessionModel;
  /** The main file's events and where its reading stopped, to follow a file that still grows. */
  readonly stream: EventStream;
  readonly offset: number;
  /** The main file's identity before it was read (tail.ts: fileIdentity): following it sees a file replaced since. */
  readonly identity?: string;
  readonly calls: Map<string, AgentCall>;
  readonly files: readonly SidechainFile[];
  /** Agent tool_use id → its sidechain file. */
  readonly links: Map<string, SidechainFile>;
  /** Agent tool_use id → subagent events kept in the main file (old layouts). */
  readonly embedded: Map<string, ClientEvent[]>;
  /** Workflow call id → the folder of its run's agent transcripts (workflowRuns.ts). */
  readonly workflows: Map<string, string>;
  /** Agent tool_use id → the full block list, once loaded. */
  readonly loaded: Map<string, readonly Block[]>;
  readonly problems: HistoryProblem[];
  /** Baton's audit trail for this session, applied to every sidechain read (see auditOverlay.ts). */
  readonly overlay?: AuditOverlay;
}

const ExitEvent: ClientEvent = { kind: "process_exit", code: 0, signal: null };

/** Applies the events of a main file's lines as they are read, so no event list is kept. */
export class MainFileReader {
  private readonly model: SessionModel;

  constructor(
    readonly sessionId: string,
    readonly stream: EventStream,
  ) {
    this.model = new SessionModel({ sessionId });
  }

  add(events: readonly ClientEvent[]): void {
    this.model.apply(events);
  }

  /**
   * The model once every line is in; call it once. The init went out before the file said which
   * model and mode it used; now it has, so it is applied again (the init only sets the header). A
   * finished session's process has exited: open calls end as stopped.
   */
  finish(finished: boolean, init: SessionInitEvent = this.stream.mapper.initEvent()): SessionModel {
    this.model.apply(finished ? [init, ExitEvent] : [init]);
    return this.model;
  }
}

export function createHistorySession(init: {
  sessionId: string;
  path: string;
  projectDir: string;
  finished: boolean;
  /** The main file's lines applied (see MainFileReader.finish). */
  model: SessionModel;
  stream: EventStream;
  offset: number;
  identity?: string;
  files: readonly SidechainFile[];
  problems: HistoryProblem[];
}): HistorySession {
  const mapper = init.stream.mapper;
  init.problems.push(...init.stream.problems(init.path));
  const calls = new Map(mapper.agentCalls);
  const embedded = new Map(mapper.embeddedSidechains);
  const workflows = new Map<string, string>();
  for (const [callId, runId] of mapper.workflowRuns) {
    const dir = workflowRunDir(path.join(init.projectDir, init.sessionId), runId);
    if (existsSync(dir)) workflows.set(callId, dir);
  }
  return {
    sessionId: init.sessionId,
    path: init.path,
    projectDir: init.projectDir,
    finished: init.finished,
    model: init.model,
    stream: init.stream,
    offset: init.offset,
    ...(init.identity !== undefined ? { identity: init.identity } : {}),
    calls,
    files: init.files,
    links: linkSidechains(init.files, calls, new Map(), (id) => embedded.has(id)),
    embedded,
    workflows,
    loaded: new Map(),
    problems: init.problems,
    ...(init.stream.overlay !== undefined ? { overlay: init.stream.overlay } : {}),
  };
}

/** Whether a subagent's own transcript can be loaded, and from where. */
export function sidechainSource(session: HistorySession, toolUseId: string): string | undefined {
  const file = session.links.get(toolUseId);
  if (file !== undefined) return file.path;
  return session.embedded.has(toolUseId) ? session.path : session.workflows.get(toolUseId);
}

/**
 * Reads the subagent of `toolUseId` and applies it to the session's model: its record gets its blocks
 * (at most MaxNestedBlocks; older ones counted as dropped). Returns the full block list.
 * A subagent with nothing on disk returns [] and stays a summary.
 */
export async function loadSubagentBlocks(session: HistorySession, toolUseId: string): Promise<readonly Block[]> {
  const cached = session.loaded.get(toolUseId);
  if (cached !== undefined) return cached;
  if (!session.calls.has(toolUseId) && !session.workflows.has(toolUseId)) await loadUntilKnown(session, toolUseId);
  const events = await readSubagentEvents(session, toolUseId);
  if (events === undefined) {
    session.loaded.set(toolUseId, []);
    return [];
  }
  session.model.apply(events);
  // The session has ended: calls inside this subagent that never got a result stopped with it.
  if (session.finished) session.model.apply([ExitEvent]);
  const blocks = ownBlocks(session.sessionId, toolUseId, events, true, session.model.agentKilled(toolUseId));
  session.loaded.set(toolUseId, blocks);
  return blocks;
}

/** Loads every sidechain, nested ones included (for export). */
export async function loadAllSubagents(session: HistorySession): Promise<void> {
  for (;;) {
    const pending = [...session.calls.keys(), ...session.workflows.keys()].filter((id) => !session.loaded.has(id) && sidechainSource(session, id) !== undefined);
    if (pending.length === 0) return;
    for (const id of pending) await loadSubagentBlocks(session, id);
  }
}

export function currentTranscript(session: HistorySession): Transcript {
  return session.model.transcript();
}

/** A nested agent's call lives in its parent's sidechain: load sidechains until it shows up. */
async function loadUntilKnown(session: HistorySession, toolUseId: string): Promise<void> {
  for (;;) {
    const next = [...session.calls.keys()].find((id) => !session.loaded.has(id) && sidechainSource(session, id) !== undefined);
    if (next === undefined || session.calls.has(toolUseId)) return;
    await loadSubagentBlocks(session, next);
    if (session.calls.has(toolUseId)) return;
  }
}

async function readSubagentEvents(session: HistorySession, toolUseId: string): Promise<readonly ClientEvent[] | undefined> {
  const events = await readSidechainEvents(session, toolUseId);
  return events === undefined || session.overlay === undefined ? events : session.overlay.apply(events);
}

async function readSidechainEvents(session: HistorySession, toolUseId: string): Promise<ClientEvent[] | undefined> {
  const events: ClientEvent[] = [];
  return (await readSidechain(session, toolUseId, (read) => void events.push(...read))) ? events : undefined;
}

/**
 * Reads the subagent of `toolUseId` (its own file, its lines kept in the main file, or a Workflow
 * run's agents), handing its events to `take` as they are read; false when there is nothing to
 * read or its file could not be read. The nested agents and files it names are linked into the
 * session. `problems`: where what the file held that cannot be shown goes.
 */
export async function readSidechain(
  session: HistorySession,
  toolUseId: string,
  take: (events: readonly ClientEvent[]) => void,
  problems: HistoryProblem[] = session.problems,
): Promise<boolean> {
  const file = session.links.get(toolUseId);
  const run = session.workflows.get(toolUseId);
  if (file === undefined && run !== undefined && !session.embedded.has(toolUseId)) {
    take(await workflowEvents(session.sessionId, toolUseId, run, problems));
    return true;
  }
  if (file === undefined) {
    const kept = session.embedded.get(toolUseId);
    if (kept !== undefined) take(kept);
    return kept !== undefined;
  }
  const stream = eventStream({ kind: "sidechain", sessionId: session.sessionId, toolUseId });
  try {
    const result = await readJsonl(file.path, { final: true, onRecord: ({ value }) => take(stream.line(value)) });
    problems.push(...lineProblems(file.path, result.stats, result.problems), ...stream.problems(file.path));
  } catch (error) {
    problems.push({ kind: "unreadable_sidechain", path: file.path, message: String(error) });
    return false;
  }
  for (const [id, call] of stream.mapper.agentCalls) if (!session.calls.has(id)) session.calls.set(id, call);
  for (const [id, list] of stream.mapper.embeddedSidechains) if (!session.embedded.has(id)) session.embedded.set(id, list);
  const links = linkSidechains(session.files, session.calls, session.links, (id) => session.embedded.has(id));
  for (const [id, linked] of links) session.links.set(id, linked);
  return true;
}

/**
 * A subagent's blocks without its record's cap: its events applied as a session of their own (its
 * parent id → top level), so ids and shapes match the record's blocks. An ended agent's open calls
 * end as stopped. Used for a restored session's sidechains and a live one's (liveSidechains.ts).
 * `cut`: the agent was killed (agentKilled: TaskStop, an interrupt), so the rejections of its own
 * calls are the cut, not refusals: left out, the calls stop with it, as in the session's model.
 */
export function ownBlocks(sessionId: string, toolUseId: string, events: readonly ClientEvent[], ended: boolean, cut = false): readonly Block[] {
  const own: ClientEvent[] = [];
  for (const event of events) {
    // A refusal names its call by tool_use id, which is unique: it goes wherever the call is.
    if (event.kind === "permission_denied") own.push(event);
    if (!("parentToolUseId" in event)) continue;
    if (event.parentToolUseId !== toolUseId) own.push(event);
    else if (event.kind === "tool_result" && cut && isRejection(event)) continue;
    else if (event.kind !== "user_prompt") own.push({ ...event, parentToolUseId: null });
  }
  if (ended) own.push(ExitEvent);
  return modelOf(own, { sessionId }).transcript().blocks;
}

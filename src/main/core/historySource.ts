// What the app needs from history and the search index, behind a small interface (so the
// session manager does not care whether a store is configured, and tests can fake it).

import os from "node:os";
import path from "node:path";
import type { ExportChoices, ExportedFile } from "../../shared/export/exportTypes.js";
import type { ForkLink, SearchHit, SessionSummary } from "../../shared/api.js";
import type { Block, Transcript } from "../../shared/transcript.js";
import { EarlierBlocksNoticeId, restoreFirstScreen, type FirstScreen } from "../history/index.js";
import { annotatedTranscript, findSessionFile, restoreSession } from "../history/index.js";
import { countSubagentUsage, linkRunningAgent, loadSubagentBlocks, type HistorySession } from "../history/index.js";
import { placeHits, type HitPlace, type HitRow } from "../history/index.js";
import type { HistoryProblem } from "../history/index.js";
import { exportSessionFile, listSessionsWithProblems } from "../history/index.js";
import { forkLinkOf } from "../audit/audit.js";
import { knownSessions } from "./indexedSessionList.js";
import type { ReaderFacts } from "./tabTitle.js";
import { followTranscript, type Follower } from "../history/index.js";
import { SessionModel } from "../hub/index.js";
import type { SessionAudit } from "../audit/audit.js";
import type { AuditReader, ForkReader } from "../store/auditTrail.js";
import type { StoreClient } from "../store/storeClient.js";

/** A past session opened from disk. */
export interface RestoredSession {
  readonly sessionId: string;
  /** Its project folder's name: with the id, what names the session. */
  readonly project?: string;
  readonly cwd?: string;
  /** A fork Baton made: the session it continues, from the audit trail (its file does not say). */
  readonly forkedFrom?: ForkLink;
  transcript(): Transcript;
  /** Loads a subagent's own blocks; the transcript changes (the card gets them). */
  loadSubagentBlocks(toolUseId: string): Promise<readonly Block[]>;
  /**
   * A big session opens on its newest blocks while the rest is read in the background: this settles
   * when `transcript()` has become the whole session (or, with `error`, when that failed and the
   * transcript says so). Absent when the session was complete from the start.
   */
  readonly loaded?: Promise<{ readonly error?: string }>;
  /**
   * Follows the session's file as it grows (a session still running in a terminal, or resumed
   * there): new lines go through the same reducer, and `onChange` says the transcript moved.
   */
  follow?(onChange: () => void, onError: (error: unknown) => void): void;
  /**
   * Settles once every subagent's file was read for its model calls' usage (history/
   * subagentUsage.ts): the cards' shares and the session's total have changed. Until then the
   * transcript has no session total.
   */
  readonly usageCounted?: Promise<void>;
  /** Stops reading in the background and following (the tab closed). */
  close?(): void;
  /** What the file held that is not shown as written (bad lines, values nested too deep), for the Console. */
  problems?(): readonly HistoryProblem[];
  /**
   * Where search hits stand in this session (history/hitPlaces.ts), undefined for one no block
   * shows; loads the sidechains they are in. A big session is first read whole.
   */
  locate?(rows: readonly HitRow[]): Promise<readonly (HitPlace | undefined)[]>;
  /** The session's first real prompt and summary, as its reader found them (the tab's title: tabTitle.ts). */
  titleFacts?(): ReaderFacts;
  /**
   * Links a running subagent the file has not linked to its card yet, from its meta.json
   * (history/agentLink.ts): a terminal hook named it. True when the transcript changed.
   */
  linkRunningAgent?(agentId: string): Promise<boolean>;
}

export interface HistorySource {
  /** The CLI's projects folder, where live sessions' sidechains are read from too. */
  readonly projectsDir?: string;
  listSessions(): Promise<readonly SessionSummary[]>;
  /**
   * A session id only, in its project folder `project` when given. Throws an error with a `code`
   * ("not_found", "unreadable", "refused", "ambiguous": the id is in two project folders) when it cannot.
   */
  restore(sessionId: string, project?: string): Promise<RestoredSession>;
  /** The session (found as `restore` finds it) as one Markdown or HTML file, every subagent's steps read. */
  exportSession?(sessionId: string, project: string | undefined, choices: ExportChoices): Promise<ExportedFile>;
  /** Undefined when no search index is available. */
  search?(query: string, limit: number): Promise<readonly SearchHit[]>;
  /** The index's hits inside one session (its project folder and id), with where each row is; with `search`. */
  searchIn?(query: string, session: { readonly sessionId: string; readonly project?: string }, limit: number): Promise<readonly IndexHit[]>;
}

/** A hit of the index as a session's find needs it: its row's place, kind and snippet. */
export interface IndexHit extends HitRow {
  readonly ref: string;
  readonly kind: string;
  readonly snippet: string;
}

export function createHistorySource(options: {
  readonly projectsDir: string;
  readonly store?: StoreClient;
  /** Baton's audit trail per session: restores show its decisions and interrupts (auditOverlay.ts). */
  readonly audit?: AuditReader;
  /** Every fork Baton recorded: the list names each fork's origin. */
  readonly forks?: ForkReader;
  /** What a listing skipped (a FIFO named like a transcript, …), for the log. */
  readonly onListProblem?: (problem: HistoryProblem) => void;
}): HistorySource {
  const { projectsDir, store } = options;
  const fresh = store === undefined ? undefined : freshIndex(store, projectsDir);
  return {
    projectsDir,
    async listSessions() {
      // Warm: the sessions the index read whole are listed from it (their files only stat'ed).
      const forks = options.forks?.();
      const known = store === undefined ? undefined : await knownSessions(store, projectsDir);
      const { sessions, problems } = await listSessionsWithProblems(projectsDir, known !== undefined ? { known } : {});
      for (const problem of problems) options.onListProblem?.(problem);
      const forkOf = (await forks) ?? new Map();
      return sessions.map((s) => ({
        sessionId: s.sessionId,
        projectDir: s.project,
        path: s.path,
        title: s.title,
        ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
        ...(s.gitBranch !== undefined ? { gitBranch: s.gitBranch } : {}),
        ...(s.firstTimestamp !== undefined ? { firstTimestamp: s.firstTimestamp } : {}),
        ...(s.lastTimestamp !== undefined ? { lastTimestamp: s.lastTimestamp } : {}),
        ...(s.promptCount !== undefined ? { promptCount: s.promptCount } : {}),
        ...(s.subagentCount !== undefined ? { subagentCount: s.subagentCount } : {}),
        sizeBytes: s.sizeBytes,
        ...(s.titleMayChange === true ? { titleMayChange: true } : {}),
        ...(forkOf.has(s.sessionId) ? { forkedFrom: forkLinkOf(forkOf.get(s.sessionId)!) } : {}),
      }));
    },
    async restore(sessionId, project) {
      // The page names a session by its id (and project folder): looked up in the history folder, never against the cwd.
      const file = await findSessionFile(sessionId, projectsDir, project);
      const audit = await options.audit?.(sessionId);
      const first = await restoreFirstScreen(file, { projectsDir, ...(audit !== undefined ? { audit } : {}) });
      const restored = first.complete ? restoredFrom(first.session) : restoredInBackground(first, projectsDir, audit);
      return audit?.forkedFrom === undefined ? restored : { ...restored, forkedFrom: forkLinkOf(audit.forkedFrom) };
    },
    async exportSession(sessionId, project, choices) {
      const file = await findSessionFile(sessionId, projectsDir, project);
      const audit = await options.audit?.(sessionId);
      const exported = await exportSessionFile(file, choices, { projectsDir, home: os.homedir(), ...(audit !== undefined ? { audit } : {}) });
      return exported.file;
    },
    ...(store !== undefined
      ? {
          async search(query: string, limit: number) {
            await fresh?.();
            const hits = await store.search(query, { limit, projectsDir });
            return hits.map((h) => ({
              sessionId: h.sessionId,
              sessionTitle: h.sessionTitle ?? "",
              ...(h.project !== null ? { project: h.project } : {}),
              ...(h.subagent !== null ? { agentId: h.subagent.agentId } : {}),
              ...(h.subagent?.description != null ? { subagentDescription: h.subagent.description } : {}),
              ...(h.subagent?.agentType != null ? { subagentType: h.subagent.agentType } : {}),
              ...(h.cwd !== null ? { cwd: h.cwd } : {}),
              ...(h.time !== null ? { timestamp: h.time } : {}),
              kind: h.kind,
              ...(h.tool !== null ? { tool: h.tool.name, ...(h.tool.description !== undefined ? { toolDescription: h.tool.description } : {}) } : {}),
              file: h.file,
              ref: h.ref,
              snippet: h.snippet,
            }));
          },
          async searchIn(query: string, session: { readonly sessionId: string; readonly project?: string }, limit: number) {
            await fresh?.();
            const hits = await store.search(query, { limit, projectsDir, sessionId: session.sessionId, ...(session.project !== undefined ? { project: session.project } : {}) });
            // ref is `<line>#<event>` (search/extract.ts refOf).
            return hits.map((h) => ({ file: h.file, offset: h.offset, event: Number(h.ref.slice(h.ref.indexOf("#") + 1)), ref: h.ref, kind: h.kind, snippet: h.snippet }));
          },
        }
      : {}),
  };
}

/** The longest a search waits for the index to catch up: past it, it searches what is indexed now. */
const FreshIndexWaitMs = 250;

/**
 * Brings the index up to what the files hold before a search: the app indexes its folder once as
 * it starts (store/indexRefresh.ts), and sessions run since (a live tab's turns, a terminal's) are
 * searched too. A run over files that did not change only stats them (bench:history: 12 ms over a
 * 2 GB archive). Searches asked while a run is under way share it. A search never waits long: the
 * store runs one index run after another, so behind the first index of a large archive (seconds)
 * it answers from what is indexed so far, as before. A run that fails (a lock held elsewhere, a
 * full disk) is said by the store's own run; the search goes on over what is indexed.
 */
function freshIndex(store: StoreClient, projectsDir: string): () => Promise<void> {
  let running: Promise<void> | undefined;
  return async () => {
    running ??= store.index(projectsDir).then(
      () => {
        running = undefined;
      },
      () => {
        running = undefined;
      },
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, FreshIndexWaitMs)))]);
    clearTimeout(timer);
  };
}

/** A HistorySource whose folder can change while the app runs (the history folder setting). */
export interface SwitchableHistorySource extends HistorySource {
  readonly projectsDir: string;
  /** Lists and restores from `projectsDir` from now on; tabs already open keep reading their files. */
  switchTo(projectsDir: string): void;
}

export function switchableHistorySource(projectsDir: string, make: (projectsDir: string) => HistorySource): SwitchableHistorySource {
  let current = make(projectsDir);
  let dir = projectsDir;
  // Every folder's source is made alike: with search, or all without.
  const searchable = current.search !== undefined;
  return {
    get projectsDir() {
      return dir;
    },
    listSessions: () => current.listSessions(),
    restore: (sessionId, project) => current.restore(sessionId, project),
    ...(current.exportSession !== undefined ? { exportSession: (...args: Parameters<NonNullable<HistorySource["exportSession"]>>) => current.exportSession!(...args) } : {}),
    ...(searchable ? { search: (query: string, limit: number) => current.search!(query, limit) } : {}),
    ...(current.searchIn !== undefined ? { searchIn: (...args: Parameters<NonNullable<HistorySource["searchIn"]>>) => current.searchIn!(...args) } : {}),
    switchTo(next) {
      dir = next;
      current = make(next);
    },
  };
}

function restoredFrom(session: HistorySession): RestoredSession {
  let follower: Follower | undefined;
  const cwd = annotatedTranscript(session).cwd;
  // The session's total is what its files record: its subagents' files are read in the background,
  // and again into the new model when a followed file is read again from its start.
  let counting = new AbortController();
  const count = (): Promise<void> => {
    counting.abort();
    counting = new AbortController();
    return countSubagentUsage(session, counting.signal);
  };
  const usageCounted = count();
  return {
    sessionId: session.sessionId,
    project: path.basename(session.projectDir),
    ...(cwd !== undefined ? { cwd } : {}),
    // The same object until the session changes (annotatedTranscript keeps it).
    transcript: () => annotatedTranscript(session),
    loadSubagentBlocks: (toolUseId) => loadSubagentBlocks(session, toolUseId),
    problems: () => session.problems,
    locate: (rows) => placeHits(session, () => session.model.transcript(), rows),
    titleFacts: () => session.stream.mapper.facts,
    linkRunningAgent: (agentId) => linkRunningAgent(session, agentId),
    follow(onChange, onError) {
      follower ??= followSession(session, onChange, onError, () => void count().then(onChange, onError));
    },
    usageCounted,
    close: () => {
      counting.abort();
      follower?.stop();
    },
  };
}

/** Reads what is appended to the session's main file from where the restore stopped, with its audit trail. */
function followSession(session: HistorySession, onChange: () => void, onError: (error: unknown) => void, recount: () => void): Follower {
  return followTranscript(session.path, {
    offset: session.offset,
    ...(session.identity !== undefined ? { identity: session.identity } : {}),
    stream: session.stream,
    onEvents: (events) => {
      session.model.apply(events);
      onChange();
    },
    onReset: () => {
      // Truncated or replaced: the file is read again from its start into a new session model.
      session.model = new SessionModel({ sessionId: session.sessionId });
      session.loaded.clear();
      recount();
      onChange();
    },
    onError,
  });
}

/** Shows the first screen now; the full restore replaces it when ready (see RestoredSession.loaded). */
function restoredInBackground(first: FirstScreen, projectsDir: string, audit: SessionAudit | undefined): RestoredSession {
  const abort = new AbortController();
  let full: RestoredSession | undefined;
  let following: { readonly onChange: () => void; readonly onError: (error: unknown) => void } | undefined;
  // The newest blocks' calls are not the session's: no total until the whole session is counted.
  const { sessionInputTokens: _, ...firstScreen } = first.transcript;
  let shown: Transcript = firstScreen;
  const loaded = restoreSession(first.file, { projectsDir, signal: abort.signal, ...(audit !== undefined ? { audit } : {}) }).then(
    ({ session }) => {
      full = restoredFrom(session);
      if (abort.signal.aborted) full.close?.();
      else if (following !== undefined) full.follow?.(following.onChange, following.onError);
      return {};
    },
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      shown = { ...shown, blocks: shown.blocks.map((b) => (b.id === EarlierBlocksNoticeId ? { ...b, level: "error" as const, text: `The earlier part of this session could not be read: ${message}` } : b)) };
      return { error: message };
    },
  );
  return {
    sessionId: first.sessionId,
    project: path.basename(path.dirname(first.file)),
    ...(first.transcript.cwd !== undefined ? { cwd: first.transcript.cwd } : {}),
    transcript: () => full?.transcript() ?? shown,
    async loadSubagentBlocks(toolUseId) {
      await loaded;
      return full !== undefined ? full.loadSubagentBlocks(toolUseId) : loadSubagentBlocks(first.session, toolUseId);
    },
    loaded,
    usageCounted: loaded.then(() => full?.usageCounted),
    problems: () => full?.problems?.() ?? first.problems,
    async locate(rows) {
      await loaded;
      return full?.locate !== undefined ? full.locate(rows) : placeHits(first.session, () => first.session.model.transcript(), rows);
    },
    titleFacts: () => full?.titleFacts?.() ?? first.titleFacts,
    linkRunningAgent: async (agentId) => (await full?.linkRunningAgent?.(agentId)) ?? false,
    // The first screen ends where the file ended; following starts once the whole file is read.
    follow(onChange, onError) {
      following = { onChange, onError };
      full?.follow?.(onChange, onError);
    },
    close: () => {
      abort.abort();
      full?.close?.();
    },
  };
}

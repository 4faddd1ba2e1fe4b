// What the app needs from history and the search index, behind a small interface (so the
// session manager does not care whether a store is configured, and tests can fake it).

import type { SearchHit, SessionSummary } from "../../shared/api.js";
import type { Block, Transcript } from "../../shared/transcript.js";
import { EarlierBlocksNoticeId, restoreFirstScreen, type FirstScreen } from "../history/firstScreen.js";
import { annotatedTranscript, restoreSession } from "../history/restore.js";
import { loadSubagentBlocks, type HistorySession } from "../history/historySession.js";
import { listSessions } from "../history/sessionList.js";
import type { SessionAudit } from "../store/audit.js";
import type { AuditReader } from "../store/auditTrail.js";
import type { StoreClient } from "../store/storeClient.js";

/** A past session opened from disk. */
export interface RestoredSession {
  readonly sessionId: string;
  readonly cwd?: string;
  transcript(): Transcript;
  /** Loads a subagent's own blocks; the transcript changes (the card gets them). */
  loadSubagentBlocks(toolUseId: string): Promise<readonly Block[]>;
  /**
   * A big session opens on its newest blocks while the rest is read in the background: this settles
   * when `transcript()` has become the whole session (or, with `error`, when that failed and the
   * transcript says so). Absent when the session was complete from the start.
   */
  readonly loaded?: Promise<{ readonly error?: string }>;
  /** Stops reading in the background (the tab closed). */
  close?(): void;
}

export interface HistorySource {
  /** The CLI's projects folder, where live sessions' sidechains are read from too. */
  readonly projectsDir?: string;
  listSessions(): Promise<readonly SessionSummary[]>;
  /** Throws an error with a `code` ("not_found", "unreadable") when it cannot. */
  restore(sessionId: string): Promise<RestoredSession>;
  /** Undefined when no search index is available. */
  search?(query: string, limit: number): Promise<readonly SearchHit[]>;
}

export function createHistorySource(options: {
  readonly projectsDir: string;
  readonly store?: StoreClient;
  /** Baton's audit trail per session: restores show its decisions and interrupts (auditOverlay.ts). */
  readonly audit?: AuditReader;
}): HistorySource {
  const { projectsDir, store } = options;
  return {
    projectsDir,
    async listSessions() {
      const sessions = await listSessions(projectsDir);
      return sessions.map((s) => ({
        sessionId: s.sessionId,
        projectDir: s.project,
        path: s.path,
        title: s.title,
        ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
        ...(s.gitBranch !== undefined ? { gitBranch: s.gitBranch } : {}),
        ...(s.firstTimestamp !== undefined ? { firstTimestamp: s.firstTimestamp } : {}),
        ...(s.lastTimestamp !== undefined ? { lastTimestamp: s.lastTimestamp } : {}),
        promptCount: s.promptCount,
        subagentCount: s.subagentCount,
        sizeBytes: s.sizeBytes,
      }));
    },
    async restore(sessionId) {
      const audit = await options.audit?.(sessionId);
      const first = await restoreFirstScreen(sessionId, { projectsDir, ...(audit !== undefined ? { audit } : {}) });
      return first.complete ? restoredFrom(first.session) : restoredInBackground(first, projectsDir, audit);
    },
    ...(store !== undefined
      ? {
          async search(query: string, limit: number) {
            const hits = await store.search(query, { limit });
            return hits.map((h) => ({
              sessionId: h.sessionId,
              sessionTitle: h.sessionTitle ?? "",
              ...(h.project !== null ? { project: h.project } : {}),
              ...(h.subagent !== null ? { agentId: h.subagent.agentId } : {}),
              ...(h.subagent?.description != null ? { subagentDescription: h.subagent.description } : {}),
              ...(h.time !== null ? { timestamp: h.time } : {}),
              kind: h.kind,
              snippet: h.snippet,
            }));
          },
        }
      : {}),
  };
}

function restoredFrom(session: HistorySession): RestoredSession {
  // annotatedTranscript builds new objects each call: compute once per change of session state.
  let cachedFor = session.state;
  let cachedLoaded = session.loaded.size;
  let cached = annotatedTranscript(session);
  return {
    sessionId: session.sessionId,
    ...(cached.cwd !== undefined ? { cwd: cached.cwd } : {}),
    transcript() {
      if (session.state !== cachedFor || session.loaded.size !== cachedLoaded) {
        cachedFor = session.state;
        cachedLoaded = session.loaded.size;
        cached = annotatedTranscript(session);
      }
      return cached;
    },
    loadSubagentBlocks: (toolUseId) => loadSubagentBlocks(session, toolUseId),
  };
}

/** Shows the first screen now; the full restore replaces it when ready (see RestoredSession.loaded). */
function restoredInBackground(first: FirstScreen, projectsDir: string, audit: SessionAudit | undefined): RestoredSession {
  const abort = new AbortController();
  let full: RestoredSession | undefined;
  let shown = first.transcript;
  const loaded = restoreSession(first.file, { projectsDir, signal: abort.signal, ...(audit !== undefined ? { audit } : {}) }).then(
    ({ session }) => {
      full = restoredFrom(session);
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
    ...(first.transcript.cwd !== undefined ? { cwd: first.transcript.cwd } : {}),
    transcript: () => full?.transcript() ?? shown,
    async loadSubagentBlocks(toolUseId) {
      await loaded;
      return full !== undefined ? full.loadSubagentBlocks(toolUseId) : loadSubagentBlocks(first.session, toolUseId);
    },
    loaded,
    close: () => abort.abort(),
  };
}

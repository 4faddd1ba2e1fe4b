// Reopening a past session: find its file, read the main transcript through its event stream
// (eventStream.ts) into the hub, find its subagents' files, and mark every subagent card whose own
// transcript can still be loaded (`sidechainPath`). A missing sidechain leaves the card with its
// summary, not an error.

import path from "node:path";
import type { Transcript } from "../../shared/transcript.js";
import type { SessionAudit } from "../audit/audit.js";
import { eventStream, isStandaloneFile } from "./eventStream.js";
import { MainFileReader, createHistorySession, loadAllSubagents, type HistorySession } from "./historySession.js";
import { readJsonl } from "./jsonlReader.js";
import { HistoryError, lineProblems, type HistoryProblem } from "./problems.js";
import { resolveProjectsDir, sessionIdFromPath } from "../platform/projectsDir.js";
import { forkOriginsOf, linkForkedSidechains } from "./copiedSidechains.js";
import { findSessionFile, isFile, looksLikePath } from "./sessionFile.js";
import { findSidechainFiles } from "./sidechains.js";
import { findLineInserts } from "./sessionInserts.js";
import { annotatedTranscript } from "./sidechainPaths.js";
import { fileIdentity } from "./tail.js";

/** The reader awaits each chunk: this bounds how long a restore holds the event loop at a time. */
const RestoreChunkBytes = 256 * 1024;

export interface RestoreOptions {
  /** Defaults to `$CLAUDE_CONFIG_DIR/projects` or `~/.claude/projects`. */
  readonly projectsDir?: string;
  /** Read every subagent's transcript now (export) instead of when its card opens. */
  readonly loadSidechains?: boolean;
  /** The file may still grow (a live session): do not end open calls as stopped. */
  readonly live?: boolean;
  /** Stops reading (a tab closed before its restore finished); the restore rejects with the reason. */
  readonly signal?: AbortSignal;
  /** Baton's audit trail for this session (decisions, interrupts): applied where the disk cannot say. */
  readonly audit?: SessionAudit;
}

export interface RestoreResult {
  readonly transcript: Transcript;
  readonly problems: readonly HistoryProblem[];
  readonly session: HistorySession;
}

/**
 * The command line's session argument (`baton export <id | file>`): a session id, looked up under
 * the history folder (in `project`, its project folder, when given), or the person's own path to a
 * `.jsonl` file, relative to their working folder. What a page names goes through
 * `findSessionFile`, which never resolves against it.
 */
export async function resolveSessionFile(pathOrId: string, projectsDir?: string, project?: string): Promise<string> {
  if (looksLikePath(pathOrId)) {
    const file = path.resolve(pathOrId);
    if (!(await isFile(file))) throw new HistoryError("not_found", pathOrId, `No transcript file at ${file}`);
    return file;
  }
  return findSessionFile(pathOrId, resolveProjectsDir(projectsDir === undefined ? {} : { override: projectsDir }), project);
}

export async function restoreSession(pathOrId: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const file = await resolveSessionFile(pathOrId, options.projectsDir);
  const sessionId = sessionIdFromPath(file);
  const projectDir = path.dirname(file);
  const problems: HistoryProblem[] = [];
  const skipped: HistoryProblem[] = [];
  // Listing the sidechains (a meta.json per subagent) overlaps with reading the main file; the
  // forks and side questions (a few files) are needed first: they go between its lines.
  const sidechains = findSidechainFiles(projectDir, sessionId, skipped);
  sidechains.catch(() => undefined);
  const inserts = isStandaloneFile(file) ? undefined : await findLineInserts(projectDir, sessionId, skipped);
  const stream = eventStream({ kind: "session", file, ...(inserts !== undefined ? { inserts } : {}), ...(options.audit !== undefined ? { audit: options.audit } : {}) });
  // Each line is applied to the model as it is read: neither the file's text nor its events are
  // kept, only the transcript. The reader awaits every chunk, so the loop yields between batches.
  const reader = new MainFileReader(sessionId, stream);
  const signal = options.signal;
  // Before the read: a file replaced while it is read is seen as replaced when followed.
  const identity = await fileIdentity(file);
  let offset = 0;
  try {
    const result = await readJsonl(file, {
      final: options.live !== true,
      chunkBytes: RestoreChunkBytes,
      onRecord: ({ value }) => {
        reader.add(stream.line(value));
        return signal?.aborted !== true;
      },
    });
    problems.push(...lineProblems(file, result.stats, result.problems));
    offset = result.nextOffset;
  } catch (error) {
    throw new HistoryError("unreadable", pathOrId, `Cannot read ${file}: ${String(error)}`);
  }
  signal?.throwIfAborted();
  reader.add(stream.end());
  const model = reader.finish(options.live !== true);
  const unlinked = stream.mapper.unlinkedSidechainLines;
  if (unlinked > 0) {
    problems.push({ kind: "unlinked_sidechain_rows", path: file, message: `${unlinked} sidechain row(s) match no Task call`, count: unlinked });
  }
  const files = await sidechains;
  problems.push(...skipped);
  signal?.throwIfAborted();
  const session = createHistorySession({ sessionId, path: file, projectDir, finished: options.live !== true, model, stream, offset, ...(identity !== undefined ? { identity } : {}), files, problems });
  await linkForkedSidechains(session, forkOriginsOf(options));
  if (options.loadSidechains === true) {
    await loadAllSubagents(session);
    reportUnlinked(session);
  }
  return { transcript: annotatedTranscript(session), problems: session.problems, session };
}

function reportUnlinked(session: HistorySession): void {
  const linked = new Set([...session.links.values()].map((f) => f.path));
  for (const file of session.files) {
    if (linked.has(file.path)) continue;
    session.problems.push({ kind: "unlinked_sidechain", path: file.path, message: `subagent ${file.agentId} matches no Agent call` });
  }
}

// Reopening a past session: find its file, read the main transcript through its event stream
// (eventStream.ts) into the hub, find its subagents' files, and mark every subagent card whose own
// transcript can still be loaded (`sidechainPath`). A missing sidechain leaves the card with its
// summary, not an error.

import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Transcript } from "../../shared/transcript.js";
import type { SessionAudit } from "../audit/audit.js";
import { eventStream, isStandaloneFile } from "./eventStream.js";
import { MainFileReader, createHistorySession, loadAllSubagents, sidechainSource, type HistorySession } from "./historySession.js";
import { readJsonl } from "./jsonlReader.js";
import { HistoryError, lineProblems, type HistoryProblem } from "./problems.js";
import { containedFile, containedPath, isPlainId, quotedId } from "../platform/containedPath.js";
import { resolveProjectsDir, sessionIdFromPath } from "../platform/projectsDir.js";
import { findForkedSidechains, findSidechainFiles, type SidechainFile } from "./sidechains.js";
import { findLineInserts } from "./sessionInserts.js";
import { annotatedTranscript } from "./sidechainPaths.js";

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

function looksLikePath(pathOrId: string): boolean {
  return pathOrId.endsWith(".jsonl") || pathOrId.includes("/") || pathOrId.includes(path.sep);
}

/**
 * A session the app names (from a page, untrusted): its id, looked up in its project folder
 * `project` or else in each project folder of `projectsDir`, or an absolute path of a transcript
 * inside that folder. A session is its project folder and id: an id found in two project folders
 * (a copied history) is refused as ambiguous, naming both, unless `project` picks one. Links are
 * followed only while they stay inside the folder (containedPath.ts). Returns the path as found
 * (its name is the session's id). Errors name the id and the history folder, never Baton's working
 * folder.
 */
export async function findSessionFile(idOrPath: string, projectsDir: string, project?: string): Promise<string> {
  const root = path.resolve(projectsDir);
  if (looksLikePath(idOrPath)) {
    if (!path.isAbsolute(idOrPath)) throw new HistoryError("refused", idOrPath, "A session is named by its id, or by the path of a transcript inside the history folder");
    const checked = await containedFile(root, idOrPath);
    if (checked.kind === "inside" && (await isFile(checked.real))) return checked.path;
    if (checked.kind === "outside") throw new HistoryError("refused", idOrPath, `That transcript is not in the history folder ${root} (${checked.reason}); Baton does not read it`);
    throw new HistoryError("not_found", idOrPath, `No transcript file there in the history folder ${root}`);
  }
  if (!isPlainId(idOrPath)) throw new HistoryError("refused", idOrPath, `${quotedId(idOrPath)} is not a session id`);
  if (project !== undefined && !isProjectName(project)) throw new HistoryError("refused", idOrPath, `${quotedId(project)} is not a project folder's name`);
  let projects: string[];
  try {
    projects = project !== undefined ? [project] : await readdir(root);
  } catch {
    throw new HistoryError("not_found", idOrPath, `No projects folder at ${root}`);
  }
  let refused: string | undefined;
  const found: string[] = [];
  for (const name of projects.sort()) {
    const checked = await containedPath(root, name, `${idOrPath}.jsonl`);
    if (checked.kind === "inside" && (await isFile(checked.real))) found.push(checked.path);
    if (checked.kind === "outside") refused ??= checked.reason;
  }
  if (found.length === 1) return found[0]!;
  if (found.length > 1) {
    throw new HistoryError("ambiguous", idOrPath, `Session ${idOrPath} is in ${found.length} project folders; name its project folder or give its file: ${found.join(", ")}`);
  }
  if (refused !== undefined) throw new HistoryError("refused", idOrPath, `Session ${idOrPath} was not opened: ${refused}`);
  const where = project !== undefined ? `in the project folder ${path.join(root, project)}` : `under ${root}`;
  throw new HistoryError("not_found", idOrPath, `No session ${idOrPath} ${where}`);
}

/** A project folder's name: one plain entry of the history folder, never `.`, `..` or a path. */
function isProjectName(name: string): boolean {
  return name.length > 0 && name.length <= 255 && name !== "." && name !== ".." && !/[\\/\0]/.test(name);
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
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
  const session = createHistorySession({ sessionId, path: file, projectDir, finished: options.live !== true, model, stream, offset, files, problems });
  await linkForkedSidechains(session, forkOriginsOf(options));
  if (options.loadSidechains === true) {
    await loadAllSubagents(session);
    reportUnlinked(session);
  }
  return { transcript: annotatedTranscript(session), problems: session.problems, session };
}

/** Where else a fork's copied agents may have run: the sessions Baton recorded it came from (SessionAudit.forkOrigins). */
export interface ForkOrigins {
  /** The history folder the origins are looked up in (default: the CLI's). */
  readonly projectsDir?: string;
  /** Its origin, then that one's origin, …. */
  readonly origins?: readonly string[];
}

/** A restore's history folder and the origins its audit trail recorded. */
export function forkOriginsOf(options: { readonly projectsDir?: string; readonly audit?: SessionAudit }): ForkOrigins {
  const origins = options.audit?.forkOrigins;
  return { ...(options.projectsDir !== undefined ? { projectsDir: options.projectsDir } : {}), ...(origins !== undefined ? { origins } : {}) };
}

/** A fork copies the main lines but not the sidechains: find them in the sessions it came from. */
export async function linkForkedSidechains(session: HistorySession, from: ForkOrigins = {}): Promise<void> {
  const missing = [...session.calls.values()].filter((c) => c.parentToolUseId === null && sidechainSource(session, c.toolUseId) === undefined);
  if (missing.length === 0) return;
  const wanted = new Set(missing.map((c) => c.toolUseId));
  // Their nested agents' files are beside them: linked too, or their cards and calls would be lost.
  for (const file of await findCopiedSidechains(session.projectDir, session.sessionId, wanted, from, session.problems)) {
    const id = file.meta?.toolUseId;
    if (id !== undefined && !session.links.has(id)) session.links.set(id, file);
  }
}

/**
 * The files of the agents a fork copied (`wanted`: its Agent calls with none of their own): beside
 * it in its project folder, else in the folder of each session it came from, nearest first, with
 * the sessions beside that one (a fork made in a new worktree is in another project folder than
 * its origin). Every file comes with the agents nested in its folder; each is taken by the call
 * its meta names.
 */
export async function findCopiedSidechains(projectDir: string, sessionId: string, wanted: ReadonlySet<string>, from: ForkOrigins, problems?: HistoryProblem[]): Promise<SidechainFile[]> {
  const found = await findForkedSidechains(projectDir, sessionId, wanted, problems);
  const lacking = (): Set<string> => {
    const named = new Set(found.map((f) => f.meta?.toolUseId));
    return new Set([...wanted].filter((id) => !named.has(id)));
  };
  const origins = from.origins ?? [];
  if (origins.length === 0 || lacking().size === 0) return found;
  const projectsDir = resolveProjectsDir(from.projectsDir === undefined ? {} : { override: from.projectsDir });
  const looked = new Set([projectDir]);
  for (const origin of origins) {
    const file = await findSessionFile(origin, projectsDir).catch(() => undefined);
    const project = file === undefined ? undefined : path.dirname(file);
    // A folder looked in already held every session beside the fork.
    if (project === undefined || looked.has(project)) continue;
    looked.add(project);
    found.push(...(await findSidechainFiles(project, origin)).filter((f) => f.meta?.toolUseId !== undefined));
    const still = lacking();
    if (still.size === 0) break;
    found.push(...(await findForkedSidechains(project, origin, still)));
    if (lacking().size === 0) break;
  }
  return found;
}

function reportUnlinked(session: HistorySession): void {
  const linked = new Set([...session.links.values()].map((f) => f.path));
  for (const file of session.files) {
    if (linked.has(file.path)) continue;
    session.problems.push({ kind: "unlinked_sidechain", path: file.path, message: `subagent ${file.agentId} matches no Agent call` });
  }
}

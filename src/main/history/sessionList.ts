// The Project panel's list and `baton sessions`: every `<project>/<sessionId>.jsonl` under the
// projects folder, with what a person needs to recognise it. Nothing is written.
//
// Cold (no index yet): each file's first and last lines only (sessionEnds.ts), and its subagents
// counted from its folders (subagentCount.ts), so a big history lists fast and in bounded memory.
// What only a full read could tell is marked, never guessed: the prompt count of a file not read
// whole is absent, so is the subagent count when the lines read name more Agent calls than there
// are subagent files (an old layout keeps its agents inside the file), and a title that a rename
// in the unread middle could outrank is marked `titleMayChange`.
//
// Warm: a file the index has read whole and that has not changed since is listed from what the
// index knows (`known`, which has the middle's title and the counts), without opening it.

import { stat } from "node:fs/promises";
import path from "node:path";
import type { SessionSummary as ApiSessionSummary } from "../../shared/api.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { str } from "../../shared/jsonFields.js";
import { sessionTitle, type TitleSource } from "../../shared/sessionTitle.js";
import { ListFacts, skimLine } from "./listFacts.js";
import type { HistoryProblem } from "./problems.js";
import { NotRegularFileError, notRegularMessage } from "../platform/regularFile.js";
import { readSessionEnds } from "./sessionEnds.js";
import { findSessionFiles, type SessionFile } from "./sessionFiles.js";
import { countRootAgents, countSubagents } from "./subagentCount.js";

/** Files read at once: enough to keep the disk busy, few enough to bound the memory of long lines. */
const Parallel = 8;

export type { TitleSource } from "../../shared/sessionTitle.js";

/** The app's summary (shared/api.ts), with the project folder's name and what the command line also shows. */
export interface SessionSummary extends Omit<ApiSessionSummary, "projectDir"> {
  /** The project folder name (the cwd with non-alphanumerics replaced by `-`). */
  readonly project: string;
  readonly titleSource: TitleSource;
  readonly modifiedMs: number;
  /** Damaged lines (not JSON, truncated, …) among the lines the list read. */
  readonly badLines: number;
}

export interface SessionListing {
  readonly sessions: SessionSummary[];
  /** Entries skipped: named like a transcript but not a regular file, or a link leading out of the folder. */
  readonly problems: HistoryProblem[];
}

/** What the index knows of a session whose main file it read whole, at this size and time. */
export interface KnownSession {
  readonly size: number;
  readonly mtimeMs: number;
  readonly title: string;
  readonly titleSource: TitleSource;
  readonly cwd?: string;
  readonly gitBranch?: string;
  readonly firstTimestamp?: string;
  readonly lastTimestamp?: string;
  readonly promptCount: number;
  readonly subagentCount: number;
}

export interface ListOptions {
  /** What the index knows, by the main file's resolved path. */
  readonly known?: ReadonlyMap<string, KnownSession>;
}

/** All sessions under `projectsDir`, newest first. A missing folder gives an empty list. */
export async function listSessions(projectsDir: string, options: ListOptions = {}): Promise<SessionSummary[]> {
  return (await listSessionsWithProblems(projectsDir, options)).sessions;
}

export async function listSessionsWithProblems(projectsDir: string, options: ListOptions = {}): Promise<SessionListing> {
  const { files, problems } = await findSessionFiles(projectsDir, countRootAgents);
  const listed = await mapLimit(files, Parallel, async (session) => {
    try {
      return (await fromIndex(session, options.known)) ?? (await summarizeSession(session));
    } catch (error) {
      // A link inside the folder to a FIFO, socket, device or folder: skipped, said so.
      if (error instanceof NotRegularFileError) return { kind: "not_regular_file", path: session.file, message: notRegularMessage(error.kind) } satisfies HistoryProblem;
      // Gone or unreadable since the folder was listed.
      return undefined;
    }
  });
  const sessions: SessionSummary[] = [];
  for (const item of listed) {
    if (item === undefined) continue;
    if ("kind" in item) problems.push(item);
    else sessions.push(item);
  }
  return { sessions: sessions.sort(newestFirst), problems };
}

/** ISO times compare as strings; `localeCompare` would load a collator, the slowest step of a small list. */
function newestFirst(a: SessionSummary, b: SessionSummary): number {
  const x = newestKey(a);
  const y = newestKey(b);
  return x < y ? 1 : x > y ? -1 : 0;
}

function newestKey(s: SessionSummary): string {
  return s.lastTimestamp ?? new Date(s.modifiedMs).toISOString();
}

/** The session as the index read it, when its main file is still that size and age. */
async function fromIndex(session: SessionFile, known: ReadonlyMap<string, KnownSession> | undefined): Promise<SessionSummary | undefined> {
  const k = known?.get(path.resolve(session.file));
  if (k === undefined) return undefined;
  const st = await stat(session.file);
  if (!st.isFile() || st.size !== k.size || st.mtimeMs !== k.mtimeMs) return undefined;
  return {
    sessionId: session.sessionId,
    path: session.file,
    project: session.project,
    title: k.title,
    titleSource: k.titleSource,
    ...(k.cwd !== undefined ? { cwd: k.cwd } : {}),
    ...(k.gitBranch !== undefined ? { gitBranch: k.gitBranch } : {}),
    ...(k.firstTimestamp !== undefined ? { firstTimestamp: k.firstTimestamp } : {}),
    ...(k.lastTimestamp !== undefined ? { lastTimestamp: k.lastTimestamp } : {}),
    promptCount: k.promptCount,
    subagentCount: k.subagentCount,
    sizeBytes: st.size,
    modifiedMs: st.mtimeMs,
    badLines: 0,
  };
}

/** Reads the session file's ends. Throws NotRegularFileError for a FIFO, socket, device or folder. */
async function summarizeSession(session: SessionFile): Promise<SessionSummary> {
  const { file, sessionId } = session;
  const ends = await readSessionEnds(file, skimLine);
  const f = new ListFacts();
  for (const line of ends.head) f.line(line);
  for (const line of ends.tail) f.line(line);
  const { title, source: titleSource } = sessionTitle(f, sessionId);
  const files = await countSubagents(session);
  const calls = f.agentCalls.size;
  // Agent calls with no file of their own keep their agents inside the file (old layouts): only a
  // whole file says how many; in its ends they can only say the count is more than the files.
  const subagentCount = ends.whole ? Math.max(files, calls) : calls <= files ? files : undefined;
  const s = ends.stats;
  return {
    sessionId,
    path: file,
    project: session.project,
    title,
    titleSource,
    // The newest rename wins; one in the unread middle would outrank any title but one the tail holds.
    ...(ends.whole || ends.tail.some(isRename) ? {} : { titleMayChange: true }),
    ...(f.cwd !== undefined ? { cwd: f.cwd } : {}),
    ...(f.gitBranch !== undefined ? { gitBranch: f.gitBranch } : {}),
    ...(f.firstTimestamp !== undefined ? { firstTimestamp: f.firstTimestamp } : {}),
    ...(f.lastTimestamp !== undefined ? { lastTimestamp: f.lastTimestamp } : {}),
    // Counting prompts takes every line: only a file read whole has an exact count.
    ...(ends.whole ? { promptCount: f.promptCount } : {}),
    ...(subagentCount !== undefined ? { subagentCount } : {}),
    sizeBytes: ends.size,
    modifiedMs: ends.mtimeMs,
    // Lines too long for the list are passed over by design, not damage.
    badLines: s.invalidUtf8 + s.notJson + s.notObject + s.truncated,
  };
}

function isRename(line: JsonObject): boolean {
  return str(line, "type") === "custom-title" && (str(line, "customTitle") ?? "").trim() !== "";
}

/** `fn` over `items`, at most `limit` at once, results in order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

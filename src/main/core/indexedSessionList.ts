// The warm session list: what the search index knows of the sessions whose main file it read to
// the end, handed to the list (history/sessionList.ts), which uses a session's row while its file
// is still the size and age the index read, and reads the ends of every other file itself. The
// index's rows carry what only a full read gives: a title a rename in the middle set, the prompt
// count, the subagents.

import path from "node:path";
import type { KnownSession } from "../history/index.js";
import { sessionTitle } from "../../shared/sessionTitle.js";
import type { StoreClient } from "../store/storeClient.js";

type IndexedSession = Awaited<ReturnType<StoreClient["indexedSessions"]>>[number];

/** By the main file's resolved path; undefined when the index cannot answer (the list is then cold). */
export async function knownSessions(store: StoreClient, projectsDir: string): Promise<ReadonlyMap<string, KnownSession> | undefined> {
  let rows: readonly IndexedSession[];
  try {
    rows = await store.indexedSessions(projectsDir);
  } catch {
    // Refused (a newer Baton's index), damaged, closed: the list reads every file's ends instead.
    return undefined;
  }
  const known = new Map<string, KnownSession>();
  for (const row of rows) {
    const session = knownSession(row);
    if (session !== undefined) known.set(path.resolve(row.path), session);
  }
  return known;
}

/** Undefined for a session the index has no title for: only its lines' `summary` could name it, which the list reads. */
function knownSession(row: IndexedSession): KnownSession | undefined {
  const title = titleOf(row);
  if (title === undefined) return undefined;
  return {
    size: row.size,
    mtimeMs: row.mtimeMs,
    ...title,
    ...(row.cwd !== null ? { cwd: row.cwd } : {}),
    ...(row.gitBranch !== null ? { gitBranch: row.gitBranch } : {}),
    ...(row.firstTime !== null ? { firstTimestamp: row.firstTime } : {}),
    ...(row.lastTime !== null ? { lastTimestamp: row.lastTime } : {}),
    promptCount: row.promptCount,
    subagentCount: row.subagentCount,
  };
}

/** The session's title (sessionTitle.ts) from what the index kept of its titles and first prompt. */
function titleOf(row: IndexedSession): Pick<KnownSession, "title" | "titleSource"> | undefined {
  const facts = { customTitle: row.customTitle ?? undefined, aiTitle: row.aiTitle ?? undefined, firstPrompt: row.firstPrompt ?? undefined };
  const { title, source } = sessionTitle(facts, "");
  return source === "none" ? undefined : { title, titleSource: source };
}

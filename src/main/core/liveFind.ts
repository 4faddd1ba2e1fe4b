// Find in a session a Baton tab runs live (issue 34's find, for the tab a search hit most often
// lands in): the index's hits, when there are any, are placed on blocks by a restore of the
// session's file made aside for the search (history/hitPlaces.ts needs the file's own reading of each line), then dropped.
// The live transcript's blocks carry the same ids as the file's (a prompt's and an answer's uuid
// with the block's index, a subagent's card its Agent call's id), so the window lands on them.
import type { SessionFind } from "../../shared/api.js";
import { AppError } from "./appError.js";
import type { HistorySource } from "./historySource.js";
import { placeHits, sessionHits } from "./sessionFind.js";

export async function findInLiveSession(history: HistorySource | undefined, sessionId: string | undefined, query: string): Promise<SessionFind> {
  if (history === undefined) throw new AppError("history_unavailable", "No history folder is configured");
  if (sessionId === undefined) throw new AppError("not_found", "This session has no id yet: nothing of it is on disk to find");
  // The file is read only when the index has something to place.
  const hits = await sessionHits(history, query, { sessionId });
  if (hits.length === 0) return { query, places: [], unplaced: 0 };
  const aside = await history.restore(sessionId);
  try {
    return await placeHits(aside, query, hits);
  } finally {
    aside.close?.();
  }
}

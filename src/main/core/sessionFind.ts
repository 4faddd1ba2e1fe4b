// Find in an open session (issue 34): the index's hits inside the tab's session, each placed on the
// block that shows it and the subagent cards around that block (history/hitPlaces.ts), in the
// order the transcript shows them. The window opens the cards, scrolls to the block and marks the
// words; next and previous walk this list.
import type { FoundPlace, SessionFind } from "../../shared/api.js";
import { compareOrder, type HitPlace } from "../history/index.js";
import { AppError } from "./appError.js";
import type { HistorySource, IndexHit, RestoredSession } from "./historySource.js";

/** Hits looked at in one session: a search inside one session ranks a whole window of matches. */
export const MaxSessionHits = 500;

export async function findInSession(history: HistorySource | undefined, session: RestoredSession, query: string): Promise<SessionFind> {
  if (session.locate === undefined) throw new AppError("not_supported", "This session cannot be searched in place");
  return placeHits(session, query, await sessionHits(history, query, session));
}

/** The index's hits of `query` inside one session (its id, and its project folder when known). */
export function sessionHits(history: HistorySource | undefined, query: string, session: { readonly sessionId: string; readonly project?: string }): Promise<readonly IndexHit[]> {
  const searchIn = history?.searchIn;
  if (searchIn === undefined) throw new AppError("search_unavailable", "No search index is available (the history store is not open)");
  return searchIn(query, { sessionId: session.sessionId, ...(session.project !== undefined ? { project: session.project } : {}) }, MaxSessionHits);
}

/** Each hit placed on the block that shows it, in the transcript's order; hits no block shows are counted. */
export async function placeHits(session: RestoredSession, query: string, hits: readonly IndexHit[]): Promise<SessionFind> {
  if (session.locate === undefined) throw new AppError("not_supported", "This session cannot be searched in place");
  const places = await session.locate(hits);
  const found: { readonly hit: IndexHit; readonly place: HitPlace }[] = [];
  hits.forEach((hit, i) => {
    const place = places[i];
    if (place !== undefined) found.push({ hit, place });
  });
  found.sort((a, b) => compareOrder(a.place.order, b.place.order) || a.hit.offset - b.hit.offset || a.hit.event - b.hit.event);
  return { query, places: found.map(toFound), unplaced: hits.length - found.length };
}

function toFound({ hit, place }: { readonly hit: IndexHit; readonly place: HitPlace }): FoundPlace {
  return { file: hit.file, ref: hit.ref, kind: hit.kind, cards: place.cards, blockId: place.blockId, snippet: hit.snippet };
}

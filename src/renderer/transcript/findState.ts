// Find in a session (issue 34): per tab, the query, its hits inside the session in transcript
// order (the main side places each on its block and the cards around it: findInSession), and
// which hit is current. Blocks that hold a hit mark the query's words (util/HitMarks.tsx); the
// current one is opened, scrolled to and marked brighter (landOnHit.ts). A search hit in the
// Project panel opens its session and lands here on that hit.
import { create } from "zustand";
import type { FoundPlace } from "../../shared/api.js";
import { queryPhrases } from "../../shared/searchQuery.js";
import { api } from "../apiClient.js";
import { useApp } from "../state/appState.js";
import type { HitMarks } from "../util/HitMarks.js";
import { landOnHit } from "./landOnHit.js";

export interface TabFind {
  /** The find bar is shown. */
  readonly open: boolean;
  readonly query: string;
  readonly status: "idle" | "searching" | "ready" | "failed";
  readonly error?: string;
  readonly places: readonly FoundPlace[];
  /** The current hit's index in `places`, -1 for none. */
  readonly index: number;
  /** Every block with a hit: its words are marked. */
  readonly blocks: ReadonlySet<string>;
  /** The marks of a block with a hit and of the current one (kept objects, so blocks re-render only when they change). */
  readonly marks: HitMarks | undefined;
  readonly currentMarks: HitMarks | undefined;
  /** Bumped by each search and step: a landing still under way for an older one stops. */
  readonly seq: number;
  /** Asks the find bar's box for focus (Ctrl+F). */
  readonly focusSeq: number;
}

interface FindState {
  readonly tabs: Readonly<Record<string, TabFind>>;
}

export const useFind = create<FindState>()(() => ({ tabs: {} }));

const Closed: TabFind = { open: false, query: "", status: "idle", places: [], index: -1, blocks: new Set(), marks: undefined, currentMarks: undefined, seq: 0, focusSeq: 0 };

function update(tabId: string, change: (f: TabFind) => Partial<TabFind>): TabFind {
  let next = Closed;
  useFind.setState((s) => {
    const open = useApp.getState().tabs;
    // Finds of tabs that closed go; the rest stay.
    const tabs = Object.fromEntries(Object.entries(s.tabs).filter(([id]) => open[id] !== undefined));
    const old = tabs[tabId] ?? Closed;
    next = { ...old, ...change(old) };
    return { tabs: { ...tabs, [tabId]: next } };
  });
  return next;
}

/** Shows the tab's find bar and gives its box the focus. */
export function openFind(tabId: string): void {
  update(tabId, (f) => ({ open: true, focusSeq: f.focusSeq + 1 }));
}

/** Hides the find bar; no block marks the words any more. */
export function closeFind(tabId: string): void {
  update(tabId, (f) => ({ ...Closed, seq: f.seq + 1, focusSeq: f.focusSeq }));
}

/**
 * Finds `query` in the tab's session and lands on a hit: the one `at` names (a search result's file
 * and ref), else the first. Settles when the hits are known (the landing goes on by itself).
 */
export async function findInTab(tabId: string, query: string, at?: { readonly file?: string; readonly ref?: string }): Promise<void> {
  const phrases = queryPhrases(query);
  const started = update(tabId, (f) => ({ open: true, query, status: phrases.length === 0 ? "idle" : "searching", places: [], index: -1, blocks: new Set(), marks: undefined, currentMarks: undefined, seq: f.seq + 1 }));
  if (phrases.length === 0) return;
  const result = await api().findInSession(tabId, query);
  if (useFind.getState().tabs[tabId]?.seq !== started.seq) return; // a newer search or a close came first
  if (!result.ok) {
    update(tabId, () => ({ status: "failed", error: result.error.message }));
    return;
  }
  const places = result.value.places;
  const picked = at === undefined ? -1 : places.findIndex((p) => p.file === at.file && p.ref === at.ref);
  update(tabId, () => ({
    status: "ready",
    places,
    blocks: new Set(places.map((p) => p.blockId)),
    marks: { phrases, current: false },
    currentMarks: { phrases, current: true },
  }));
  if (places.length > 0) goTo(tabId, picked === -1 ? 0 : picked);
}

/** The next hit (`step` 1) or the previous one (-1), round the ends. */
export function stepFind(tabId: string, step: 1 | -1): void {
  const f = useFind.getState().tabs[tabId];
  if (f === undefined || f.places.length === 0) return;
  goTo(tabId, (f.index + step + f.places.length) % f.places.length);
}

function goTo(tabId: string, index: number): void {
  const f = update(tabId, (old) => ({ index, seq: old.seq + 1 }));
  const place = f.places[index];
  if (place === undefined) return;
  void landOnHit(tabId, place, () => useFind.getState().tabs[tabId]?.seq === f.seq);
}

/** The current hit of a tab, if any. */
export function currentPlace(f: TabFind | undefined): FoundPlace | undefined {
  return f === undefined || f.index < 0 ? undefined : f.places[f.index];
}

/** The marks a block shows: undefined unless it holds a hit of its tab's find. */
export function useBlockMarks(tabId: string, blockId: string): HitMarks | undefined {
  return useFind((s) => {
    const f = s.tabs[tabId];
    if (f === undefined || !f.blocks.has(blockId)) return undefined;
    return currentPlace(f)?.blockId === blockId ? f.currentMarks : f.marks;
  });
}

/** Ids a card's step list must draw (the cards around the current hit and its block), for NestedBlocks' paging. */
export function useMustShow(tabId: string): readonly string[] | undefined {
  return useFind((s) => {
    const place = currentPlace(s.tabs[tabId]);
    return place === undefined ? undefined : shownOf(place);
  });
}

const shown = new WeakMap<FoundPlace, readonly string[]>();

/** The place's cards and block, one kept array per place (a selector must return the same value). */
function shownOf(place: FoundPlace): readonly string[] {
  let ids = shown.get(place);
  if (ids === undefined) shown.set(place, (ids = [...place.cards, place.blockId]));
  return ids;
}

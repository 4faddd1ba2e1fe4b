// Where the reader left each tab's conversation, for a reload of the window: the row at the top of
// the view and how far down into it. Nothing is kept for a tab read at its end: the list follows
// the end then, as it does for a tab never scrolled. Kept in localStorage per window, written a
// moment after scrolling stops, and only for tabs the server still has open.
import { windowId } from "../layout/savedLayout.js";
import { useApp } from "./appState.js";
import { IdPattern } from "./storedIds.js";

export interface ScrollSpot {
  /** The key of the row at the top of the view (rows.ts: a block id, or a group's key). */
  readonly row: string;
  /** How many pixels of that row are above the view. */
  readonly offset: number;
}

const WriteDelayMs = 300;

function storageKey(): string {
  return `baton.scroll.${windowId(globalThis.location?.search ?? "")}`;
}

/** Reads what is kept, dropping anything that is not a tab id with a row id and a distance. */
export function parseSpots(raw: string | null): Record<string, ScrollSpot> {
  let value: unknown;
  try {
    value = raw === null ? {} : JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof value !== "object" || value === null) return {};
  const out: Record<string, ScrollSpot> = {};
  for (const [tabId, spot] of Object.entries(value)) {
    if (!IdPattern.test(tabId) || typeof spot !== "object" || spot === null) continue;
    const { row, offset } = spot as Record<string, unknown>;
    if (typeof row === "string" && IdPattern.test(row) && typeof offset === "number" && Number.isFinite(offset) && offset >= 0) out[tabId] = { row, offset: Math.round(offset) };
  }
  return out;
}

let spots: Record<string, ScrollSpot> | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

function all(): Record<string, ScrollSpot> {
  if (spots === undefined) {
    try {
      spots = parseSpots(localStorage.getItem(storageKey()));
    } catch {
      spots = {};
    }
  }
  return spots;
}

function write(): void {
  timer = undefined;
  const open = useApp.getState().tabs;
  const kept = Object.fromEntries(Object.entries(all()).filter(([tabId]) => open[tabId] !== undefined));
  spots = kept;
  try {
    localStorage.setItem(storageKey(), JSON.stringify(kept));
  } catch {
    // Storage full or unavailable: a reload starts the conversation at its end.
  }
}

/** Where the tab's conversation was left, if not at its end. */
export function spotOf(tabId: string): ScrollSpot | undefined {
  return all()[tabId];
}

/** The reader scrolled the tab's conversation: `undefined` when they are at its end. */
export function keepSpot(tabId: string, spot: ScrollSpot | undefined): void {
  const now = all();
  const was = now[tabId];
  if (spot === undefined ? was === undefined : was?.row === spot.row && was.offset === spot.offset) return;
  const { [tabId]: _old, ...rest } = now;
  spots = spot === undefined ? rest : { ...rest, [tabId]: spot };
  clearTimeout(timer);
  timer = setTimeout(write, WriteDelayMs);
}

/** Writes a pending change now (the page is going away). */
export function flushSpots(): void {
  if (timer === undefined) return;
  clearTimeout(timer);
  write();
}

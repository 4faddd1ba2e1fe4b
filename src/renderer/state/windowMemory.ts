// What a reload of the window brings back besides drafts (drafts.ts), expanded cards (persist.ts)
// and the dock (layout/savedLayout.ts): the session tab in front, each tab's selected block, and
// which tab is the preview tab (layout/previewTab.ts).
// The tabs themselves are the server's, sent again on reload in the same order; only which one
// was in front and what was selected in each live in the window. Kept in localStorage per window
// (`?window=`), so a second browser tab opening the same Baton starts on the same session too.
// Tab ids start again with each Baton: only ids in the server's first list are used.
import type { TabInfo } from "../../shared/api.js";
import { usePreview } from "../layout/previewTab.js";
import { setTabs, useApp } from "./appState.js";
import { IdPattern } from "./storedIds.js";

export interface RememberedTabs {
  /** The tab that was in front. */
  readonly front?: string;
  /** Each tab's selected block (what the Inspector showed). */
  readonly selected: Readonly<Record<string, string>>;
  /** The past session shown in the preview tab. */
  readonly preview?: string;
}


export function memoryKey(window: string): string {
  return `baton.tabsInWindow.${window}`;
}

/** Reads what is kept, dropping anything that is not an id (storage is the person's to edit). */
export function parseRemembered(raw: string | null): RememberedTabs {
  if (raw === null) return { selected: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { selected: {} };
  }
  if (typeof value !== "object" || value === null) return { selected: {} };
  const { front, selected, preview } = value as Record<string, unknown>;
  const pairs = typeof selected === "object" && selected !== null ? Object.entries(selected) : [];
  return {
    ...(typeof front === "string" && IdPattern.test(front) ? { front } : {}),
    ...(typeof preview === "string" && IdPattern.test(preview) ? { preview } : {}),
    selected: Object.fromEntries(pairs.filter((p): p is [string, string] => IdPattern.test(p[0]) && typeof p[1] === "string" && IdPattern.test(p[1]))),
  };
}

export function readRemembered(storage: Pick<Storage, "getItem">, window: string): RememberedTabs {
  try {
    return parseRemembered(storage.getItem(memoryKey(window)));
  } catch {
    return { selected: {} };
  }
}

function write(storage: Pick<Storage, "setItem">, window: string, memory: RememberedTabs): void {
  try {
    storage.setItem(memoryKey(window), JSON.stringify(memory));
  } catch {
    // Storage full or unavailable: a reload starts on the last tab with nothing selected.
  }
}

/** The server's first tab list of this window, with the tab in front, selections and preview tab as it had them. */
export function applyFirstList(tabs: readonly TabInfo[], memory: RememberedTabs): void {
  setTabs(tabs, memory);
  const preview = tabs.find((t) => t.tabId === memory.preview);
  // A live tab is never a preview (a past session resumed since).
  if (preview !== undefined && !preview.live && preview.kind !== "live") usePreview.setState({ tabId: preview.tabId });
}

function snapshot(): RememberedTabs {
  const s = useApp.getState();
  const preview = usePreview.getState().tabId;
  return { ...(s.activeTabId !== undefined ? { front: s.activeTabId } : {}), selected: s.selectedByTab, ...(preview !== undefined ? { preview } : {}) };
}

/**
 * Keeps the tab in front, the selections and the preview tab as they change, once the server's
 * tabs are known (so the empty state before the first list never overwrites them). Returns a
 * function that stops.
 */
export function startWindowMemory(storage: Pick<Storage, "setItem">, window: string): () => void {
  const save = (): void => {
    if (useApp.getState().tabOrder !== useApp.getInitialState().tabOrder) write(storage, window, snapshot());
  };
  const stopApp = useApp.subscribe((s, prev) => {
    if (s.activeTabId !== prev.activeTabId || s.selectedByTab !== prev.selectedByTab) save();
  });
  const stopPreview = usePreview.subscribe((s, prev) => {
    if (s.tabId !== prev.tabId) save();
  });
  return () => {
    stopApp();
    stopPreview();
  };
}

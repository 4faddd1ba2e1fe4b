// The preview tab (VS Code's rule): a past session opened from the Project list or a search opens
// in a tab drawn in italics, and the next past session opened takes that tab's place, until the
// person acts in it: clicks or types in it (or in the Hierarchy, Inspector, Graph or Changes of it
// while it is in front), double-clicks its tab, or chooses "Keep open". A live session is never a
// preview. The flag lives here, in the renderer: the server's tabs know nothing of it.
import { create } from "zustand";
import type { TabInfo } from "../../shared/api.js";

export const usePreview = create<{ readonly tabId: string | undefined }>(() => ({ tabId: undefined }));

export function previewTabId(): string | undefined {
  return usePreview.getState().tabId;
}

/** The person acted in this tab: it stays. */
export function keepTab(tabId: string): void {
  if (usePreview.getState().tabId === tabId) usePreview.setState({ tabId: undefined });
}

export interface PreviewChange {
  /** The preview tab after the opening. */
  readonly preview: string | undefined;
  /** The earlier preview tab, which the opened one replaces. */
  readonly replaces: string | undefined;
}

/**
 * What opening a past session does. `wasOpen`: the session already had a tab, which is only
 * brought forward (a kept tab stays kept, the preview stays the preview).
 */
export function previewAfterOpen(preview: string | undefined, opened: Pick<TabInfo, "tabId" | "live" | "kind">, wasOpen: boolean): PreviewChange {
  const live = opened.live || opened.kind === "live";
  if (wasOpen || live) return { preview: live && preview === opened.tabId ? undefined : preview, replaces: undefined };
  return { preview: opened.tabId, replaces: preview !== undefined && preview !== opened.tabId ? preview : undefined };
}

/** Panels whose clicks act on the session in front (besides the session's own panel). */
const SessionViews = new Set(["hierarchy", "inspector", "graph", "changes"]);

const Interactive = "button, a[href], summary, input, textarea, select, [role=button], [role=treeitem], [role=option], [contenteditable=true]";

/**
 * Whether a person's click or key in a dock panel acts in the preview tab. `panelId` is the panel
 * the event happened in, `activeTab` the session in front; `key` is a key's name, or "input" for
 * text typed or pasted, or undefined for a click.
 */
export function actsInPreview(preview: string, panelId: string, activeTab: string | undefined, target: Pick<Element, "closest">, key?: string): boolean {
  const inSession = panelId === `session:${preview}` || (SessionViews.has(panelId) && activeTab === preview);
  if (!inSession) return false;
  if (key === undefined) return target.closest(Interactive) !== null;
  const typing = target.closest("input, textarea, select, [contenteditable=true]") !== null;
  return typing || key === "Enter" || key === " ";
}

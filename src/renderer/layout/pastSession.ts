// A past session was opened from the Project list or a search: it becomes the preview tab, taking
// the place of the one before unless the person acted in that one (previewTab.ts).
import type { TabInfo } from "../../shared/api.js";
import { closeSessionTabs } from "./PanelTabs.js";
import { previewAfterOpen, previewTabId, usePreview } from "./previewTab.js";
import { placeSessionAt } from "./sessionPanels.js";

/** `wasOpen`: the session had a tab before it was asked for. */
export function pastSessionOpened(tab: TabInfo, wasOpen: boolean): void {
  const change = previewAfterOpen(previewTabId(), tab, wasOpen);
  usePreview.setState({ tabId: change.preview });
  if (change.replaces === undefined) return;
  placeSessionAt(tab.tabId, change.replaces);
  closeSessionTabs([change.replaces]);
}

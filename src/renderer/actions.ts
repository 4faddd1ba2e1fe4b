// User actions shared by the toolbar, the composer and keyboard shortcuts.
import { api, report } from "./apiClient.js";
import { useApp } from "./store/appStore.js";

export function interruptActive(): void {
  const s = useApp.getState();
  const tabId = s.activeTabId;
  if (tabId === undefined) return;
  void api().interrupt(tabId).then((r) => report("Interrupt", r));
}

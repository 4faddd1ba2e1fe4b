import { useApp } from "../state/appState.js";

/** Whether the block is its tab's selection (each tab keeps its own, shown while the tab is in view). */
export function useSelected(tabId: string, blockId: string): boolean {
  return useApp((s) => s.selectedByTab[tabId] === blockId);
}

import { useApp } from "../state/appState.js";

export function useSelected(tabId: string, blockId: string): boolean {
  return useApp((s) => s.selection?.tabId === tabId && s.selection.blockId === blockId);
}

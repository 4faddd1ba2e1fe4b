// What the Hierarchy remembers of each tab besides the app state: which agents are folded and which
// row holds the tree's one Tab stop. Kept outside the panel so a dock that unmounts a hidden panel
// loses neither.

import { create } from "zustand";

/** The conductor's row: the root of every tab's tree. */
export const ConductorRow = "@conductor";

const NoFolds: ReadonlySet<string> = new Set();

interface HierarchyState {
  readonly folded: Readonly<Record<string, ReadonlySet<string>>>;
  /** The row that takes focus when Tab enters the tree; absent: the conductor. */
  readonly active: Readonly<Record<string, string>>;
}

export const useHierarchy = create<HierarchyState>()(() => ({ folded: {}, active: {} }));

export function foldsOf(tabId: string): ReadonlySet<string> {
  return useHierarchy.getState().folded[tabId] ?? NoFolds;
}

export function useFolded(tabId: string, id: string): boolean {
  return useHierarchy((s) => s.folded[tabId]?.has(id) === true);
}

export function setFolds(tabId: string, folded: ReadonlySet<string>): void {
  useHierarchy.setState((s) => (s.folded[tabId] === folded ? {} : { folded: { ...s.folded, [tabId]: folded } }));
}

export function useIsActive(tabId: string, id: string): boolean {
  return useHierarchy((s) => (s.active[tabId] ?? ConductorRow) === id);
}

export function setActiveRow(tabId: string, id: string): void {
  useHierarchy.setState((s) => (s.active[tabId] === id ? {} : { active: { ...s.active, [tabId]: id } }));
}

/** A row that went away hands the Tab stop back to the conductor. */
export function releaseActiveRow(tabId: string, id: string): void {
  useHierarchy.setState((s) => {
    if (s.active[tabId] !== id) return {};
    const { [tabId]: _gone, ...rest } = s.active;
    return { active: rest };
  });
}

// The "Needs you" list as the window reads it: worked out again only when the tabs change, and the
// same array while what it lists is the same (so a progress tick re-renders nothing).
import { useApp, type AppState } from "../state/appState.js";
import { waitingItems, type WaitingItem } from "../state/needsYou.js";

let lastTabs: AppState["tabs"] | undefined;
let lastOrder: AppState["tabOrder"] | undefined;
let lastItems: readonly WaitingItem[] = Object.freeze([]);

function same(a: readonly WaitingItem[], b: readonly WaitingItem[]): boolean {
  return a.length === b.length && a.every((item, i) => {
    const other = b[i]!;
    return item.key === other.key && item.summary === other.summary && item.agent === other.agent && item.sessionTitle === other.sessionTitle && item.blockId === other.blockId && item.request === other.request && item.escalation === other.escalation;
  });
}

/** Everything waiting for the person, oldest first (state/needsYou.ts). */
export function needsYouOf(s: Pick<AppState, "tabs" | "tabOrder">): readonly WaitingItem[] {
  if (s.tabs === lastTabs && s.tabOrder === lastOrder) return lastItems;
  lastTabs = s.tabs;
  lastOrder = s.tabOrder;
  const next = waitingItems(s);
  if (!same(next, lastItems)) lastItems = next;
  return lastItems;
}

export function useNeedsYou(): readonly WaitingItem[] {
  return useApp(needsYouOf);
}

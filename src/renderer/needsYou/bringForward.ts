// Brings a waiting item forward: its session's tab to the front, the cards around it open, the
// request (or the agent's question or plan) scrolled into the middle and given the keyboard — not
// to one of its buttons, so a stray Enter answers nothing. Every step waits for the state it needs.
import { scrollToBlock, setActiveTab, useApp } from "../state/appState.js";
import type { WaitingItem } from "../state/needsYou.js";

/** How long it waits for the tab to draw the item. */
const WaitMs = 10_000;

let landing = 0;
let lastShown: string | undefined;

/** The key of the item brought forward last ("Next waiting" goes on from there). */
export function lastShownKey(): string | undefined {
  return lastShown;
}

/** Where the item is drawn in its tab (not its copy in the "Needs you" list). */
export function itemElement(item: WaitingItem): HTMLElement | undefined {
  const selector = item.request !== undefined ? `[data-request-id="${CSS.escape(item.request.requestId)}"]` : `[data-escalation-id="${CSS.escape(item.escalation?.id ?? "")}"]`;
  return [...document.querySelectorAll<HTMLElement>(selector)].find((e) => e.closest(".needs-list") === null && e.getClientRects().length > 0);
}

export function bringForward(item: WaitingItem): void {
  const mine = ++landing;
  lastShown = item.key;
  setActiveTab(item.tabId);
  const deadline = performance.now() + WaitMs;
  let frames = 0;
  const step = (): void => {
    if (mine !== landing || useApp.getState().activeTabId !== item.tabId || performance.now() > deadline) return;
    const element = itemElement(item);
    if (element === undefined) {
      // Asked again now and then: a tab's list that mounts after a request does not take it.
      if (item.blockId !== undefined && frames++ % 30 === 0) scrollToBlock(item.blockId);
      requestAnimationFrame(step);
      return;
    }
    element.scrollIntoView({ block: "center", inline: "nearest" });
    if (element.tabIndex < 0 && !element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
    element.focus({ preventScroll: true });
  };
  step();
}

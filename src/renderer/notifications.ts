// Desktop notifications while the window is hidden: a long turn ended, or a request waits.
import { onDeltasApplied } from "./state/deltaQueue.js";
import { useApp } from "./state/appState.js";
import { LongTurns } from "./longTurns.js";

function notify(title: string, body: string): void {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (document.visibilityState !== "hidden") return;
  new Notification(title, { body });
}

export function startNotifications(): () => void {
  if (typeof Notification !== "undefined" && Notification.permission === "default") {
    // Ask once, on the first user gesture (browsers ignore requests made without one).
    const ask = (): void => void Notification.requestPermission();
    window.addEventListener("pointerdown", ask, { once: true });
  }
  const turns = new LongTurns();
  const seenRequests = new Set<string>();
  return onDeltasApplied((deltas) => {
    const s = useApp.getState();
    for (const delta of deltas) {
      const tab = s.tabs[delta.tabId];
      const title = tab?.info.title ?? "Session";
      // Background agents keep the status "running": the notification waits for the last of them.
      if (delta.meta !== undefined && turns.update(delta.tabId, delta.meta.status, Date.now())) notify("Claude finished", title);
      for (const p of delta.pending ?? []) {
        if (seenRequests.has(p.requestId)) continue;
        seenRequests.add(p.requestId);
        notify("Claude is waiting for you", `${title}: ${p.toolName}`);
      }
    }
  });
}

// Desktop notifications while the window is hidden: a long turn ended, or a request waits.
import { onDeltasApplied } from "./store/deltaQueue.js";
import { useApp } from "./store/appStore.js";

const LongTurnMs = 20_000;

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
  const runningSince = new Map<string, number>();
  const seenRequests = new Set<string>();
  return onDeltasApplied((deltas) => {
    const s = useApp.getState();
    for (const delta of deltas) {
      const tab = s.tabs[delta.tabId];
      const title = tab?.transcript.meta?.title ?? tab?.info.title ?? "Session";
      if (delta.meta !== undefined) {
        if (delta.meta.status === "running" && !runningSince.has(delta.tabId)) runningSince.set(delta.tabId, Date.now());
        if (delta.meta.status !== "running" && runningSince.has(delta.tabId)) {
          const took = Date.now() - runningSince.get(delta.tabId)!;
          runningSince.delete(delta.tabId);
          if (took >= LongTurnMs) notify("Claude finished", title);
        }
      }
      for (const p of delta.pending ?? []) {
        if (seenRequests.has(p.requestId)) continue;
        seenRequests.add(p.requestId);
        notify("Claude is waiting for you", `${title}: ${p.toolName}`);
      }
    }
  });
}

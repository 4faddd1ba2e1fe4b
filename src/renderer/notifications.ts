// Desktop notifications while the window is not in front: something new waits for the person (a
// request, a question, a plan; naming the session and the agent; a click brings it forward), or a
// long turn ended. Never for what the person is looking at; off by the setting (needsYou/notifySetting.ts).
import { api } from "./apiClient.js";
import { onDeltasApplied } from "./state/deltaQueue.js";
import { useApp } from "./state/appState.js";
import { LongTurns } from "./longTurns.js";
import { bringForward } from "./needsYou/bringForward.js";
import { notificationsOn } from "./needsYou/notifySetting.js";
import { needsYouOf } from "./needsYou/useNeedsYou.js";
import { visibleString } from "./util/VisibleText.js";

/** The window is in front: shown, and the focused window. */
function inFront(): boolean {
  return document.visibilityState === "visible" && document.hasFocus();
}

function notify(title: string, body: string, onClick?: () => void): void {
  if (!notificationsOn() || inFront()) return;
  // Transcript text shows its hidden characters (bidi controls, zero-width) as markers here too.
  const note = new Notification(title, { body: visibleString(body) });
  if (onClick !== undefined) {
    note.onclick = () => {
      window.focus();
      // The desktop app's window, minimised or behind others, comes forward from the main side.
      void api().showWindow();
      onClick();
      note.close();
    };
  }
}

export function startNotifications(): () => void {
  const turns = new LongTurns();
  const seen = new Set<string>();
  return onDeltasApplied((deltas) => {
    const s = useApp.getState();
    for (const delta of deltas) {
      const title = s.tabs[delta.tabId]?.info.title ?? "Session";
      // Background agents keep the status "running": the notification waits for the last of them.
      if (delta.meta !== undefined && turns.update(delta.tabId, delta.meta.status, Date.now())) notify("Claude finished", title);
    }
    for (const item of needsYouOf(s)) {
      if (seen.has(item.key)) continue;
      seen.add(item.key);
      notify("Claude is waiting for you", `${item.sessionTitle} · ${item.agent}: ${item.summary}`, () => bringForward(item));
    }
  });
}

// Connects the app state to the BatonApi: the tab list, one delta subscription per open tab, logs,
// session info. Returns a function that stops every subscription.
import type { BatonApi, TabInfo } from "../shared/api.js";
import { addLog, setPolicy, setSessionInfo, setTabs, useApp } from "./state/appState.js";
import { enqueueDelta } from "./state/deltaQueue.js";
import { pruneDrafts } from "./state/drafts.js";
import { pruneDraftImages } from "./state/draftImages.js";
import { flushSpots } from "./state/scrollMemory.js";
import { applyFirstList, readRemembered, startWindowMemory } from "./state/windowMemory.js";
import { windowId } from "./layout/savedLayout.js";
import { startFullSteps } from "./state/fullSteps.js";
import { startNotifications } from "./notifications.js";
import { refreshSessions } from "./panels/ProjectPanel.js";

export function startSync(api: BatonApi): () => void {
  const subscriptions = new Map<string, () => void>();
  const infoAsked = new Set<string>();
  const window = windowId(globalThis.location.search);
  let first = true;
  /** The tabs and sessions the pictures were last pruned for. */
  let prunedFor: string | undefined;

  const askInfo = (tab: TabInfo): void => {
    if (!tab.live || infoAsked.has(tab.tabId)) return;
    infoAsked.add(tab.tabId);
    void api.getSessionInfo(tab.tabId).then((r) => {
      if (r.ok) setSessionInfo(tab.tabId, r.value);
      else infoAsked.delete(tab.tabId);
    });
  };

  const onTabs = (tabs: readonly TabInfo[]): void => {
    // Before any composer of these tabs reads its draft: a closed tab's goes, a reused id's too.
    pruneDrafts(localStorage, tabs);
    // The pictures' store is read whole to prune it: only when the tabs or their sessions changed, not at every title or state change.
    const owners = tabs.map((t) => `${t.tabId}\0${t.sessionId ?? ""}`).join("\n");
    if (owners !== prunedFor) void pruneDraftImages(tabs);
    prunedFor = owners;
    // The first list is the server's tabs as this window finds them (a reload): the tab that was in front comes back to the front.
    if (first) applyFirstList(tabs, readRemembered(localStorage, window));
    else setTabs(tabs);
    first = false;
    const open = new Set(tabs.map((t) => t.tabId));
    for (const [tabId, stop] of subscriptions) {
      if (open.has(tabId)) continue;
      stop();
      subscriptions.delete(tabId);
    }
    for (const tab of tabs) {
      if (!subscriptions.has(tab.tabId)) subscriptions.set(tab.tabId, api.onTranscriptDelta(tab.tabId, enqueueDelta));
      askInfo(tab);
    }
  };

  const stopTabs = api.onTabsChanged((tabs) => {
    onTabs(tabs);
    // A session that ends or starts shows up in the history list.
    refreshSessions();
  });
  const stopLog = api.onLog(addLog);
  // Every window follows the policy: a rule added by a prompt shows in every Rules view.
  const stopPolicy = api.onPolicyChanged(setPolicy);
  void api.getPolicy().then((r) => {
    // A change pushed meanwhile is newer than this answer.
    if (r.ok && useApp.getState().policy === undefined) setPolicy(r.value);
  });
  void api.listTabs().then((r) => {
    if (r.ok) onTabs(r.value);
  });
  // Slash commands arrive with the CLI's init; ask again once a live tab has a session id.
  const stopInfo = useApp.subscribe((s, prev) => {
    for (const tabId of s.tabOrder) {
      const tab = s.tabs[tabId];
      if (tab?.info.live === true && tab.sessionInfo?.slashCommands.length === 0 && tab.transcript.meta?.sessionId !== prev.tabs[tabId]?.transcript.meta?.sessionId) {
        infoAsked.delete(tabId);
        askInfo(tab.info);
      }
    }
  });
  const stopMemory = startWindowMemory(localStorage, window);
  globalThis.addEventListener("pagehide", flushSpots);
  const stopNotify = startNotifications();
  const stopSteps = startFullSteps();
  return () => {
    stopTabs();
    stopLog();
    stopPolicy();
    stopInfo();
    stopMemory();
    globalThis.removeEventListener("pagehide", flushSpots);
    stopNotify();
    stopSteps();
    for (const stop of subscriptions.values()) stop();
    subscriptions.clear();
  };
}

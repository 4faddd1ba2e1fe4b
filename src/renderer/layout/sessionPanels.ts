// Each open session (a server tab) is a dock panel, kept in step with the app state: a tab that
// opens gets a panel in the sessions' group, one that closes loses its panel, the tab in front is
// the panel in front, and a click on a session's tab brings that session to the front of the app.
// While no session is open the "transcript" panel holds the sessions' place.
import type { DockviewApi, DockviewGroupPanel, IDockviewPanel } from "dockview";
import { visibleString } from "../util/VisibleText.js";
import { setActiveTab, useApp, type AppState } from "../state/appState.js";
import { toolPanel } from "./defaultLayout.js";
import { sessionTabTitle } from "./PanelTabs.js";
import { PanelMinimum, sessionPanelId, tabIdOfPanel, type SessionPlace } from "./savedLayout.js";

let mounted: DockviewApi | undefined;

/** The dock on screen, for what happens outside it (a preview tab's replacement). */
export function setMountedDock(dock: DockviewApi | undefined): void {
  mounted = dock;
}

/** Where a session's panel goes when it appears (it replaces another's tab, or had this place before a reload). */
const placements = new Map<string, { readonly group: DockviewGroupPanel; readonly index: number; readonly front?: true }>();

/**
 * The places the sessions' tabs had before the window reloaded (savedLayout.ts), in groups the
 * loaded layout has: each session's panel goes back there when the server's tab list names it.
 */
export function rememberPlaces(dock: DockviewApi, places: readonly SessionPlace[]): void {
  for (const place of places) {
    const group = dock.groups.find((g) => g.id === place.group);
    if (group !== undefined) placements.set(place.tabId, { group, index: place.index, ...(place.front === true ? { front: true as const } : {}) });
  }
}

/** Forgets the remembered places of sessions the server's first tab list did not name. */
export function forgetPlaces(open: readonly string[]): void {
  for (const tabId of [...placements.keys()]) if (!open.includes(tabId)) placements.delete(tabId);
}

/** Puts a session's panel where another session's is (the tab it replaces), before that one closes. */
export function placeSessionAt(tabId: string, otherTabId: string): void {
  const other = mounted?.getPanel(sessionPanelId(otherTabId));
  if (other === undefined) return;
  const place = { group: other.group, index: other.group.panels.indexOf(other) };
  const panel = mounted?.getPanel(sessionPanelId(tabId));
  // The server's tab list may name the new tab before or after openSession answers.
  if (panel === undefined) placements.set(tabId, place);
  else panel.api.moveTo({ group: place.group, position: "center", index: place.index });
}

export function sessionPanels(dock: DockviewApi): IDockviewPanel[] {
  return dock.panels.filter((p) => tabIdOfPanel(p.id) !== undefined);
}

/**
 * The group new sessions go in: the front session's, else any session's, else the place holder's,
 * else `remembered` (the saved layout's sessions group) when it still exists.
 */
export function sessionGroup(dock: DockviewApi, remembered?: string): DockviewGroupPanel | undefined {
  const active = useApp.getState().activeTabId;
  const front = active !== undefined ? dock.getPanel(sessionPanelId(active)) : undefined;
  const any = front ?? sessionPanels(dock)[0] ?? dock.getPanel("transcript");
  if (any !== undefined) return any.group;
  return remembered !== undefined ? dock.groups.find((g) => g.id === remembered) : undefined;
}

function addSession(dock: DockviewApi, s: AppState, tabId: string, remembered: string | undefined): void {
  const place = placements.get(tabId);
  placements.delete(tabId);
  const placed = place !== undefined && dock.groups.includes(place.group) ? place : undefined;
  const group = placed?.group ?? sessionGroup(dock, remembered);
  const min = PanelMinimum.session;
  dock.addPanel({
    id: sessionPanelId(tabId),
    component: "session",
    tabComponent: "session",
    title: visibleString(sessionTabTitle(s, tabId)),
    params: { tabId },
    minimumWidth: min.width,
    minimumHeight: min.height,
    inactive: tabId !== s.activeTabId,
    ...(group !== undefined
      ? { position: { referenceGroup: group, direction: "within" as const, ...(placed !== undefined ? { index: placed.index } : {}) } }
      : { position: { direction: "right" as const } }),
  });
}

/** Puts the place holder where the sessions were, so the group stays when the last one closes. */
function holdPlace(dock: DockviewApi, group: DockviewGroupPanel | undefined): void {
  if (dock.getPanel("transcript") !== undefined) return;
  dock.addPanel({ ...toolPanel("transcript"), ...(group !== undefined ? { position: { referenceGroup: group, direction: "within" as const } } : {}) });
}

/** Makes the dock's session panels match the app's tabs once. */
export function syncSessions(dock: DockviewApi, s: AppState, remembered: string | undefined): void {
  const open = new Set(s.tabOrder);
  const panels = sessionPanels(dock);
  const gone = panels.filter((p) => !open.has(tabIdOfPanel(p.id) ?? ""));
  if (gone.length > 0 && gone.length === panels.length && s.tabOrder.length === 0) holdPlace(dock, gone[0]?.group);
  for (const panel of gone) dock.removePanel(panel);
  // Tabs with a remembered place go in first, by their index, so each group gets its old order back.
  const missing = s.tabOrder.filter((tabId) => dock.getPanel(sessionPanelId(tabId)) === undefined);
  const at = (tabId: string): number => placements.get(tabId)?.index ?? Number.MAX_SAFE_INTEGER;
  const fronts = missing.filter((tabId) => placements.get(tabId)?.front === true);
  for (const tabId of [...missing].sort((a, b) => at(a) - at(b))) addSession(dock, s, tabId, remembered);
  // The session in front of its group before a reload is again (the app's front tab is shown after).
  for (const tabId of fronts) {
    const panel = dock.getPanel(sessionPanelId(tabId));
    if (panel !== undefined && panel.group.activePanel !== panel) panel.group.model.openPanel(panel);
  }
  if (s.tabOrder.length > 0) {
    const holder = dock.getPanel("transcript");
    if (holder !== undefined) dock.removePanel(holder);
  } else if (panels.length === 0) {
    holdPlace(dock, sessionGroup(dock, remembered));
  }
  for (const tabId of s.tabOrder) {
    const panel = dock.getPanel(sessionPanelId(tabId));
    const title = visibleString(sessionTabTitle(s, tabId));
    if (panel !== undefined && panel.title !== title) panel.api.setTitle(title);
  }
}

/** Brings the app's front session to the front of its group (not taking the keyboard from anywhere). */
export function showActiveSession(dock: DockviewApi, s: AppState): void {
  if (s.activeTabId === undefined) return;
  const panel = dock.getPanel(sessionPanelId(s.activeTabId));
  if (panel !== undefined && panel.group.activePanel !== panel) panel.group.model.openPanel(panel);
}

/**
 * Keeps the dock's sessions in step with the app state, and the app's front tab with a session
 * tab the person clicks. Returns a function that stops both.
 */
export function followSessions(dock: DockviewApi, remembered: () => string | undefined): () => void {
  syncSessions(dock, useApp.getState(), remembered());
  showActiveSession(dock, useApp.getState());
  const stopStore = useApp.subscribe((s, prev) => {
    if (s.tabOrder !== prev.tabOrder || s.tabs !== prev.tabs) syncSessions(dock, s, remembered());
    if (s.activeTabId !== prev.activeTabId || s.tabOrder !== prev.tabOrder) showActiveSession(dock, s);
  });
  const fromDock = (panel: IDockviewPanel | undefined): void => {
    const tabId = panel !== undefined ? tabIdOfPanel(panel.id) : undefined;
    if (tabId !== undefined && useApp.getState().tabs[tabId] !== undefined && useApp.getState().activeTabId !== tabId) setActiveTab(tabId);
  };
  const stopActive = dock.onDidActivePanelChange((e) => fromDock(e.panel ?? undefined));
  // A session tab clicked in a group that is not the active one changes that group's front panel only.
  const groupWatch = new Map<string, { dispose(): void }>();
  const watch = (group: DockviewGroupPanel): void => {
    if (groupWatch.has(group.id)) return;
    groupWatch.set(
      group.id,
      group.api.onDidActivePanelChange((e) => {
        if (e.panel !== undefined && e.panel.api.isVisible && e.origin === "user") fromDock(e.panel);
      }),
    );
  };
  dock.groups.forEach(watch);
  const stopAdd = dock.onDidAddGroup(watch);
  const stopRemove = dock.onDidRemoveGroup((g) => {
    groupWatch.get(g.id)?.dispose();
    groupWatch.delete(g.id);
  });
  return () => {
    stopStore();
    stopActive.dispose();
    stopAdd.dispose();
    stopRemove.dispose();
    for (const d of groupWatch.values()) d.dispose();
    groupWatch.clear();
  };
}

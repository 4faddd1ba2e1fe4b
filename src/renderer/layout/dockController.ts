// The dock's life: dockview created on the window's element, the saved layout of this window loaded
// (or the default one, with a Console notice when the saved one cannot be used), the sessions kept
// in step with the server's tabs, the layout saved as it changes, narrow windows, and what
// panels.ts offers the rest of the window (show, maximise, reset).
import { createDockview, type DockviewApi, type IDockviewPanel } from "dockview";
import { addLog, useApp } from "../state/appState.js";
import { BatonDockTheme } from "../theme/dockTheme.js";
import { ReactContentRenderer, ReactTabRenderer } from "./dockBridge.js";
import { ContentComponents, TabComponents } from "./dockPanels.js";
import { setDockPanels, setStrips } from "./dockState.js";
import { addToolPanel, buildDefaultLayout, toolPanel } from "./defaultLayout.js";
import { NarrowDock } from "./narrowDock.js";
import { attachDock, isPanelId, PanelIds, type PanelId } from "./panels.js";
import { actsInPreview, keepTab, previewTabId, usePreview } from "./previewTab.js";
import { readSaved, tabIdOfPanel, toSaved, windowId, writeSaved, type SavedLayout } from "./savedLayout.js";
import { followSessions, forgetPlaces, rememberPlaces, sessionGroup, sessionPanels, setMountedDock } from "./sessionPanels.js";
import { labelSashes } from "./sashKeys.js";
import { TabOverflowActions } from "./TabOverflow.js";
import { tabKeys } from "./tabKeys.js";
import { tabMenuItems } from "./tabMenu.js";

/** Saving waits for a drag or a resize to settle. */
const SaveDelayMs = 250;

function notice(message: string): void {
  addLog({ time: new Date().toISOString(), level: "warning", source: "baton", message });
}

/** Whether the server's tab list has arrived (the store's first tab list replaces the initial one). */
function tabsKnown(): boolean {
  return useApp.getState().tabOrder !== useApp.getInitialState().tabOrder;
}

export interface MountedDock {
  /** A narrow window's strip icon was pressed. */
  readonly toggleIcon: (panel: PanelId) => void;
  readonly stop: () => void;
}

export function createDock(host: HTMLElement): MountedDock {
  const window = windowId(globalThis.location.search);
  const dock: DockviewApi = createDockview(host, {
    theme: BatonDockTheme,
    createComponent: ({ name }) => new ReactContentRenderer(ContentComponents[name as PanelId | "session"] ?? ContentComponents.transcript),
    createTabComponent: ({ name }) => (TabComponents[name] !== undefined ? new ReactTabRenderer(TabComponents[name]) : undefined),
    getTabContextMenuItems: ({ panel, group }) => tabMenuItems(panel, group),
    // Its own list of the tabs that do not fit, which the keyboard reaches (TabOverflow.tsx).
    disableTabsOverflowList: true,
    createRightHeaderActionComponent: () => new TabOverflowActions(),
    // Baton opens no second window: a popout would need a page of its own.
    popoutUrl: undefined,
    // A drop that close to the window's edge docks there; any further in is the group's or the tab's
    // own (10 % of the height covered the top row's tab strips: a session tab dropped on another
    // there made a new row instead of moving before it).
    dndEdges: { size: { value: 20, type: "pixels" }, activationSize: { value: 8, type: "pixels" } },
  });
  let rememberedSessionGroup: string | undefined;
  const lastGroup = new Map<PanelId, string>();

  const narrow = new NarrowDock(dock, () => sessionGroup(dock, rememberedSessionGroup), setStrips);

  const toFront = (id: PanelId): void => {
    const panel = dock.getPanel(id);
    if (panel !== undefined && panel.group.activePanel !== panel) panel.group.model.openPanel(panel);
  };
  const projectToFront = (): void => toFront("project");

  const load = (): void => {
    const { loaded, gridLayoutFound } = readSaved(localStorage, window);
    const sessionOpen = useApp.getState().tabOrder.length > 0;
    if (!loaded.ok) notice(`The saved window layout could not be used (${loaded.reason}): the default layout is shown.`);
    else if (loaded.layout === undefined && gridLayoutFound) notice("The window is now a dock: panels can be dragged, tabbed, floated and closed. The earlier layout was not kept; View › Reset layout brings back this one.");
    if (loaded.ok && loaded.layout !== undefined && apply(loaded.layout)) return;
    rememberedSessionGroup = undefined;
    buildDefaultLayout(dock, sessionOpen);
  };

  const apply = (layout: SavedLayout): boolean => {
    try {
      dock.fromJSON(layout.dock);
    } catch (error) {
      notice(`The saved window layout could not be loaded (${String(error)}): the default layout is shown.`);
      return false;
    }
    rememberedSessionGroup = layout.sessionGroup;
    // Groups that held only sessions come back empty: those sessions fill them again once the
    // server's tabs are known (a reload), and the groups still empty then go (settle).
    rememberPlaces(dock, layout.sessions ?? []);
    const waiting = new Set((layout.sessions ?? []).map((p) => p.group));
    const target = sessionGroup(dock, rememberedSessionGroup);
    for (const group of [...dock.groups]) if (group.panels.length === 0 && group !== target && !waiting.has(group.id)) dock.removeGroup(group);
    if (dock.groups.length === 0) return false;
    return true;
  };

  /** Once the server's first tab list has placed its sessions: the groups kept for sessions no longer open go. */
  const settle = (): void => {
    forgetPlaces(useApp.getState().tabOrder);
    const target = sessionGroup(dock, rememberedSessionGroup);
    for (const group of [...dock.groups]) if (group.panels.length === 0 && group !== target) dock.removeGroup(group);
  };

  const save = (): void => {
    const group = sessionGroup(dock, rememberedSessionGroup);
    writeSaved(localStorage, window, toSaved(dock.toJSON(), group?.id));
  };
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  const scheduleSave = (): void => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(save, SaveDelayMs);
  };
  const flush = (): void => {
    if (saveTimer === undefined) return;
    clearTimeout(saveTimer);
    saveTimer = undefined;
    save();
  };

  /** dockview names each group a region after its front panel; Baton's panels are the regions. */
  const label = (): void => {
    for (const group of dock.groups) {
      if (group.element.getAttribute("role") === "region") group.element.removeAttribute("role");
      const tablist = group.element.querySelector("[role=tablist]");
      const sessions = group.panels.some((p) => tabIdOfPanel(p.id) !== undefined || p.id === "transcript");
      tablist?.setAttribute("aria-label", sessions ? "Sessions" : "Panels");
    }
  };

  const publish = (): void => {
    label();
    labelSashes(host);
    for (const panel of dock.panels) if (isPanelId(panel.id)) lastGroup.set(panel.id, panel.group.id);
    const open = PanelIds.filter((id) => dock.getPanel(id) !== undefined);
    setDockPanels(
      open,
      open.filter((id) => dock.getPanel(id)?.api.isVisible === true),
    );
    narrow.layoutChanged();
  };

  const focusPanel = (panel: IDockviewPanel): void => {
    const part = host.querySelector<HTMLElement>(`[data-panel="${CSS.escape(panel.id)}"]`);
    // Where typing goes first (the composer, a search box), else the first control.
    const target = part?.querySelector<HTMLElement>("textarea, input") ?? part?.querySelector<HTMLElement>("select, button, [tabindex]:not([tabindex='-1'])") ?? part;
    target?.focus({ preventScroll: true });
  };

  const show = (id: PanelId): void => {
    if (id === "transcript") {
      const active = useApp.getState().activeTabId;
      const session = active !== undefined ? dock.getPanel(`session:${active}`) : sessionPanels(dock)[0];
      const panel = session ?? dock.getPanel("transcript");
      if (panel !== undefined) {
        panel.api.setActive();
        focusPanel(panel);
      }
      return;
    }
    let panel = dock.getPanel(id);
    if (panel === undefined) {
      const group = dock.groups.find((g) => g.id === lastGroup.get(id));
      panel =
        group !== undefined
          ? dock.addPanel({ ...toolPanel(id), position: { referenceGroup: group, direction: "within" } })
          : addToolPanel(dock, id, sessionGroup(dock, rememberedSessionGroup)?.activePanel);
    }
    if (!narrow.reveal(id)) panel.api.setActive();
    focusPanel(panel);
  };

  const maximise = (id: PanelId): void => {
    const panel = id === "transcript" ? sessionGroup(dock, rememberedSessionGroup)?.activePanel : dock.getPanel(id);
    if (panel === undefined) {
      show(id);
      const shown = dock.getPanel(id);
      if (shown?.api.location.type === "grid") shown.api.maximize();
      return;
    }
    if (panel.api.isMaximized()) panel.api.exitMaximized();
    else if (panel.api.location.type === "grid") {
      panel.api.setActive();
      panel.api.maximize();
    }
  };

  const reset = (): void => {
    rememberedSessionGroup = undefined;
    buildDefaultLayout(dock, useApp.getState().tabOrder.length > 0);
    stopSessions();
    stopSessions = followSessions(dock, () => rememberedSessionGroup);
    narrow.relayout();
    publish();
    save();
  };

  load();
  setMountedDock(dock);
  let stopSessions = followSessions(dock, () => rememberedSessionGroup);
  if (tabsKnown()) settle();
  if (tabsKnown() && useApp.getState().tabOrder.length === 0) projectToFront();
  publish();

  const stopLayout = dock.onDidLayoutChange(() => {
    publish();
    scheduleSave();
  });
  const stopMaximised = dock.onDidMaximizedGroupChange(() => publish());
  const stopStore = useApp.subscribe((s, prev) => {
    if (s.tabOrder === prev.tabOrder) return;
    // With no session open the Project panel is in front: when the tab list first arrives, and when the last tab closes.
    const firstList = prev.tabOrder === useApp.getInitialState().tabOrder;
    if (firstList) settle();
    if (s.tabOrder.length === 0 && (firstList || prev.tabOrder.length > 0)) projectToFront();
    // A session started here brings its agents (the Hierarchy) forward where the Project panel was in front.
    const started = s.tabOrder.some((id) => prev.tabs[id] === undefined && s.tabs[id]?.info.kind === "live");
    const hierarchy = dock.getPanel("hierarchy");
    if (started && !firstList && hierarchy !== undefined && hierarchy.group.activePanel?.id === "project") toFront("hierarchy");
    const preview = previewTabId();
    if (preview !== undefined && (s.tabs[preview] === undefined || s.tabs[preview]?.info.kind === "live")) usePreview.setState({ tabId: undefined });
  });

  // A person's click or key in the preview session (or a view of it) keeps it.
  const acted = (event: Event): void => {
    const preview = previewTabId();
    if (preview === undefined || !event.isTrusted || !(event.target instanceof Element)) return;
    const part = event.target.closest<HTMLElement>("[data-panel]");
    const panelId = part?.dataset["panel"];
    if (panelId === undefined) return;
    // Typing (a key or an input event) counts where text goes; a click where it does something.
    const key = event instanceof KeyboardEvent ? event.key : event.type === "input" ? "input" : undefined;
    if (actsInPreview(preview, panelId, useApp.getState().activeTabId, event.target, key)) keepTab(preview);
  };
  document.addEventListener("click", acted, true);
  document.addEventListener("keydown", acted, true);
  document.addEventListener("input", acted, true);

  const onTabKey = tabKeys(dock, (id) => {
    const panel = dock.getPanel(id);
    if (panel !== undefined) focusPanel(panel);
  });
  host.addEventListener("keydown", onTabKey);

  const resize = new ResizeObserver(() => narrow.resize(host.clientWidth));
  resize.observe(host);

  globalThis.addEventListener("pagehide", flush);
  const detach = attachDock({ show, maximise, reset });
  const stop = (): void => {
    detach();
    flush();
    globalThis.removeEventListener("pagehide", flush);
    resize.disconnect();
    host.removeEventListener("keydown", onTabKey);
    document.removeEventListener("click", acted, true);
    document.removeEventListener("keydown", acted, true);
    document.removeEventListener("input", acted, true);
    stopStore();
    stopMaximised.dispose();
    stopLayout.dispose();
    stopSessions();
    setMountedDock(undefined);
    dock.dispose();
  };
  return { toggleIcon: (panel) => narrow.toggle(panel), stop };
}

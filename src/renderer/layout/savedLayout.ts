// The dock's layout as kept in localStorage, one per window, and the checks it passes before the
// dock loads it. Sessions are not part of its groups: they are the server's open tabs, so a saved
// layout names the tool panels, which group the sessions go in, and beside that where each open
// session's tab was (used by a reload, when the same tabs come back). Pure functions over
// dockview's JSON (tested in test/unit/rendererSavedLayout.test.ts and rendererReloadMemory.test.ts)
// and two small storage calls.
import type { SerializedDockview } from "dockview";
import { isPanelId, PanelTitles, type PanelId } from "./panels.js";
import { IdPattern } from "../state/storedIds.js";

/** Bumped when a saved layout of the version before would not load as the person left it. */
export const LayoutVersion = 1;

export interface SavedLayout {
  readonly version: typeof LayoutVersion;
  readonly dock: SerializedDockview;
  /** The group the sessions were in (absent while none was open: the "transcript" panel marks it then). */
  readonly sessionGroup?: string;
  /**
   * Where each session's tab was, in the dock's order, for a reload of this window: the server's tab
   * ids outlive a reload, not a restart (then none is open, and the list is only dropped).
   */
  readonly sessions?: readonly SessionPlace[];
}

/** A session's tab in the dock: its group, its place among that group's tabs, and whether it was in front there. */
export interface SessionPlace {
  readonly tabId: string;
  readonly group: string;
  readonly index: number;
  readonly front?: true;
}

export type LoadedLayout = { readonly ok: true; readonly layout: SavedLayout | undefined } | { readonly ok: false; readonly reason: string };

/** Before the dock, the window was a fixed grid saved here. */
const GridLayoutKey = "baton.layout";

const SessionPrefix = "session:";

export function sessionPanelId(tabId: string): string {
  return `${SessionPrefix}${tabId}`;
}

/** The server tab a session panel shows, or undefined for a tool panel. */
export function tabIdOfPanel(panelId: string): string | undefined {
  return panelId.startsWith(SessionPrefix) ? panelId.slice(SessionPrefix.length) : undefined;
}

/**
 * Which window this is. Electron opens one window and web mode's page is that same window, so
 * both are "main"; a window opened with `?window=<id>` keeps a layout of its own.
 */
export function windowId(search: string): string {
  const id = new URLSearchParams(search).get("window");
  return id !== null && /^[A-Za-z0-9_-]{1,32}$/.test(id) ? id : "main";
}

export function layoutKey(window: string): string {
  return `baton.dock.${window}`;
}

/** The smallest sizes a panel may be dragged to (a transcript below 360 px wraps every line). */
export const PanelMinimum: Readonly<Record<PanelId | "session", { readonly width: number; readonly height: number }>> = {
  session: { width: 360, height: 160 },
  transcript: { width: 360, height: 160 },
  hierarchy: { width: 180, height: 80 },
  project: { width: 200, height: 80 },
  inspector: { width: 200, height: 80 },
  rules: { width: 200, height: 80 },
  console: { width: 240, height: 60 },
  graph: { width: 240, height: 120 },
  worktrees: { width: 240, height: 60 },
  changes: { width: 240, height: 80 },
};

type GridNode = SerializedDockview["grid"]["root"];
/** A group's saved state: its panels (views), the one in front, its id. */
type GroupState = Exclude<GridNode["data"], readonly unknown[]>;
type FloatingGroup = NonNullable<SerializedDockview["floatingGroups"]>[number];

function isLeaf(node: GridNode): node is GridNode & { data: GroupState } {
  return node.type === "leaf";
}

/** Every group's state in a grid (depth first), for checks and rewrites. */
function groupsOf(node: GridNode): GroupState[] {
  if (isLeaf(node)) return [node.data];
  return (node.data as GridNode[]).flatMap(groupsOf);
}

function mapGrid(node: GridNode, leaf: (data: GroupState) => GroupState): GridNode {
  // A group hidden for a narrow window is shown again: narrowness is the window's, not the layout's.
  const { visible: _hidden, ...rest } = node;
  if (isLeaf(node)) return { ...rest, data: leaf(node.data) };
  return { ...rest, data: (node.data as GridNode[]).map((c) => mapGrid(c, leaf)) };
}

function withoutSessions(group: GroupState): GroupState {
  const views = group.views.filter((v: string) => tabIdOfPanel(v) === undefined);
  const { activeView, tabGroups: _tabGroups, ...rest } = group;
  return { ...rest, views, ...(activeView !== undefined && views.includes(activeView) ? { activeView } : {}) };
}

/** Where the sessions' tabs are: group by group, each group's in its tab order. */
function sessionPlaces(groups: readonly GroupState[]): SessionPlace[] {
  return groups.flatMap((group) =>
    group.views.flatMap((view: string, index: number): SessionPlace[] => {
      const tabId = tabIdOfPanel(view);
      return tabId === undefined ? [] : [{ tabId, group: group.id, index, ...(group.activeView === view ? { front: true as const } : {}) }];
    }),
  );
}

/**
 * The layout to keep: sessions left out of the groups (the server's tabs fill them again; where each
 * was is kept beside, for a reload), groups a narrow window hid shown, no maximised group (a maximise
 * lasts until it is restored or the window reloads), no popout windows (Baton opens none).
 */
export function toSaved(dock: SerializedDockview, sessionGroup: string | undefined): SavedLayout {
  const panels = Object.fromEntries(Object.entries(dock.panels).filter(([id]) => tabIdOfPanel(id) === undefined));
  const { maximizedNode: _maximized, ...grid } = dock.grid as SerializedDockview["grid"] & { maximizedNode?: unknown };
  const floating = dock.floatingGroups ?? [];
  const sessions = sessionPlaces([...groupsOf(dock.grid.root), ...floating.flatMap((f) => (f.data !== undefined ? [f.data] : f.grid !== undefined ? groupsOf(f.grid.root) : []))]);
  const floatingGroups = floating.flatMap((f): FloatingGroup[] => {
    if (f.data !== undefined) {
      const data = withoutSessions(f.data);
      // A floating window of sessions only is not kept: its sessions come back in the sessions' group.
      return data.views.length > 0 || f.data.id === sessionGroup ? [{ ...f, data }] : [];
    }
    return f.grid !== undefined ? [{ ...f, grid: { ...f.grid, root: mapGrid(f.grid.root, withoutSessions) } }] : [];
  });
  const saved: SerializedDockview = {
    grid: { ...grid, root: mapGrid(dock.grid.root, withoutSessions) },
    panels,
    ...(dock.activeGroup !== undefined ? { activeGroup: dock.activeGroup } : {}),
    ...(floatingGroups.length > 0 ? { floatingGroups } : {}),
  };
  return { version: LayoutVersion, dock: saved, ...(sessionGroup !== undefined ? { sessionGroup } : {}), ...(sessions.length > 0 ? { sessions } : {}) };
}

function fail(reason: string): LoadedLayout {
  return { ok: false, reason };
}

/**
 * Reads a saved layout: undefined when there is none; a reason when it cannot be used (not JSON, an
 * older or newer version, a panel this Baton does not have, a panel in two places). Each panel's
 * title, components and minimum size are taken from this version, not the saved copy.
 */
export function parseSaved(raw: string | null): LoadedLayout {
  if (raw === null) return { ok: true, layout: undefined };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return fail("it is not JSON");
  }
  if (typeof value !== "object" || value === null) return fail("it is not a layout");
  const { version, dock, sessionGroup, sessions } = value as Partial<SavedLayout>;
  if (version !== LayoutVersion) return fail(`it was saved by another version of Baton (layout version ${String(version)}, this one reads ${LayoutVersion})`);
  if (typeof dock !== "object" || dock === null || typeof dock.panels !== "object" || dock.panels === null) return fail("it has no panels");
  const root = dock.grid?.root;
  if (root?.type !== "branch" || !Array.isArray(root.data)) return fail("its grid is not a grid");
  if (sessionGroup !== undefined && typeof sessionGroup !== "string") return fail("its session group is not a name");
  const floating = Array.isArray(dock.floatingGroups) ? dock.floatingGroups : [];
  let groups: GroupState[];
  try {
    groups = [...groupsOf(root), ...floating.flatMap((f) => (f.data !== undefined ? [f.data] : f.grid !== undefined ? groupsOf(f.grid.root) : []))];
  } catch {
    return fail("its grid is damaged");
  }
  const seen = new Set<string>();
  for (const group of groups) {
    if (typeof group?.id !== "string" || !Array.isArray(group.views)) return fail("a group is damaged");
    for (const view of group.views) {
      if (!isPanelId(view)) return fail(`it names a panel this Baton does not have (${JSON.stringify(String(view)).slice(0, 80)})`);
      if (seen.has(view)) return fail(`it has the ${PanelTitles[view]} panel twice`);
      if (dock.panels[view] === undefined) return fail(`the ${PanelTitles[view]} panel has no state`);
      seen.add(view);
    }
  }
  const panels = Object.fromEntries([...seen].map((id) => [id, panelState(id as PanelId)]));
  const { popoutGroups: _popouts, edgeGroups: _edges, ...kept } = dock;
  const places = validPlaces(sessions, new Set(groups.map((g) => g.id)));
  return { ok: true, layout: { version: LayoutVersion, dock: { ...kept, panels }, ...(sessionGroup !== undefined ? { sessionGroup } : {}), ...(places.length > 0 ? { sessions: places } : {}) } };
}

/** The session places that name a group of the layout, each tab once; the rest is left out (they only order tabs). */
function validPlaces(value: unknown, groups: ReadonlySet<string>): SessionPlace[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  return value.flatMap((p: unknown): SessionPlace[] => {
    if (typeof p !== "object" || p === null) return [];
    const { tabId, group, index, front } = p as Record<string, unknown>;
    if (typeof tabId !== "string" || !IdPattern.test(tabId) || seen.has(tabId)) return [];
    if (typeof group !== "string" || !groups.has(group) || typeof index !== "number" || !Number.isInteger(index) || index < 0) return [];
    seen.add(tabId);
    return [{ tabId, group, index, ...(front === true ? { front: true as const } : {}) }];
  });
}

/** A tool panel as this version registers it (the saved copy's components and title are not trusted). */
export function panelState(id: PanelId): SerializedDockview["panels"][string] {
  const min = PanelMinimum[id];
  return { id, contentComponent: id, tabComponent: "panel", title: PanelTitles[id], minimumWidth: min.width, minimumHeight: min.height };
}

/** The saved layout of this window, and whether an older grid layout was found (and forgotten). */
export function readSaved(storage: Storage, window: string): { readonly loaded: LoadedLayout; readonly gridLayoutFound: boolean } {
  try {
    const gridLayoutFound = storage.getItem(GridLayoutKey) !== null;
    if (gridLayoutFound) storage.removeItem(GridLayoutKey);
    return { loaded: parseSaved(storage.getItem(layoutKey(window))), gridLayoutFound };
  } catch {
    return { loaded: { ok: true, layout: undefined }, gridLayoutFound: false };
  }
}

export function writeSaved(storage: Storage, window: string, layout: SavedLayout | undefined): void {
  try {
    if (layout === undefined) storage.removeItem(layoutKey(window));
    else storage.setItem(layoutKey(window), JSON.stringify(layout));
  } catch {
    // Storage full or unavailable: the dock works, the next window starts from the default.
  }
}

// The window as it first opens, after the Unity Editor: Hierarchy and Project on the left, the
// sessions in the centre, Inspector and Rules on the right, Console, Graph, Worktrees and Changes
// below the sessions. Each panel also has a home dock, where it goes back when reopened and its
// own group is gone.
import type { DockviewApi, IDockviewPanel } from "dockview";
import { PanelIds, PanelTitles, type PanelId } from "./panels.js";
import { PanelMinimum } from "./savedLayout.js";

export type Dock = "left" | "centre" | "right" | "bottom";

export const HomeDock: Readonly<Record<PanelId, Dock>> = {
  transcript: "centre",
  hierarchy: "left",
  project: "left",
  inspector: "right",
  rules: "right",
  console: "bottom",
  graph: "bottom",
  worktrees: "bottom",
  changes: "bottom",
};

/** Default sizes of the docks around the sessions, in pixels. */
const DockSize = { left: 260, right: 320, bottom: 200 } as const;

/** How a tool panel is added (position aside). */
export function toolPanel(id: PanelId) {
  const min = PanelMinimum[id];
  return { id, component: id, tabComponent: "panel", title: PanelTitles[id], minimumWidth: min.width, minimumHeight: min.height };
}

/**
 * Adds a tool panel where it belongs: into the group of an open panel of its home dock, else as a
 * new dock beside `centre` (the sessions' group), else wherever dockview puts a panel.
 */
export function addToolPanel(dock: DockviewApi, id: PanelId, centre: IDockviewPanel | undefined, inactive = false): IDockviewPanel {
  const home = HomeDock[id];
  const sibling = PanelIds.filter((p) => p !== id && HomeDock[p] === home && home !== "centre")
    .map((p) => dock.getPanel(p))
    .find((p) => p !== undefined && p.api.location.type === "grid");
  const base = { ...toolPanel(id), inactive };
  if (sibling !== undefined) return dock.addPanel({ ...base, position: { referenceGroup: sibling.group, direction: "within" } });
  if (centre === undefined || home === "centre") return dock.addPanel(base);
  const direction = home === "left" ? "left" : home === "right" ? "right" : "below";
  const size = home === "bottom" ? { initialHeight: DockSize.bottom } : { initialWidth: DockSize[home] };
  return dock.addPanel({ ...base, ...size, position: { referencePanel: centre, direction } });
}

/** Clears the dock and lays out every tool panel; the "transcript" panel marks the sessions' group. */
export function buildDefaultLayout(dock: DockviewApi, sessionOpen: boolean): void {
  dock.clear();
  const centre = dock.addPanel(toolPanel("transcript"));
  // Left and right first, so they run the full height beside the sessions and the bottom dock.
  for (const id of ["hierarchy", "project", "inspector", "rules", "console", "graph", "worktrees", "changes"] as const) addToolPanel(dock, id, centre, true);
  dock.getPanel(sessionOpen ? "hierarchy" : "project")?.api.setActive();
  dock.getPanel("inspector")?.api.setActive();
  dock.getPanel("console")?.api.setActive();
  centre.api.setActive();
}

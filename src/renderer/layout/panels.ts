// The dock's panels by id, and what the rest of the window may ask of the dock: show a panel,
// maximise it, put the default layout back. The dock (DockLayout) attaches itself once dockview is
// mounted; before that, and in tests without a window, the requests do nothing.

export type PanelId = "transcript" | "hierarchy" | "inspector" | "project" | "console" | "graph" | "worktrees" | "rules" | "changes";

/** Every panel, in the order the View menu lists them. */
export const PanelIds: readonly PanelId[] = ["transcript", "hierarchy", "project", "inspector", "rules", "console", "graph", "worktrees", "changes"];

export const PanelTitles: Record<PanelId, string> = {
  transcript: "Transcript",
  hierarchy: "Hierarchy",
  inspector: "Inspector",
  project: "Project",
  console: "Console",
  graph: "Graph",
  worktrees: "Worktrees",
  rules: "Rules",
  changes: "Changes",
};

/**
 * The id of the command (palette/commands.ts) that shows a panel: the View menu shows that
 * command's shortcut beside the panel's name.
 */
export function panelCommandId(id: PanelId): string {
  return `panel.${id}`;
}

export function isPanelId(value: unknown): value is PanelId {
  return typeof value === "string" && (PanelIds as readonly string[]).includes(value);
}

/** What the mounted dock does for the functions below. */
export interface DockController {
  readonly show: (id: PanelId) => void;
  readonly maximise: (id: PanelId) => void;
  readonly reset: () => void;
}

let controller: DockController | undefined;

/** Called by the dock when it is ready; the returned function detaches it again. */
export function attachDock(c: DockController): () => void {
  controller = c;
  return () => {
    if (controller === c) controller = undefined;
  };
}

/** Opens the panel if it was closed, brings it to the front of its group and focuses it. "transcript" is the session in front. */
export function showPanel(id: PanelId): void {
  controller?.show(id);
}

/** Maximises the panel's group, or restores the layout when it is already maximised. */
export function maximisePanel(id: PanelId): void {
  controller?.maximise(id);
}

/** Puts every panel back where the default layout has it. */
export function resetLayout(): void {
  controller?.reset();
}

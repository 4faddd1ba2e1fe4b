// Narrow windows: below NarrowWidth the docks beside the sessions (every group wholly left or right
// of the sessions' group) are hidden and each side shows a strip of its panels' icons instead
// (IconStrip.tsx). Clicking an icon shows that dock again, with the panel in front, until the icon
// is clicked again or another dock is shown; a window made wide again gets its docks back. The
// saved layout never keeps the hiding (savedLayout.ts shows every group).
import type { DockviewApi, DockviewGroupPanel } from "dockview";
import { isPanelId, type PanelId } from "./panels.js";

/** Below this dock width the side docks collapse (a 360 px transcript beside a 260 and a 320 px dock). */
export const NarrowWidth = 960;

/** A dock shown again in a narrow window leaves the sessions at least this wide (when its own minimum allows). */
export const ReadableWidth = 420;

export type Side = "left" | "right";

export interface StripIcon {
  readonly panel: PanelId;
  readonly group: string;
  /** The dock is shown (for now) and this panel is its front one. */
  readonly shown: boolean;
}

export interface Strips {
  readonly left: readonly StripIcon[];
  readonly right: readonly StripIcon[];
}

export const NoStrips: Strips = { left: [], right: [] };

interface Box {
  readonly left: number;
  readonly right: number;
}

/** Which side of the sessions' box a group's box lies wholly on, if either. */
export function sideOf(group: Box, centre: Box): Side | undefined {
  if (group.right <= centre.left + 1) return "left";
  if (group.left >= centre.right - 1) return "right";
  return undefined;
}

export class NarrowDock {
  private readonly collapsed = new Map<string, Side>();
  private shownGroup: string | undefined;
  private narrow = false;

  constructor(
    private readonly dock: DockviewApi,
    private readonly centre: () => DockviewGroupPanel | undefined,
    private readonly onStrips: (strips: Strips) => void,
  ) {}

  get isNarrow(): boolean {
    return this.narrow;
  }

  /** The dock area is this wide now. */
  resize(width: number): void {
    const narrow = width > 0 && width < NarrowWidth;
    if (narrow === this.narrow) return;
    this.narrow = narrow;
    if (narrow) this.collapse();
    else this.expandAll();
  }

  /** Hides the side docks (again), after a reset or a load while narrow. */
  relayout(): void {
    this.collapsed.clear();
    this.shownGroup = undefined;
    if (this.narrow) this.collapse();
    else this.publish();
  }

  /** Shows the hidden dock that holds this panel with it in front; false when it is not hidden. */
  reveal(panelId: PanelId): boolean {
    const panel = this.dock.getPanel(panelId);
    if (panel === undefined || !this.collapsed.has(panel.group.id)) return false;
    this.showGroup(panel.group);
    panel.api.setActive();
    this.publish();
    return true;
  }

  /** An icon was clicked: show its dock with the panel in front, or hide it again. */
  toggle(panelId: PanelId): void {
    const panel = this.dock.getPanel(panelId);
    if (panel === undefined || !this.collapsed.has(panel.group.id)) return;
    if (this.shownGroup === panel.group.id && panel.group.activePanel === panel) {
      panel.group.api.setVisible(false);
      this.shownGroup = undefined;
      this.publish();
      return;
    }
    this.reveal(panelId);
  }

  /** After any change of the layout: forget groups that are gone, redraw the strips. */
  layoutChanged(): void {
    const ids = new Set(this.dock.groups.map((g) => g.id));
    for (const id of [...this.collapsed.keys()]) if (!ids.has(id)) this.collapsed.delete(id);
    if (this.shownGroup !== undefined && !ids.has(this.shownGroup)) this.shownGroup = undefined;
    this.publish();
  }

  private showGroup(group: DockviewGroupPanel): void {
    if (this.shownGroup !== undefined && this.shownGroup !== group.id) this.dock.groups.find((g) => g.id === this.shownGroup)?.api.setVisible(false);
    group.api.setVisible(true);
    this.shownGroup = group.id;
    // It comes back at the width it had in a wider window: narrower, if the sessions would drop below a readable width.
    const centre = this.centre();
    const short = centre === undefined ? 0 : ReadableWidth - centre.api.width;
    if (short > 0) group.api.setSize({ width: Math.max(group.minimumWidth, group.api.width - short) });
  }

  private collapse(): void {
    const centre = this.centre();
    if (centre === undefined || this.dock.hasMaximizedGroup()) {
      this.publish();
      return;
    }
    const box = centre.element.getBoundingClientRect();
    for (const group of this.dock.groups) {
      if (group === centre || group.api.location.type !== "grid" || !group.api.isVisible) continue;
      // Sessions are never hidden: only tool panels have icons.
      if (group.panels.some((p) => !isPanelId(p.id) || p.id === "transcript")) continue;
      const side = sideOf(group.element.getBoundingClientRect(), box);
      if (side === undefined) continue;
      this.collapsed.set(group.id, side);
    }
    for (const group of this.dock.groups) if (this.collapsed.has(group.id)) group.api.setVisible(false);
    this.publish();
  }

  private expandAll(): void {
    for (const group of this.dock.groups) if (this.collapsed.has(group.id)) group.api.setVisible(true);
    this.collapsed.clear();
    this.shownGroup = undefined;
    this.publish();
  }

  private publish(): void {
    const icons = (side: Side): StripIcon[] =>
      this.dock.groups.flatMap((g) =>
        this.collapsed.get(g.id) === side
          ? g.panels.flatMap((p) => (isPanelId(p.id) ? [{ panel: p.id, group: g.id, shown: this.shownGroup === g.id && g.activePanel === p }] : []))
          : [],
      );
    this.onStrips({ left: icons("left"), right: icons("right") });
  }
}

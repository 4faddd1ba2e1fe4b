// What the window outside the dock needs to know of it: which panels are open and which are on
// screen (the View menu, the Worktrees count), and the icon strips of a narrow window.
import { create } from "zustand";
import { NoStrips, type Strips } from "./narrowDock.js";
import type { PanelId } from "./panels.js";

export interface DockState {
  readonly open: readonly PanelId[];
  readonly visible: readonly PanelId[];
  readonly strips: Strips;
}

export const useDockState = create<DockState>(() => ({ open: [], visible: [], strips: NoStrips }));

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function setDockPanels(open: readonly PanelId[], visible: readonly PanelId[]): void {
  const s = useDockState.getState();
  if (same(s.open, open) && same(s.visible, visible)) return;
  useDockState.setState({ open, visible });
}

export function setStrips(strips: Strips): void {
  useDockState.setState({ strips });
}

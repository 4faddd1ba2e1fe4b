// Which of the window's keyboard overlays is open: the command palette or the shortcuts sheet
// (one at a time; opening one closes the other).
import { create } from "zustand";

export type Overlay = "palette" | "shortcuts";

export const useOverlay = create<{ readonly open: Overlay | undefined }>()(() => ({ open: undefined }));

export function openOverlay(overlay: Overlay): void {
  useOverlay.setState({ open: overlay });
}

export function closeOverlay(): void {
  useOverlay.setState({ open: undefined });
}

/** Its shortcut again closes it. */
export function toggleOverlay(overlay: Overlay): void {
  useOverlay.setState((s) => ({ open: s.open === overlay ? undefined : overlay }));
}

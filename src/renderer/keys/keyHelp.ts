// Keys that act in one place only (a tree, a list, the composer), for the shortcuts sheet: the
// window-wide ones are commands (palette/commands.ts). The part that handles the keys registers
// their help beside its handler, so the sheet lists what the code does.
import { useSyncExternalStore } from "react";

export interface KeyHelp {
  /** Each key or chord, as parseChord reads it ("ArrowUp", "Shift+Enter"), or a word for a gesture ("Wheel"). */
  readonly keys: readonly string[];
  readonly does: string;
}

export interface KeyHelpSection {
  /** Where these keys act: "Hierarchy", "Composer". */
  readonly where: string;
  readonly keys: readonly KeyHelp[];
}

const sections = new Map<string, KeyHelpSection>();
const listeners = new Set<() => void>();
let snapshot: readonly KeyHelpSection[] = [];

/** Adds (or replaces) the help of one place; the returned function removes it. */
export function registerKeyHelp(section: KeyHelpSection): () => void {
  sections.set(section.where, section);
  snapshot = [...sections.values()];
  for (const listener of [...listeners]) listener();
  return () => {
    if (sections.get(section.where) !== section) return;
    sections.delete(section.where);
    snapshot = [...sections.values()];
    for (const listener of [...listeners]) listener();
  };
}

export function useKeyHelp(): readonly KeyHelpSection[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => snapshot,
  );
}

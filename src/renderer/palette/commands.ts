// The window's commands: what the command palette lists, what the global shortcuts run and what the
// shortcuts sheet (`?`) shows, from this one registry. A part of the window adds its own with
// registerCommands (at start, or while a component that owns the action is mounted) and removes
// them with the function it returns.
import { useSyncExternalStore } from "react";
import { parseChord, type Chord } from "../keys/chords.js";

/** Groups, in the order the palette and the shortcuts sheet show them. */
export const CommandGroups = ["Panels", "Session", "Window", "Help"] as const;
export type CommandGroup = (typeof CommandGroups)[number];

export interface CommandSpec {
  /** Unique: a later registration of the same id replaces the earlier one until it is removed. */
  readonly id: string;
  /** What the palette lists and the sheet says it does: an imperative ("Show Hierarchy"). */
  readonly title: string;
  readonly group: CommandGroup;
  /** Its shortcut as a chord ("Mod+2", "?", "Escape"): run from anywhere in the window, see keys/shortcuts.ts. */
  readonly keys?: string;
  /** Whether it can run now; the palette leaves out a command that cannot, and its key does nothing. */
  readonly enabled?: () => boolean;
  readonly run: () => void;
}

export interface Command extends CommandSpec {
  /** `keys`, parsed. */
  readonly chord?: Chord;
}

const registered = new Map<string, Command[]>();
const listeners = new Set<() => void>();
let snapshot: readonly Command[] = [];

function changed(): void {
  // The latest registration of each id, in the order ids were first registered.
  snapshot = [...registered.values()].flatMap((list) => (list.length > 0 ? [list[list.length - 1]!] : []));
  for (const listener of [...listeners]) listener();
}

/** Adds commands; the returned function removes exactly these again. */
export function registerCommands(specs: readonly CommandSpec[]): () => void {
  const added = specs.map((spec): Command => (spec.keys !== undefined ? { ...spec, chord: parseChord(spec.keys) } : spec));
  for (const command of added) registered.set(command.id, [...(registered.get(command.id) ?? []), command]);
  changed();
  return () => {
    for (const command of added) {
      const list = (registered.get(command.id) ?? []).filter((c) => c !== command);
      if (list.length > 0) registered.set(command.id, list);
      else registered.delete(command.id);
    }
    changed();
  };
}

export function allCommands(): readonly Command[] {
  return snapshot;
}

export function isEnabled(command: Command): boolean {
  return command.enabled?.() ?? true;
}

/** The registry, re-rendering when it changes. */
export function useCommands(): readonly Command[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    allCommands,
  );
}

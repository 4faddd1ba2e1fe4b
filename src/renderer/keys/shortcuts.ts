// The window's shortcuts: one keydown listener runs the registered command whose chord matches
// (palette/commands.ts). A chord with Ctrl/Cmd or Alt works everywhere, the composer included; a
// plain one ("?", Esc) only outside a text field, where it would otherwise type, and not while a
// modal dialog is open (its Esc closes it, nothing else). A key that a panel, a form or a dialog
// already handled (preventDefault) is left alone.
import { useEffect } from "react";
import { allCommands, isEnabled, type Command } from "../palette/commands.js";
import { chordMatches, onMac, typesText, type KeyLike } from "./chords.js";

export function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

/**
 * The command a key runs: the first registered whose chord matches and that can run now.
 * `typing`: the key goes to a text field or an open dialog, where a plain chord does not act.
 */
export function commandForKey(e: KeyLike, commands: readonly Command[], mac: boolean, typing: boolean): Command | undefined {
  return commands.find((c) => c.chord !== undefined && !(typing && typesText(c.chord)) && chordMatches(c.chord, e, mac) && isEnabled(c));
}

/** Listens for the registry's shortcuts while mounted (App). */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    const mac = onMac();
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || e.isComposing) return;
      const typing = isTyping(e.target) || document.querySelector("dialog[open]:modal") !== null;
      const command = commandForKey(e, allCommands(), mac, typing);
      if (command === undefined) return;
      e.preventDefault();
      command.run();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

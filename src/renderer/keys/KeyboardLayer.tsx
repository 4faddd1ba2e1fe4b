// The window's keyboard layer, mounted once by App: the built-in commands, the global shortcuts
// that run them, and whichever overlay (command palette, shortcuts sheet) is open.
import { useEffect } from "react";
import { registerBuiltinCommands } from "../palette/builtinCommands.js";
import { CommandPalette } from "../palette/CommandPalette.js";
import { useOverlay } from "../palette/overlay.js";
import { ShortcutsSheet } from "./ShortcutsSheet.js";
import { ComposerKeys } from "./composerKeys.js";
import { registerKeyHelp } from "./keyHelp.js";
import { useGlobalShortcuts } from "./shortcuts.js";

export function KeyboardLayer() {
  useEffect(() => registerBuiltinCommands(), []);
  useEffect(() => registerKeyHelp(ComposerKeys), []);
  useGlobalShortcuts();
  const open = useOverlay((s) => s.open);
  if (open === "palette") return <CommandPalette />;
  if (open === "shortcuts") return <ShortcutsSheet />;
  return null;
}

// The commands the window has from the start: a shortcut for every panel (Ctrl/Cmd+1…9, as Unity
// numbers its windows; the browser's own Ctrl+1…9 are not reserved, so the page may take them),
// the palette and the shortcuts sheet, interrupting the session (Esc), the layout and the theme.
// Commands a component owns (a dialog's "New session…") are registered by that component.
import { interruptActive } from "../actions.js";
import { maximisePanel, panelCommandId, PanelIds, PanelTitles, resetLayout, showPanel } from "../layout/panels.js";
import { useApp } from "../state/appState.js";
import { setThemeChoice, ThemeChoices, type ThemeChoice } from "../theme/theme.js";
import { registerCommands, type CommandSpec } from "./commands.js";
import { toggleOverlay } from "./overlay.js";

function panelCommands(): CommandSpec[] {
  return PanelIds.map((id, i) => ({
    id: panelCommandId(id),
    title: id === "transcript" ? "Show the session in front" : `Show ${PanelTitles[id]}`,
    group: "Panels",
    ...(i < 9 ? { keys: `Mod+${i + 1}` } : {}),
    run: () => showPanel(id),
  }));
}

const ThemeTitles: Readonly<Record<ThemeChoice, string>> = { system: "Follow the system's theme", light: "Use the light theme", dark: "Use the dark theme" };

/** As the toolbar's Interrupt button: while the session in front runs and no interrupt is on its way. */
function canInterrupt(): boolean {
  const s = useApp.getState();
  const tabId = s.activeTabId;
  return tabId !== undefined && s.tabs[tabId]?.transcript.meta?.status === "running" && s.interrupting[tabId] !== true;
}

/** Registers them; the returned function removes them again. */
export function registerBuiltinCommands(): () => void {
  return registerCommands([
    { id: "palette.open", title: "Command palette", group: "Help", keys: "Mod+K", run: () => toggleOverlay("palette") },
    { id: "shortcuts.show", title: "Keyboard shortcuts", group: "Help", keys: "?", run: () => toggleOverlay("shortcuts") },
    ...panelCommands(),
    {
      id: "session.interrupt",
      title: "Interrupt the session",
      group: "Session",
      keys: "Escape",
      enabled: canInterrupt,
      run: interruptActive,
    },
    { id: "layout.reset", title: "Reset layout", group: "Window", run: resetLayout },
    { id: "graph.maximise", title: "Maximise or restore the graph", group: "Window", run: () => maximisePanel("graph") },
    ...ThemeChoices.map((choice): CommandSpec => ({ id: `theme.${choice}`, title: ThemeTitles[choice], group: "Window", run: () => setThemeChoice(choice) })),
  ]);
}

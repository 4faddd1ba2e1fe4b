// The keyboard on a dock's tab strip (WAI-ARIA tabs): Left and Right (Home, End) bring the
// neighbouring tab forward and move the focus to it, Enter or Space puts the focus into its panel.
// dockview's free build leaves its tabs to the pointer.
import type { DockviewApi } from "dockview";

export function tabKeys(dock: DockviewApi, focusPanel: (panelId: string) => void): (event: KeyboardEvent) => void {
  return (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !(event.target instanceof HTMLElement)) return;
    const tab = event.target.closest<HTMLElement>(".dv-tab[data-tab-panel-id]");
    const list = tab?.parentElement;
    if (tab === null || tab === undefined || list === null || list === undefined || event.target !== tab) return;
    const id = tab.dataset["tabPanelId"]!;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      focusPanel(id);
      return;
    }
    const tabs = [...list.querySelectorAll<HTMLElement>(":scope > .dv-tab[data-tab-panel-id]")];
    const i = tabs.indexOf(tab);
    const to = event.key === "ArrowRight" ? i + 1 : event.key === "ArrowLeft" ? i - 1 : event.key === "Home" ? 0 : event.key === "End" ? tabs.length - 1 : undefined;
    if (to === undefined || tabs.length === 0) return;
    event.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length]!;
    dock.getPanel(next.dataset["tabPanelId"]!)?.api.setActive();
    next.focus();
  };
}

// A tab's context menu. A session's tab closes through the server (its tab is the server's): Close,
// Close others and Close to the right act on the sessions of that tab's group; a preview tab can
// be kept. Every tab can be maximised (or restored) and floated; a tool panel can be closed.
import type { ContextMenuItem, DockviewGroupPanel, IDockviewPanel } from "dockview";
import { closeSessionTabs } from "./PanelTabs.js";
import { keepTab, previewTabId } from "./previewTab.js";
import { tabIdOfPanel } from "./savedLayout.js";
import { copyContinueCommand } from "../session/ContinueInTerminal.js";
import { useApp } from "../state/appState.js";

/** The server tabs of the sessions in a group, in tab order. */
function sessionTabs(group: DockviewGroupPanel): string[] {
  return group.panels.flatMap((p) => {
    const tabId = tabIdOfPanel(p.id);
    return tabId !== undefined ? [tabId] : [];
  });
}

/** The tabs "Close others" and "Close to the right" close, for a session tab in its group. */
export function othersOf(tabs: readonly string[], tabId: string): { readonly others: string[]; readonly right: string[] } {
  const index = tabs.indexOf(tabId);
  return { others: tabs.filter((t) => t !== tabId), right: index < 0 ? [] : tabs.slice(index + 1) };
}

export function tabMenuItems(panel: IDockviewPanel, group: DockviewGroupPanel): ContextMenuItem[] {
  const tabId = tabIdOfPanel(panel.id);
  const layout: ContextMenuItem[] = ["separator", "maximize", "float"];
  if (tabId === undefined) return panel.id === "transcript" ? layout.slice(1) : ["close", ...layout];
  const { others, right } = othersOf(sessionTabs(group), tabId);
  const items: ContextMenuItem[] = [
    { label: "Close", action: () => closeSessionTabs([tabId]) },
    { label: "Close others", action: () => closeSessionTabs(others), disabled: others.length === 0 },
    { label: "Close to the right", action: () => closeSessionTabs(right), disabled: right.length === 0 },
  ];
  if (previewTabId() === tabId) items.push({ label: "Keep open", action: () => keepTab(tabId) });
  const info = useApp.getState().tabs[tabId]?.info;
  const sessionId = info?.sessionId;
  // A session not started yet has no id to resume.
  items.push({ label: "Continue in terminal", action: () => sessionId !== undefined && void copyContinueCommand(sessionId, info?.cwd), disabled: sessionId === undefined });
  return [...items, ...layout];
}

// What the command palette offers: the registry's commands that can run now, the open tabs, and
// past sessions not open in one (the Project panel's list, newest first), each as one line with
// what running it does.
import type { SessionSummary } from "../../shared/api.js";
import { openFromHistory } from "../actions.js";
import { chordLabel } from "../keys/chords.js";
import { showPanel } from "../layout/panels.js";
import { setActiveTab, type AppState } from "../state/appState.js";
import { isEnabled, type Command } from "./commands.js";

export interface PaletteItem {
  /** Unique among the items: the option's DOM id is made from it. */
  readonly key: string;
  /** What kind of thing it is, shown before it: a command's group, "Tab" or "Session". */
  readonly kind: string;
  readonly title: string;
  /** A second, dimmer part: a session's project and date. */
  readonly detail?: string;
  /** Its shortcut, written for this platform. */
  readonly keys?: string;
  readonly run: () => void;
}

/** The text the filter matches: what the line shows. */
export function itemText(item: PaletteItem): string {
  return item.detail !== undefined ? `${item.title} ${item.detail}` : item.title;
}

function sessionDetail(s: SessionSummary): string {
  const when = s.lastTimestamp ?? s.firstTimestamp;
  return [s.cwd ?? s.projectDir, when !== undefined ? when.slice(0, 10) : ""].filter((p) => p !== "").join(" · ");
}

function bringTab(tabId: string): void {
  setActiveTab(tabId);
  showPanel("transcript");
}

export function paletteItems(commands: readonly Command[], state: Pick<AppState, "tabOrder" | "tabs" | "sessions">, mac: boolean): PaletteItem[] {
  const items: PaletteItem[] = [];
  for (const command of commands) {
    if (!isEnabled(command)) continue;
    items.push({ key: `command:${command.id}`, kind: command.group, title: command.title, ...(command.chord !== undefined ? { keys: chordLabel(command.chord, mac) } : {}), run: command.run });
  }
  const open = new Set<string>();
  for (const tabId of state.tabOrder) {
    const tab = state.tabs[tabId];
    if (tab === undefined) continue;
    if (tab.info.sessionId !== undefined) open.add(tab.info.sessionId);
    // Titles as the main side picked them (shared/sessionTitle.ts), as the tab and the list show them.
    items.push({ key: `tab:${tabId}`, kind: "Tab", title: tab.info.title, run: () => bringTab(tabId) });
  }
  for (const s of state.sessions) {
    if (open.has(s.sessionId)) continue;
    items.push({
      key: `session:${s.projectDir}/${s.sessionId}`,
      kind: "Session",
      title: s.title,
      detail: sessionDetail(s),
      // As the Project panel opens it.
      run: () => void openFromHistory(s.sessionId, s.projectDir).then((tabId) => tabId !== undefined && showPanel("transcript")),
    });
  }
  return items;
}

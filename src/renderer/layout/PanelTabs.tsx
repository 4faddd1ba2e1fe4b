// The dock's tabs: a tool panel's (its title, the Worktrees count, ×) and a session's (status dot,
// title, "(history)" or a terminal session's badge with its state, ×; italic while it is the preview tab). Double-clicking a tab maximises its
// group, again restores it; a preview tab's double-click keeps it instead.
import { useEffect, useRef } from "react";
import type { DockviewPanelApi } from "dockview";
import type { TerminalState } from "../../shared/api.js";
import { api, report } from "../apiClient.js";
import { useApp, type AppState } from "../state/appState.js";
import { statusText } from "../panels/Toolbar.js";
import { VisibleText, visibleString } from "../util/VisibleText.js";
import type { DockTabProps } from "./dockBridge.js";
import { isPanelId, PanelTitles } from "./panels.js";
import { keepTab, usePreview } from "./previewTab.js";
import "./tabBadges.css";
import { WorktreeBadge } from "./WorktreeBadge.js";

/** What a terminal session's badge says of its state. */
const TerminalStateText: Readonly<Record<TerminalState, string>> = { waiting: "waiting for you", working: "working", idle: "idle" };

/** A session's title on its tab and in the dock's lists. */
export function sessionTabTitle(s: AppState, tabId: string): string {
  return s.tabs[tabId]?.info.title ?? "Session";
}

export function toggleMaximised(panel: DockviewPanelApi): void {
  if (panel.isMaximized()) panel.exitMaximized();
  else if (panel.location.type === "grid") panel.maximize();
}

/** The × of a tab: pressing it must not start a drag or bring the tab forward first. */
function CloseButton({ label, onClose }: { readonly label: string; readonly onClose: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const button = ref.current;
    if (button === null) return;
    // dockview listens on the tab element itself, before React sees the event at the root.
    const stop = (e: Event): void => e.preventDefault();
    button.addEventListener("pointerdown", stop);
    return () => button.removeEventListener("pointerdown", stop);
  }, []);
  return (
    <button ref={ref} className="dock-tab-close" aria-label={label} title={label} onClick={onClose} draggable={false}>
      ×
    </button>
  );
}

export function ToolTab({ api: panel }: DockTabProps) {
  const id = panel.id;
  const title = isPanelId(id) ? PanelTitles[id] : (panel.title ?? id);
  const orphaned = useApp((s) => (id === "worktrees" && s.activeTabId !== undefined ? (s.orphanedWorktrees[s.activeTabId] ?? 0) : 0));
  return (
    <div className="dock-tab" onDoubleClick={() => toggleMaximised(panel)}>
      <span className="dock-tab-title">{title}</span>
      {orphaned > 0 ? (
        <span className="tab-count" title={`${orphaned} orphaned worktree(s)`}>
          {orphaned}
        </span>
      ) : null}
      {/* The sessions' place holder cannot be closed: the sessions would have nowhere to go. */}
      {id === "transcript" ? null : <CloseButton label={`Close ${title}`} onClose={() => panel.close()} />}
    </div>
  );
}

export function closeSessionTabs(tabIds: readonly string[]): void {
  for (const tabId of tabIds) void api().closeTab(tabId).then((r) => report("Close tab", r));
}

export function SessionTab({ api: panel, params }: DockTabProps) {
  const tabId = String(params["tabId"]);
  const title = useApp((s) => sessionTabTitle(s, tabId));
  const status = useApp((s) => s.tabs[tabId]?.transcript.meta?.status ?? "idle");
  const restored = useApp((s) => s.restored[tabId] === true && s.tabs[tabId]?.info.live !== true);
  const waiting = useApp((s) => (s.tabs[tabId]?.transcript.pending.length ?? 0) > 0);
  const background = useApp((s) => s.tabs[tabId]?.transcript.meta?.backgroundAgents ?? 0);
  const terminal = useApp((s) => s.tabs[tabId]?.info.terminal);
  const worktree = useApp((s) => s.tabs[tabId]?.info.worktree);
  const preview = usePreview((s) => s.tabId === tabId);
  // A terminal session's file says little of its state while it runs: its hooks say it.
  const shown = waiting || terminal === "waiting" ? "waiting" : terminal === "working" ? "running" : terminal === "idle" ? "idle" : status;
  const said = shown === "waiting" ? "waiting for you" : statusText(shown, background);
  return (
    <div
      className={`dock-tab session-tab ${preview ? "preview" : ""}`}
      data-preview={preview ? "true" : undefined}
      title={preview ? `${visibleString(title)} (preview: the next past session you open takes this tab; double-click to keep it)` : visibleString(title)}
      // A preview tab's double-click keeps it (VS Code's rule); a kept tab's maximises its group.
      onDoubleClick={() => (preview ? keepTab(tabId) : toggleMaximised(panel))}
    >
      <span className={`dot ${shown}`} role="img" aria-label={said} title={said} data-status={shown} />
      <span className="dock-tab-title">
        <VisibleText text={title} />
        {worktree !== undefined ? <WorktreeBadge path={worktree.path} branch={worktree.branch} /> : null}
        {terminal !== undefined ? (
          <span className="tab-badge terminal-badge" data-state={terminal} title={`Running in a terminal (baton claude): ${TerminalStateText[terminal]}`}>
            terminal · {TerminalStateText[terminal]}
          </span>
        ) : restored ? (
          <span className="dim"> (history)</span>
        ) : null}
      </span>
      <CloseButton label={`Close ${visibleString(title)}`} onClose={() => closeSessionTabs([tabId])} />
    </div>
  );
}

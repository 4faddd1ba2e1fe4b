// What each dock panel draws. Every panel keeps the region (section and its label) the window had
// before the dock, so a screen reader and the tests find it by name. A panel stays mounted while
// its tab is hidden, keeping what was typed in it (the Project search, the Console filter); the
// Graph, Worktrees and the sessions mount their content only while shown (usePanelVisible).
import { useEffect, useState, type ReactNode } from "react";
import type { DockviewPanelApi } from "dockview";
import { ChangesPanel } from "../changes/ChangesPanel.js";
import { SessionGraphPanel } from "../graph/SessionGraphPanel.js";
import { ConsolePanel } from "../panels/ConsolePanel.js";
import { Hierarchy } from "../panels/Hierarchy.js";
import { Inspector } from "../panels/Inspector.js";
import { ProjectPanel } from "../panels/ProjectPanel.js";
import { RulesView } from "../panels/RulesView.js";
import { NoSessionPanel, TranscriptPanel } from "../transcript/TranscriptPanel.js";
import { WorktreesView } from "../worktrees/WorktreesView.js";
import type { ContentComponent, DockPartProps, TabComponent } from "./dockBridge.js";
import type { PanelId } from "./panels.js";
import { SessionTab, ToolTab } from "./PanelTabs.js";

/** Whether the panel is on screen (the front tab of a shown group). */
export function usePanelVisible(panel: DockviewPanelApi): boolean {
  const [visible, setVisible] = useState(panel.isVisible);
  useEffect(() => {
    setVisible(panel.isVisible);
    const d = panel.onDidVisibilityChange((e) => setVisible(e.isVisible));
    return () => d.dispose();
  }, [panel]);
  return visible;
}

function region(label: string, body: ReactNode, className = "panel"): ReactNode {
  return (
    <section className={className} aria-label={label}>
      {body}
    </section>
  );
}

function GraphContent({ api: panel }: DockPartProps) {
  // Mounted only while shown: a hidden graph would lay out for nobody.
  const visible = usePanelVisible(panel);
  return region("Session graph", visible ? <SessionGraphPanel /> : null, "panel graph-panel");
}

function WorktreesContent({ api: panel }: DockPartProps) {
  // Mounted only while shown: each showing reads the worktrees afresh.
  const visible = usePanelVisible(panel);
  return region("Worktrees", visible ? <WorktreesView /> : null);
}

function SessionContent({ api: panel, params }: DockPartProps) {
  const visible = usePanelVisible(panel);
  // A hidden session mounts nothing: it would lay out and measure its rows for nobody.
  return visible ? <TranscriptPanel tabId={String(params["tabId"])} /> : null;
}

export const ContentComponents: Readonly<Record<PanelId | "session", ContentComponent>> = {
  transcript: () => <NoSessionPanel />,
  session: SessionContent,
  hierarchy: () => region("Hierarchy", <Hierarchy />),
  project: () => region("Project", <ProjectPanel />),
  inspector: () => region("Inspector", <Inspector />),
  rules: () => region("Rules", <RulesView />),
  console: () => region("Console", <ConsolePanel />),
  graph: GraphContent,
  worktrees: WorktreesContent,
  // The Changes view is its own region.
  changes: () => (
    <div className="panel">
      <ChangesPanel />
    </div>
  ),
};

export const TabComponents: Readonly<Record<string, TabComponent>> = {
  panel: ToolTab,
  session: SessionTab,
};

// The Unity-style window: toolbar on top, Hierarchy/Project tabs left, Transcript in the centre,
// Inspector and Rules tabs right, Console, Graph and Worktrees tabs at the bottom. Sizes and the chosen tabs
// are remembered.
import { useEffect, useState } from "react";
import { SessionGraphPanel } from "../graph/SessionGraphPanel.js";
import { ConsolePanel } from "../panels/ConsolePanel.js";
import { Hierarchy } from "../panels/Hierarchy.js";
import { Inspector } from "../panels/Inspector.js";
import { ProjectPanel } from "../panels/ProjectPanel.js";
import { RulesView } from "../panels/RulesView.js";
import { Toolbar } from "../panels/Toolbar.js";
import { useApp } from "../state/appState.js";
import { loadLayout, saveLayout, type Layout } from "../state/persist.js";
import { TranscriptPanel } from "../transcript/TranscriptPanel.js";
import { useOrphanedWorktrees } from "../worktrees/orphanedWorktrees.js";
import { WorktreesView } from "../worktrees/WorktreesView.js";
import { Splitter } from "./Splitter.js";

const LeftTabs = ["Hierarchy", "Project"] as const;
const RightTabs = ["Inspector", "Rules"] as const;
const BottomTabs = ["Console", "Graph", "Worktrees"] as const;

export function DockLayout() {
  const [layout, setLayout] = useState<Layout>(loadLayout);
  useEffect(() => saveLayout(layout), [layout]);
  const update = (patch: Partial<Layout>): void => setLayout((l) => ({ ...l, ...patch }));
  const orphaned = useOrphanedWorktrees(layout.bottomTab === "Worktrees");
  // An agent card's worktree badge brings the Worktrees tab forward.
  const worktreeSeq = useApp((s) => s.worktreeRequest?.seq);
  useEffect(() => {
    if (worktreeSeq !== undefined) setLayout((l) => ({ ...l, bottomTab: "Worktrees" }));
  }, [worktreeSeq]);
  return (
    <div className="dock" style={{ gridTemplateColumns: `${layout.left}px 4px 1fr 4px ${layout.right}px`, gridTemplateRows: `auto 1fr 4px ${layout.bottom}px` }}>
      <Toolbar />
      <div className="dock-left">
        <div className="panel-tabs" role="tablist" aria-label="Left panels">
          {LeftTabs.map((t) => (
            <button key={t} role="tab" aria-selected={layout.leftTab === t} onClick={() => update({ leftTab: t })}>
              {t}
            </button>
          ))}
        </div>
        <section className="panel" aria-label="Hierarchy" hidden={layout.leftTab !== "Hierarchy"}>
          <Hierarchy />
        </section>
        <section className="panel" aria-label="Project" hidden={layout.leftTab !== "Project"}>
          <ProjectPanel />
        </section>
      </div>
      <Splitter label="Resize left panels" orientation="vertical" value={layout.left} sign={1} min={160} max={600} onChange={(left) => update({ left })} />
      <TranscriptPanel />
      <Splitter label="Resize Inspector" orientation="vertical" value={layout.right} sign={-1} min={200} max={700} onChange={(right) => update({ right })} />
      <div className="dock-right">
        <div className="panel-tabs" role="tablist" aria-label="Right panels">
          {RightTabs.map((t) => (
            <button key={t} role="tab" aria-selected={layout.rightTab === t} onClick={() => update({ rightTab: t })}>
              {t}
            </button>
          ))}
        </div>
        <section className="panel" aria-label="Inspector" hidden={layout.rightTab !== "Inspector"}>
          <Inspector />
        </section>
        <section className="panel" aria-label="Rules" hidden={layout.rightTab !== "Rules"}>
          <RulesView />
        </section>
      </div>
      <Splitter label="Resize Console" orientation="horizontal" value={layout.bottom} sign={-1} min={60} max={600} onChange={(bottom) => update({ bottom })} />
      <div className="dock-bottom">
        <div className="panel-tabs" role="tablist" aria-label="Bottom panels">
          {BottomTabs.map((t) => (
            <button key={t} role="tab" aria-selected={layout.bottomTab === t} onClick={() => update({ bottomTab: t })}>
              {t}
              {t === "Worktrees" && orphaned > 0 ? (
                <span className="tab-count" title={`${orphaned} orphaned worktree(s)`}>
                  {orphaned}
                </span>
              ) : null}
            </button>
          ))}
        </div>
        <section className="panel" aria-label="Console" hidden={layout.bottomTab !== "Console"}>
          <ConsolePanel />
        </section>
        <section className="panel graph-panel" aria-label="Session graph" hidden={layout.bottomTab !== "Graph"}>
          {/* Mounted only while shown: a hidden graph would lay out for nobody. */}
          {layout.bottomTab === "Graph" ? <SessionGraphPanel /> : null}
        </section>
        <section className="panel" aria-label="Worktrees" hidden={layout.bottomTab !== "Worktrees"}>
          {/* Mounted only while shown: each showing reads the worktrees afresh. */}
          {layout.bottomTab === "Worktrees" ? <WorktreesView /> : null}
        </section>
      </div>
    </div>
  );
}

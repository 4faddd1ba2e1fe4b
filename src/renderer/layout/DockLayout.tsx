// The Unity-style window: the toolbar on top, below it the dock (dockview), where the sessions and
// the tool panels can be dragged to another dock, tabbed, split, floated, maximised and closed
// (dockController.ts), with a strip of icons on each side where a narrow window hid docks.
import { useEffect, useRef, useState } from "react";
import "dockview/dist/styles/dockview.css";
import { Toolbar } from "../panels/Toolbar.js";
import { ClaudeMissingBanner } from "../session/ClaudeMissingBanner.js";
import { useApp } from "../state/appState.js";
import { useOrphanedWorktrees } from "../worktrees/orphanedWorktrees.js";
import { DockPortals } from "./dockBridge.js";
import { createDock, type MountedDock } from "./dockController.js";
import { useDockState } from "./dockState.js";
import { IconStrip } from "./IconStrip.js";
import { showPanel } from "./panels.js";
import "./dock.css";

/** Lists the active tab's worktrees once for the Worktrees tab's count, unless the view (which lists them) is shown. */
function WorktreeCount() {
  const shown = useDockState((s) => s.visible.includes("worktrees"));
  useOrphanedWorktrees(shown);
  return null;
}

export function DockLayout() {
  const host = useRef<HTMLDivElement>(null);
  const [dock, setDock] = useState<MountedDock>();
  const strips = useDockState((s) => s.strips);
  useEffect(() => {
    if (host.current === null) return;
    const mounted = createDock(host.current);
    setDock(mounted);
    return () => {
      mounted.stop();
      setDock(undefined);
    };
  }, []);
  // An agent card's worktree badge brings the Worktrees panel forward.
  const worktreeSeq = useApp((s) => s.worktreeRequest?.seq);
  useEffect(() => {
    if (worktreeSeq !== undefined) showPanel("worktrees");
  }, [worktreeSeq]);
  const toggle = (panel: Parameters<MountedDock["toggleIcon"]>[0]): void => dock?.toggleIcon(panel);
  return (
    <div className="window">
      <Toolbar />
      <ClaudeMissingBanner />
      <div className="dock-area">
        <IconStrip side="left" icons={strips.left} onToggle={toggle} />
        <div className="dock-host" ref={host} />
        <IconStrip side="right" icons={strips.right} onToggle={toggle} />
      </div>
      <DockPortals />
      <WorktreeCount />
    </div>
  );
}

// A narrow window's strip of icons for the docks hidden on one side (narrowDock.ts): one button per
// panel; pressing it shows that dock with the panel in front, pressing it again hides the dock.
import type { StripIcon } from "./narrowDock.js";
import { PanelTitles, type PanelId } from "./panels.js";

/** Each panel's icon: a few strokes on a 16 px grid, in the text colour (no icon font to go missing). */
const IconPaths: Readonly<Record<PanelId, string>> = {
  transcript: "M2 3h12v8H7l-3 3v-3H2z",
  hierarchy: "M3 3h4M5 3v10M5 8h4M5 13h4M11 8h2M11 13h2",
  project: "M2 4h4l1.5 1.5H14V13H2z",
  inspector: "M8 2a6 6 0 1 0 0 12A6 6 0 1 0 8 2zM8 7v4M8 5v.5",
  rules: "M8 2l5 2v4c0 3-2.5 5-5 6-2.5-1-5-3-5-6V4z",
  console: "M2 3h12v10H2zM4.5 6.5l2 1.5-2 1.5M8 10h3",
  graph: "M8 2.5v3M8 5.5L4 10M8 5.5l4 4.5M8 2a1 1 0 1 0 .01 0M4 11a1 1 0 1 0 .01 0M12 11a1 1 0 1 0 .01 0",
  worktrees: "M5 2v12M5 9c0-3 6-2 6-5M11 2.5v1.5",
  changes: "M8 2.5v5M5.5 5h5M5.5 12h5",
};

function PanelIcon({ panel }: { readonly panel: PanelId }) {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={IconPaths[panel]} />
    </svg>
  );
}

export function IconStrip({ side, icons, onToggle }: { readonly side: "left" | "right"; readonly icons: readonly StripIcon[]; readonly onToggle: (panel: PanelId) => void }) {
  if (icons.length === 0) return null;
  return (
    <nav className={`dock-strip dock-strip-${side}`} aria-label={side === "left" ? "Left docks" : "Right docks"}>
      {icons.map((icon, i) => (
        <button
          key={icon.panel}
          className={`dock-strip-icon ${i > 0 && icons[i - 1]!.group !== icon.group ? "new-group" : ""}`}
          aria-label={PanelTitles[icon.panel]}
          title={PanelTitles[icon.panel]}
          aria-pressed={icon.shown}
          onClick={() => onToggle(icon.panel)}
        >
          <PanelIcon panel={icon.panel} />
        </button>
      ))}
    </nav>
  );
}

// The toolbar's View menu: every panel (open ones marked, each with its shortcut when it has one),
// choosing one shows it (reopening it if it was closed), and "Reset layout".
import { chordLabel, onMac } from "../keys/chords.js";
import { useCommands } from "../palette/commands.js";
import { useDockState } from "./dockState.js";
import { panelCommandId, PanelIds, PanelTitles, resetLayout, showPanel } from "./panels.js";
import { Popover } from "./Popover.js";

export function ViewMenu() {
  const open = useDockState((s) => s.open);
  const commands = useCommands();
  const mac = onMac();
  return (
    <Popover label="View" buttonText="View" kind="menu" className="view-menu-button" title="Panels and layout">
      {(close) => (
        <>
          {PanelIds.map((id) => {
            const chord = commands.find((c) => c.id === panelCommandId(id))?.chord;
            const isOpen = open.includes(id);
            return (
              <button
                key={id}
                role="menuitem"
                tabIndex={-1}
                className="menu-item"
                onClick={() => {
                  close();
                  showPanel(id);
                }}
              >
                <span className="menu-check" aria-hidden="true">
                  {isOpen ? "●" : ""}
                </span>
                <span className="menu-label">{PanelTitles[id]}</span>
                {isOpen ? null : <span className="visually-hidden"> (closed)</span>}
                {chord !== undefined ? <kbd className="menu-keys">{chordLabel(chord, mac)}</kbd> : null}
              </button>
            );
          })}
          <div role="separator" className="menu-separator" />
          <button
            role="menuitem"
            tabIndex={-1}
            className="menu-item"
            onClick={() => {
              close();
              resetLayout();
            }}
          >
            <span className="menu-check" aria-hidden="true" />
            <span className="menu-label">Reset layout</span>
          </button>
        </>
      )}
    </Popover>
  );
}

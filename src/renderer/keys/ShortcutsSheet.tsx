// The shortcuts sheet (`?`): every window-wide shortcut from the command registry, by group, and
// the keys each place handles itself (keyHelp.ts), written for this platform. Esc closes it.
import { Fragment } from "react";
import { CommandGroups, useCommands } from "../palette/commands.js";
import { closeOverlay } from "../palette/overlay.js";
import { OverlayDialog } from "../palette/OverlayDialog.js";
import { chordLabel, onMac, parseChord } from "./chords.js";
import { useKeyHelp, type KeyHelp } from "./keyHelp.js";
import "../palette/palette.css";

interface Row {
  readonly keys: readonly string[];
  readonly does: string;
}

/** A key as written for people: a chord the registry could parse, else the word as it is ("Wheel"). */
function keyLabel(key: string, mac: boolean): string {
  try {
    return chordLabel(parseChord(key), mac);
  } catch {
    return key;
  }
}

export function ShortcutsSheet() {
  const commands = useCommands();
  const help = useKeyHelp();
  const mac = onMac();
  const sections: { where: string; rows: readonly Row[] }[] = [
    ...CommandGroups.map((group) => ({
      where: group,
      rows: commands.filter((c) => c.group === group && c.chord !== undefined).map((c): Row => ({ keys: [chordLabel(c.chord!, mac)], does: c.title })),
    })),
    ...help.map((section) => ({ where: section.where, rows: section.keys.map((k: KeyHelp): Row => ({ keys: k.keys.map((key) => keyLabel(key, mac)), does: k.does })) })),
  ].filter((s) => s.rows.length > 0);
  return (
    <OverlayDialog className="shortcuts-sheet" labelledBy="shortcuts-heading">
      <div className="palette-box">
        <header className="sheet-head">
          <h2 id="shortcuts-heading">Keyboard shortcuts</h2>
          <button onClick={closeOverlay} aria-label="Close">Close</button>
        </header>
        <div className="sheet-sections">
          {sections.map((section) => (
            <section key={section.where} aria-label={`${section.where} keys`}>
              <h3>{section.where}</h3>
              <dl>
                {section.rows.map((row, i) => (
                  <Fragment key={i}>
                    <dt>
                      {row.keys.map((k, j) => (
                        <kbd key={j}>{k}</kbd>
                      ))}
                    </dt>
                    <dd>{row.does}</dd>
                  </Fragment>
                ))}
              </dl>
            </section>
          ))}
        </div>
      </div>
    </OverlayDialog>
  );
}

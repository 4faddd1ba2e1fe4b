// The command palette (Ctrl/Cmd+K): a modal list of commands, panels, open tabs and past sessions,
// filtered as the person types (rank.ts). ↑/↓ choose, Enter runs, Esc closes and gives the focus
// back. The input is a combobox whose active option is announced (aria-activedescendant), so the
// focus stays in the text field throughout.
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from "react";
import { flushSync } from "react-dom";
import { onMac } from "../keys/chords.js";
import { registerKeyHelp } from "../keys/keyHelp.js";
import { refreshSessions } from "../panels/ProjectPanel.js";
import { useApp } from "../state/appState.js";
import { VisibleText } from "../util/VisibleText.js";
import { useCommands } from "./commands.js";
import { closeOverlay } from "./overlay.js";
import { itemText, paletteItems, type PaletteItem } from "./paletteItems.js";
import { rankItems, type Ranked } from "./rank.js";
import { OverlayDialog } from "./OverlayDialog.js";
import "./palette.css";

/** More than a screenful is noise: the person types more instead. */
const MaxShown = 50;

registerKeyHelp({
  where: "Command palette",
  keys: [
    { keys: ["ArrowUp", "ArrowDown"], does: "Choose" },
    { keys: ["PageUp", "PageDown"], does: "Choose ten rows up or down" },
    { keys: ["Enter"], does: "Run or open the chosen row" },
    { keys: ["Escape"], does: "Close, back to where you were" },
  ],
});

export function CommandPalette() {
  const commands = useCommands();
  const tabOrder = useApp((s) => s.tabOrder);
  const tabs = useApp((s) => s.tabs);
  const sessions = useApp((s) => s.sessions);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  // Past sessions come from the Project panel's list; a window that never showed it asks here.
  useEffect(() => {
    if (sessions.length === 0) refreshSessions();
  }, []);
  const items = useMemo(() => paletteItems(commands, { tabOrder, tabs, sessions }, onMac()), [commands, tabOrder, tabs, sessions]);
  const shown = useMemo(() => rankItems(query, items, itemText, MaxShown), [query, items]);
  const current = shown[Math.min(active, shown.length - 1)];
  const optionId = (item: PaletteItem): string => `${listId}-${item.key}`;
  useEffect(() => {
    if (current !== undefined) document.getElementById(optionId(current.item))?.scrollIntoView({ block: "nearest" });
  }, [current?.item.key]);

  const run = (item: PaletteItem): void => {
    // Closed first, so the focus it gives back does not undo the focus the item moves.
    flushSync(closeOverlay);
    item.run();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>): void => {
    const move = (to: number): void => {
      e.preventDefault();
      if (shown.length > 0) setActive((to + shown.length) % shown.length);
    };
    if (e.key === "ArrowDown") move(active + 1);
    else if (e.key === "ArrowUp") move(active - 1);
    else if (e.key === "PageDown") move(Math.min(shown.length - 1, active + 10));
    else if (e.key === "PageUp") move(Math.max(0, active - 10));
    else if (e.key === "Enter" && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (current !== undefined) run(current.item);
    }
  };
  return (
    <OverlayDialog className="palette" label="Command palette">
      <div className="palette-box">
        <input
          className="palette-input"
          role="combobox"
          aria-label="Search commands, panels and sessions"
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={current !== undefined ? optionId(current.item) : undefined}
          placeholder="Search commands, panels and sessions…"
          value={query}
          autoFocus
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        {/* A click on an option runs it without taking the focus from the text field. */}
        <ul className="palette-list" role="listbox" id={listId} aria-label="Results" onMouseDown={(e) => e.preventDefault()}>
          {shown.map((ranked, i) => (
            <Option key={ranked.item.key} id={optionId(ranked.item)} ranked={ranked} active={ranked === current} onPick={() => run(ranked.item)} onPoint={() => setActive(i)} />
          ))}
        </ul>
        {shown.length === 0 ? <p className="palette-empty dim">Nothing matches “<VisibleText text={query} />”.</p> : null}
      </div>
    </OverlayDialog>
  );
}

function Option({ id, ranked, active, onPick, onPoint }: { id: string; ranked: Ranked<PaletteItem>; active: boolean; onPick: () => void; onPoint: () => void }) {
  const { item, marks } = ranked;
  const titleMarks = marks.filter((m) => m < item.title.length);
  const detailMarks = marks.filter((m) => m > item.title.length).map((m) => m - item.title.length - 1);
  return (
    <li id={id} role="option" aria-selected={active} className={`palette-option${active ? " active" : ""}`} onClick={onPick} onMouseMove={active ? undefined : onPoint}>
      <span className="palette-kind">{item.kind}</span>
      <span className="palette-title">
        <Marked text={item.title} marks={titleMarks} />
      </span>
      {item.detail !== undefined ? (
        <span className="palette-detail">
          <Marked text={item.detail} marks={detailMarks} />
        </span>
      ) : null}
      {item.keys !== undefined ? <kbd className="palette-keys">{item.keys}</kbd> : null}
    </li>
  );
}

/** The text with its matched characters in <mark>, as React nodes (titles come from transcripts: never HTML). */
function Marked({ text, marks }: { text: string; marks: readonly number[] }) {
  if (marks.length === 0) return <VisibleText text={text} />;
  const marked = new Set(marks);
  const runs: { text: string; readonly mark: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const mark = marked.has(i);
    const last = runs[runs.length - 1];
    if (last !== undefined && last.mark === mark) last.text += text[i];
    else runs.push({ text: text[i]!, mark });
  }
  return (
    <>
      {runs.map((r, i) => (r.mark ? <mark key={i}><VisibleText text={r.text} /></mark> : <VisibleText key={i} text={r.text} />))}
    </>
  );
}

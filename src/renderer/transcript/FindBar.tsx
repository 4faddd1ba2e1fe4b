// The find bar over a session's conversation (issue 34): the query, "3 of 7", previous and next.
// Ctrl/Cmd+F opens it on the session in front; Enter and Shift+Enter (or F3 and Shift+F3) in its
// box, F3 and Shift+F3 anywhere, step through the hits; Esc in the box closes it. The window-wide
// keys are commands (palette/commands.ts: the palette and the shortcuts sheet list them). A search
// hit opened from the Project panel opens it with the hit's query, on that hit (findState.ts).
import { useEffect, useRef, useState } from "react";
import { registerKeyHelp } from "../keys/keyHelp.js";
import { registerCommands } from "../palette/commands.js";
import { useApp } from "../state/appState.js";
import { closeFind, findInTab, openFind, stepFind, useFind } from "./findState.js";
import "./findBar.css";

registerKeyHelp({
  where: "Find in session",
  keys: [
    { keys: ["Enter", "F3"], does: "Next match" },
    { keys: ["Shift+Enter", "Shift+F3"], does: "Previous match" },
    { keys: ["Escape"], does: "Close the find bar" },
  ],
});

/** Focus asks already answered, per tab: a bar drawn again (its tab shown again) does not take the focus back. */
const focused = new Map<string, number>();

/** How long typing pauses before the session is searched. */
const TypingPauseMs = 250;

export function FindBar({ tabId }: { tabId: string }) {
  const find = useFind((s) => s.tabs[tabId]);
  useEffect(registerFindCommands, []);
  if (find?.open !== true) return null;
  return <OpenFindBar tabId={tabId} />;
}

function OpenFindBar({ tabId }: { tabId: string }) {
  const query = useFind((s) => s.tabs[tabId]?.query ?? "");
  const status = useFind((s) => s.tabs[tabId]?.status ?? "idle");
  const error = useFind((s) => s.tabs[tabId]?.error);
  const count = useFind((s) => s.tabs[tabId]?.places.length ?? 0);
  const index = useFind((s) => s.tabs[tabId]?.index ?? -1);
  const focusSeq = useFind((s) => s.tabs[tabId]?.focusSeq ?? 0);
  const [typed, setTyped] = useState(query);
  const box = useRef<HTMLInputElement>(null);

  // A search started elsewhere (a hit opened from the Project panel) shows its query.
  useEffect(() => setTyped(query), [query]);
  useEffect(() => {
    if (focused.get(tabId) === focusSeq) return;
    focused.set(tabId, focusSeq);
    box.current?.focus();
    box.current?.select();
  }, [focusSeq, tabId]);
  useEffect(() => {
    if (typed.trim() === query.trim()) return;
    const timer = setTimeout(() => void findInTab(tabId, typed.trim()), TypingPauseMs);
    return () => clearTimeout(timer);
  }, [typed, query, tabId]);

  const said =
    status === "searching" ? "Searching…" : status === "failed" ? (error ?? "Find failed") : status === "idle" ? "" : count === 0 ? "No matches" : `${index + 1} of ${count}`;
  return (
    <div className="find-bar" role="search" aria-label="Find in session">
      <input
        ref={box}
        type="search"
        aria-label="Find in session"
        placeholder="Find in session…"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" || e.key === "F3") {
            e.preventDefault();
            // Enter on a query not searched yet searches it; then it steps.
            if (typed.trim() !== query.trim()) void findInTab(tabId, typed.trim());
            else stepFind(tabId, e.shiftKey ? -1 : 1);
          } else if (e.key === "Escape") {
            e.preventDefault();
            closeFind(tabId);
          }
        }}
      />
      <span className={`find-count ${status === "failed" ? "failed" : ""}`} role="status" aria-live="polite" aria-label="Matches">
        {said}
      </span>
      <button aria-label="Previous match" title="Previous match (Shift+F3, Shift+Enter)" disabled={count === 0} onClick={() => stepFind(tabId, -1)}>
        ↑
      </button>
      <button aria-label="Next match" title="Next match (F3, Enter)" disabled={count === 0} onClick={() => stepFind(tabId, 1)}>
        ↓
      </button>
      <button aria-label="Close find" title="Close (Esc)" onClick={() => closeFind(tabId)}>
        ×
      </button>
    </div>
  );
}

/** The session in front, if its find bar is open with hits to step through. */
function findingTab(): string | undefined {
  const tabId = useApp.getState().activeTabId;
  const f = tabId === undefined ? undefined : useFind.getState().tabs[tabId];
  return f?.open === true && f.places.length > 0 ? tabId : undefined;
}

/** Ctrl/Cmd+F, F3 and Shift+F3 act on the session in front; registered while a find bar can be drawn. */
function registerFindCommands(): () => void {
  return registerCommands([
    {
      id: "find.open",
      title: "Find in the session",
      group: "Session",
      keys: "Mod+F",
      enabled: () => useApp.getState().activeTabId !== undefined,
      run: () => openFind(useApp.getState().activeTabId!),
    },
    { id: "find.next", title: "Next match in the session", group: "Session", keys: "F3", enabled: () => findingTab() !== undefined, run: () => stepFind(findingTab()!, 1) },
    { id: "find.previous", title: "Previous match in the session", group: "Session", keys: "Shift+F3", enabled: () => findingTab() !== undefined, run: () => stepFind(findingTab()!, -1) },
  ]);
}

// The find bar over a session's conversation (issue 34): the query, "3 of 7", previous and next.
// Ctrl/Cmd+F opens it on the session in front; Enter and Shift+Enter in its box, F3 and Shift+F3
// anywhere, step through the hits; Esc in the box closes it. A search hit opened from the Project
// panel opens it with the hit's query, on that hit (findState.ts).
import { useEffect, useRef, useState } from "react";
import { useApp } from "../state/appState.js";
import { closeFind, findInTab, openFind, stepFind, useFind } from "./findState.js";
import "./findBar.css";

/** How long typing pauses before the session is searched. */
const TypingPauseMs = 250;

export function FindBar({ tabId }: { tabId: string }) {
  const find = useFind((s) => s.tabs[tabId]);
  useFindKeys(tabId);
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
    box.current?.focus();
    box.current?.select();
  }, [focusSeq]);
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
          if (e.key === "Enter") {
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

/** Ctrl/Cmd+F and F3/Shift+F3 for the session in front. */
function useFindKeys(tabId: string): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || useApp.getState().activeTabId !== tabId) return;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "f") {
        e.preventDefault();
        openFind(tabId);
      } else if (e.key === "F3" && useFind.getState().tabs[tabId]?.open === true) {
        e.preventDefault();
        stepFind(tabId, e.shiftKey ? -1 : 1);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [tabId]);
}

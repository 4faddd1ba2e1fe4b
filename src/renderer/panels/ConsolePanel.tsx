// Log entries from the CLI's stderr, the protocol layer and Baton itself, filterable by level.
// Each line is its message; an entry's fields (paths, reports, a kilobyte of JSON at times) stay
// folded under "details" until asked for.
import { useState } from "react";
import type { LogEntry } from "../../shared/api.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { useApp } from "../state/appState.js";
import "./console.css";

const Levels: readonly LogEntry["level"][] = ["debug", "info", "warning", "error"];
const Rank: Record<LogEntry["level"], number> = { debug: 0, info: 1, warning: 2, error: 3 };
const Shown = 500;

export function ConsolePanel() {
  const logs = useApp((s) => s.logs);
  const [min, setMin] = useState<LogEntry["level"]>("info");
  const [text, setText] = useState("");
  const filtered = logs.filter((l) => Rank[l.level] >= Rank[min] && (text === "" || l.message.includes(text) || l.source.includes(text)));
  return (
    <div className="console-body">
      <div className="console-bar">
        <label>
          Level{" "}
          <select aria-label="Minimum level" value={min} onChange={(e) => setMin(e.target.value as LogEntry["level"])}>
            {Levels.map((l) => (
              <option key={l} value={l}>{l}</option>
            ))}
          </select>
        </label>
        <input type="search" aria-label="Filter log" placeholder="Filter…" value={text} onChange={(e) => setText(e.target.value)} />
        <span className="dim">{filtered.length} entries</span>
      </div>
      <ol className="log" aria-label="Log entries">
        {filtered.slice(-Shown).map((l, i) => (
          <li key={i} className={`log-${l.level}`}>
            <span className="time">{l.time.slice(11, 19)}</span>
            <span className="lvl">{l.level}</span>
            <span className="src">{l.source}</span>
            <span className="msg">{l.message}</span>
            {l.fields !== undefined && Object.keys(l.fields).length > 0 ? <Fields fields={l.fields} /> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

function Fields({ fields }: { readonly fields: JsonObject }) {
  // Folded, not left out: what an entry names stays text in the page (the browser's find), and a
  // closed <details> lays out nothing inside it.
  return (
    <details className="fields">
      <summary>details</summary>
      <pre>{JSON.stringify(fields, null, 2)}</pre>
    </details>
  );
}

// The first thing a person without Claude Code sees: what works already (their history, search),
// what to install to start sessions, and where Baton looked. Plain, above the window, until dismissed.
import { useState } from "react";
import { ClaudeInstallCommand } from "../../shared/api.js";
import { VisibleText } from "../util/VisibleText.js";
import { useClaudeStatus } from "./claudeStatus.js";
import "./claudeBanner.css";

export function ClaudeMissingBanner() {
  const status = useClaudeStatus();
  const [dismissed, setDismissed] = useState(false);
  if (status === undefined || status.found || dismissed) return null;
  return (
    <section className="claude-banner" aria-label="Claude Code not found">
      <p>
        <strong>Claude Code is not installed here.</strong> Your past sessions and search work. To start new sessions, install it with{" "}
        <code>{ClaudeInstallCommand}</code> and restart Baton.
      </p>
      {status.tried.length > 0 ? (
        <details>
          <summary>Where Baton looked</summary>
          <ul>
            {status.tried.map((p) => (
              <li key={p}>
                <code>
                  <VisibleText text={p} />
                </code>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <button className="claude-banner-close" aria-label="Dismiss" title="Dismiss until Baton restarts" onClick={() => setDismissed(true)}>
        ×
      </button>
    </section>
  );
}

// The plan's usage windows in the toolbar: the five-hour and weekly windows the CLI last reported
// for any session (subscription sessions only; API-key sessions report none and nothing shows).
import { useApp } from "../state/appState.js";
import { useNow } from "../transcript/useNow.js";
import { newestPlanLimits, percentOf, relativeReset, shownWindows, windowText, type ShownWindow } from "../util/planLimits.js";
import "./planMeter.css";

/** The reset times move on their own: a minute is fine enough for "in 42 min". */
const TickMs = 30_000;

export function PlanMeter() {
  const limits = useApp((s) => newestPlanLimits(s.tabs));
  const now = useNow(limits !== undefined, TickMs);
  if (limits === undefined) return null;
  const windows = shownWindows(limits);
  if (windows.length === 0) return null;
  return (
    <span className="plan-meter" role="group" aria-label="Plan usage">
      {windows.map((w) => (
        <WindowMeter key={w.key} w={w} text={windowText(w, limits.status, now)} now={now} />
      ))}
    </span>
  );
}

function WindowMeter({ w, text, now }: { readonly w: ShownWindow; readonly text: string; readonly now: number }) {
  const reset = w.resetsAt === undefined ? undefined : relativeReset(w.resetsAt, now);
  if (w.window === undefined) {
    // A CLI that reports no utilization (2.1.197): the deciding window's state, no bar to guess.
    return (
      <span className={`plan-window ${w.level}`} role="group" title={text} aria-label={text} data-level={w.level}>
        {w.short} {w.level === "ok" ? "ok" : w.level === "warning" ? "near limit" : "limit reached"}
        {reset === undefined ? null : <span className="plan-reset"> · {reset}</span>}
      </span>
    );
  }
  const percent = percentOf(w.window);
  return (
    <span className={`plan-window ${w.level}`} title={text} data-level={w.level}>
      <span className="plan-name">{w.short}</span>
      <span
        className="plan-bar"
        role="meter"
        aria-label={w.name}
        aria-valuemin={0}
        aria-valuemax={Math.max(100, percent)}
        aria-valuenow={percent}
        aria-valuetext={text}
      >
        <span className="plan-fill" style={{ width: `${Math.min(100, percent)}%` }} />
      </span>
      <span className="plan-percent">{percent}%</span>
      {/* The row stays short: the reset shows when it matters (near the limit); the tooltip always says it. */}
      {reset === undefined || w.level === "ok" ? null : <span className="plan-reset">{reset}</span>}
    </span>
  );
}

// The plan's limits as the toolbar shows them: the newest report of any session (the windows are
// the account's, so every session sees the same ones), each window's level and its reset time.

import type { PlanLimits, PlanWindow } from "../../shared/transcript.js";
import type { TabState } from "../state/appState.js";

export type PlanLevel = "ok" | "warning" | "danger";

/** Utilization from which a window shows the warning colour, and the danger colour. */
const WarningAt = 0.8;
const DangerAt = 0.95;

export interface ShownWindow {
  /** The CLI's name of the window (`five_hour`, `seven_day`). */
  readonly key: string;
  readonly short: string;
  readonly name: string;
  /** Absent on CLIs that report only the deciding window's status (2.1.197). */
  readonly window?: PlanWindow;
  readonly resetsAt?: number;
  readonly level: PlanLevel;
}

const Windows = [
  { key: "five_hour", short: "5h", name: "Five-hour limit", field: "fiveHour" },
  { key: "seven_day", short: "7d", name: "Weekly limit", field: "sevenDay" },
] as const;

/** The newest plan limits among the sessions Baton runs; restored ones never carry any (the CLI does not write them down). */
export function newestPlanLimits(tabs: Readonly<Record<string, TabState>>): PlanLimits | undefined {
  let newest: PlanLimits | undefined;
  for (const tab of Object.values(tabs)) {
    const limits = tab.transcript.meta?.planLimits;
    if (tab.info.kind === "restored" || limits === undefined) continue;
    if (newest === undefined || limits.receivedAt > newest.receivedAt) newest = limits;
  }
  return newest;
}

/**
 * The windows to show: each one the CLI reported a utilization for, else (2.1.197) the deciding
 * window alone with its status. Empty when the report named neither.
 */
export function shownWindows(limits: PlanLimits): readonly ShownWindow[] {
  const reported = Windows.filter((w) => limits[w.field] !== undefined);
  if (reported.length > 0) {
    return reported.map((w) => {
      const window = limits[w.field] as PlanWindow;
      return { key: w.key, short: w.short, name: w.name, window, resetsAt: window.resetsAt, level: levelOf(window.utilization, window.status ?? statusFor(limits, w.key)) };
    });
  }
  const deciding = Windows.find((w) => w.key === limits.rateLimitType);
  if (deciding === undefined) return [];
  return [{ key: deciding.key, short: deciding.short, name: deciding.name, resetsAt: limits.resetsAt, level: levelOf(undefined, limits.status) }];
}

/** The report's status concerns the deciding window only. */
function statusFor(limits: PlanLimits, key: string): string | undefined {
  return limits.rateLimitType === undefined || limits.rateLimitType === key ? limits.status : undefined;
}

/** Danger at 95 % or when the plan refuses calls; warning from 80 % or when the CLI warns. */
export function levelOf(utilization: number | undefined, status: string | undefined): PlanLevel {
  if (status === "rejected" || (utilization !== undefined && utilization >= DangerAt)) return "danger";
  if (status === "allowed_warning" || (utilization !== undefined && utilization >= WarningAt)) return "warning";
  return "ok";
}

/** "in 2 h 5 min", "in 3 d 4 h", "in 40 s", "now" for a reset at `resetsAt` (epoch seconds). */
export function relativeReset(resetsAt: number, now: number): string {
  const seconds = Math.round(resetsAt - now / 1000);
  if (seconds <= 0) return "now";
  if (seconds < 60) return `in ${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `in ${hours} h${minutes % 60 === 0 ? "" : ` ${minutes % 60} min`}`;
  const days = Math.floor(hours / 24);
  return `in ${days} d${hours % 24 === 0 ? "" : ` ${hours % 24} h`}`;
}

/** The reset as a local date and time ("Tue 14:05"). */
function absoluteReset(resetsAt: number): string {
  return new Date(resetsAt * 1000).toLocaleString(undefined, { weekday: "short", hour: "2-digit", minute: "2-digit" });
}

/** What a window says in words: its use, its state, its reset. */
export function windowText(w: ShownWindow, status: string | undefined, now: number): string {
  const used = w.window === undefined ? statusWords(status) : `${percentOf(w.window)} % used`;
  const reset = w.resetsAt === undefined ? "" : `, resets ${relativeReset(w.resetsAt, now)} (${absoluteReset(w.resetsAt)})`;
  return `${w.name}: ${used}${reset}`;
}

/** The share used in percent; the CLI may report more than 100 (use past the cap). */
export function percentOf(window: PlanWindow): number {
  return Math.round(window.utilization * 100);
}

function statusWords(status: string | undefined): string {
  if (status === "rejected") return "reached";
  if (status === "allowed_warning") return "close to the limit";
  return "within the limit";
}

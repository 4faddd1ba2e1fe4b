// What went wrong while reading history. Nothing here is fatal: a restore always returns what it
// could read, and lists these beside it (the Console shows them).

import type { JsonlProblem, JsonlStats } from "./jsonlReader.js";

export type HistoryProblemKind =
  | "bad_lines"
  | "unreadable_sidechain"
  | "unlinked_sidechain"
  | "unlinked_sidechain_rows"
  | "too_deep_values"
  | "unknown_system_lines"
  | "not_regular_file"
  | "refused_path";

export interface HistoryProblem {
  readonly kind: HistoryProblemKind;
  readonly path: string;
  readonly message: string;
  readonly count?: number;
  readonly samples?: readonly JsonlProblem[];
}

/** Typed failure of a restore: the caller branches on `code`. */
export class HistoryError extends Error {
  constructor(
    /** "ambiguous": a session id found in more than one project folder (the message names them). */
    readonly code: "not_found" | "unreadable" | "refused" | "ambiguous",
    readonly target: string,
    message: string,
  ) {
    super(message);
    this.name = "HistoryError";
  }
}

/** What was refused and why (containedPath.ts); never what the file holds. */
export function refusedPath(path: string, what: string, reason: string): HistoryProblem {
  return { kind: "refused_path", path, message: `refused ${what}: ${reason}; Baton reads only inside the history folder` };
}

/**
 * Skipped lines, counted. A file with no transcript line at all (a symlink to /etc/passwd, any
 * text) is not a transcript: its lines are counted, never quoted. The reader already leaves out
 * the excerpts of lines before a file's first record (jsonlReader.ts).
 */
export function lineProblems(path: string, stats: JsonlStats, samples: readonly JsonlProblem[]): HistoryProblem[] {
  if (stats.records === 0) samples = samples.map(({ excerpt: _, ...counted }) => counted);
  const bad = stats.invalidUtf8 + stats.tooLong + stats.notJson + stats.notObject + stats.truncated;
  if (bad === 0) return [];
  const parts = [
    stats.notJson > 0 ? `${stats.notJson} not JSON` : "",
    stats.truncated > 0 ? `${stats.truncated} truncated at the end` : "",
    stats.invalidUtf8 > 0 ? `${stats.invalidUtf8} invalid UTF-8` : "",
    stats.tooLong > 0 ? `${stats.tooLong} too long` : "",
    stats.notObject > 0 ? `${stats.notObject} not an object` : "",
  ].filter((p) => p !== "");
  return [{ kind: "bad_lines", path, message: `skipped ${bad} line(s): ${parts.join(", ")}`, count: bad, samples }];
}

/** Lines whose values were nested too deeply to keep: shown cut short (boundedJson.ts). */
export function tooDeepProblems(path: string, lines: number): HistoryProblem[] {
  if (lines === 0) return [];
  return [{ kind: "too_deep_values", path, message: `${lines} line(s) held values nested too deeply to show; they are shown cut short`, count: lines }];
}

/** `system` lines of subtypes Baton does not know: one problem per subtype, with its count. */
export function unknownSystemProblems(path: string, counts: ReadonlyMap<string, number>): HistoryProblem[] {
  return [...counts].map(([subtype, count]) => ({
    kind: "unknown_system_lines" as const,
    path,
    message: `${count} system line(s) of subtype "${subtype}" that Baton does not know were not shown`,
    count,
  }));
}

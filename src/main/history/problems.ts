// What went wrong while reading history. Nothing here is fatal: a restore always returns what it
// could read, and lists these beside it (the Console shows them).

import type { JsonlProblem, JsonlStats } from "./jsonlReader.js";

export type HistoryProblemKind =
  | "bad_lines"
  | "unreadable_sidechain"
  | "unlinked_sidechain"
  | "unlinked_sidechain_rows";

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
    readonly code: "not_found" | "unreadable",
    readonly target: string,
    message: string,
  ) {
    super(message);
    this.name = "HistoryError";
  }
}

export function lineProblems(path: string, stats: JsonlStats, samples: readonly JsonlProblem[]): HistoryProblem[] {
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

// The folders a new session is likely to start in: each past session's working directory, the
// most recently used first, each once.
import type { SessionSummary } from "../../shared/api.js";

export const RecentProjectsShown = 8;

export function recentProjects(sessions: readonly Pick<SessionSummary, "cwd" | "lastTimestamp">[], limit = RecentProjectsShown): string[] {
  const newest = new Map<string, string>();
  for (const s of sessions) {
    if (s.cwd === undefined || s.cwd === "") continue;
    const when = s.lastTimestamp ?? "";
    const seen = newest.get(s.cwd);
    if (seen === undefined || when > seen) newest.set(s.cwd, when);
  }
  // ISO times compare as strings; a session without one sorts last.
  return [...newest].sort((a, b) => b[1].localeCompare(a[1]) || a[0].localeCompare(b[0])).slice(0, limit).map(([cwd]) => cwd);
}

/** The folder's own name, what a person recognises first: "/home/user/code/baton" → "baton". */
export function folderName(dir: string): string {
  const trimmed = dir.replace(/[\\/]+$/, "");
  const name = trimmed.slice(Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\")) + 1);
  return name === "" ? dir : name;
}

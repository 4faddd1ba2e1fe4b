// What the index knows of each session's main file under a projects folder, for the session list
// (history/sessionList.ts): the file as the index last read it (its size and time, read to its
// end) and what a full read gives that the list, reading only a file's ends, cannot: the title a
// rename in the middle set, the prompt count, the subagents. The list uses a row only while the
// file on disk is still that size and time.
import path from "node:path";
import type Database from "better-sqlite3";

export interface IndexedSession {
  /** The main file's path, as the index found it (under the resolved projects folder). */
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly customTitle: string | null;
  readonly aiTitle: string | null;
  readonly firstPrompt: string | null;
  readonly cwd: string | null;
  readonly gitBranch: string | null;
  readonly firstTime: string | null;
  readonly lastTime: string | null;
  readonly promptCount: number;
  readonly subagentCount: number;
}

/** The main files under `projectsDir` the index has read to their end. */
export function indexedSessions(db: Database.Database, projectsDir: string): IndexedSession[] {
  const dir = path.resolve(projectsDir);
  // Every path under the folder, as a range an index on `path` can serve: `dir/` up to `dir0`.
  const lo = `${dir}${path.sep}`;
  const hi = `${dir}${String.fromCharCode(path.sep.charCodeAt(0) + 1)}`;
  return db
    .prepare(
      `SELECT f.path, f.size, f.mtime_ms AS mtimeMs, f.custom_title AS customTitle, f.ai_title AS aiTitle,
              f.first_prompt AS firstPrompt, f.cwd, f.git_branch AS gitBranch, f.first_time AS firstTime,
              f.last_time AS lastTime, f.prompt_count AS promptCount, s.subagent_count AS subagentCount
       FROM files f JOIN sessions s ON s.key = f.session_key
       WHERE f.agent_id IS NULL AND f.indexed_offset = f.size AND f.path >= @lo AND f.path < @hi`,
    )
    .all({ lo, hi }) as IndexedSession[];
}

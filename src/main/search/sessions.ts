// The session list the Project panel and `baton sessions` can read from the index. A session is
// its project folder and id: two files named alike in two folders are two sessions.
import type Database from "better-sqlite3";

export interface SubagentSummary {
  readonly agentId: string;
  readonly parentAgentId: string | null;
  readonly toolUseId: string | null;
  readonly agentType: string | null;
  readonly description: string | null;
  readonly status: string | null;
  readonly spawnDepth: number | null;
}

export interface SessionSummary {
  readonly id: string;
  /** The project folder's name. */
  readonly project: string;
  readonly cwd: string | null;
  readonly title: string | null;
  readonly gitBranch: string | null;
  readonly firstTime: string | null;
  readonly lastTime: string | null;
  readonly promptCount: number;
  readonly subagentCount: number;
  readonly size: number;
}

export interface ListSessionsOptions {
  readonly project?: string;
  readonly limit?: number;
}

export function listSessions(db: Database.Database, options: ListSessionsOptions = {}): SessionSummary[] {
  const limit = Math.max(1, Math.floor(options.limit ?? 10_000));
  const where = options.project !== undefined ? "WHERE project = @project" : "";
  return db
    .prepare(
      `SELECT id, project, cwd, title, git_branch AS gitBranch, first_time AS firstTime, last_time AS lastTime,
              prompt_count AS promptCount, subagent_count AS subagentCount, size
       FROM sessions ${where} ORDER BY last_time DESC LIMIT @limit`,
    )
    .all({ limit, ...(options.project !== undefined ? { project: options.project } : {}) }) as SessionSummary[];
}

/** The subagents of session `sessionId` in `project` (in every project folder that has one by that id, without). */
export function listSubagents(db: Database.Database, sessionId: string, project?: string): SubagentSummary[] {
  return db
    .prepare(
      `SELECT agent_id AS agentId, parent_agent_id AS parentAgentId, tool_use_id AS toolUseId,
              agent_type AS agentType, description, status, spawn_depth AS spawnDepth
       FROM subagents WHERE session_key IN (SELECT key FROM sessions WHERE id = @id AND (@project IS NULL OR project = @project))
       ORDER BY coalesce(spawn_depth, 1), agent_id`,
    )
    .all({ id: sessionId, project: project ?? null }) as SubagentSummary[];
}

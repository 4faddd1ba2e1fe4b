// v1: the catalogue of history files, sessions and subagents (no full text yet).
import type { Migration } from "../../platform/sqlite/migration.js";

export const m001Catalogue: Migration = {
  version: 1,
  name: "catalogue",
  up(db) {
    db.exec(`
      CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL,
        agent_id TEXT,                         -- null for the main transcript
        project TEXT NOT NULL,                 -- the encoded project dir name
        size INTEGER NOT NULL,                 -- size at the last scan
        identity TEXT NOT NULL,                -- "dev:ino": a replaced file gets a new one
        mtime_ms REAL NOT NULL,
        indexed_offset INTEGER NOT NULL,       -- end of the last complete line read
        boundary TEXT NOT NULL DEFAULT '',     -- hex of the bytes just before indexed_offset
        line_count INTEGER NOT NULL DEFAULT 0,
        first_time TEXT,
        last_time TEXT,
        prompt_count INTEGER NOT NULL DEFAULT 0,
        cwd TEXT,
        git_branch TEXT,
        custom_title TEXT,
        ai_title TEXT,
        first_prompt TEXT
      );
      CREATE INDEX files_session ON files(session_id);

      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        project TEXT NOT NULL,
        cwd TEXT,
        title TEXT,
        git_branch TEXT,
        first_time TEXT,
        last_time TEXT,
        prompt_count INTEGER NOT NULL DEFAULT 0,
        subagent_count INTEGER NOT NULL DEFAULT 0,
        size INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX sessions_last_time ON sessions(last_time);

      CREATE TABLE subagents (
        session_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        tool_use_id TEXT,                      -- the spawning Agent tool_use (meta.json toolUseId)
        parent_agent_id TEXT,                  -- the agent whose sidechain holds that tool_use
        agent_type TEXT,
        description TEXT,
        status TEXT,
        spawn_depth INTEGER,
        stopped_by_user INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (session_id, agent_id)
      );

      -- Every Agent tool_use seen, and who made it: the parent of a nested agent is only
      -- derivable this way (meta.json names no parent agent).
      CREATE TABLE spawns (
        session_id TEXT NOT NULL,
        tool_use_id TEXT NOT NULL,
        file_id INTEGER NOT NULL,              -- the file it was read from, for re-indexing
        spawner_agent_id TEXT,
        result_status TEXT,
        PRIMARY KEY (session_id, tool_use_id)
      );
      CREATE INDEX spawns_file ON spawns(file_id);

      -- <task-notification> prompts: final status of background tasks (subagents or long Bash).
      CREATE TABLE task_notes (
        session_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        status TEXT NOT NULL,
        file_id INTEGER NOT NULL
      );
      CREATE INDEX task_notes_task ON task_notes(session_id, task_id);
      CREATE INDEX task_notes_file ON task_notes(file_id);
    `);
  },
};

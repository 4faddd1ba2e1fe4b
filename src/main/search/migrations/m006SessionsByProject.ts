// v6: a session is its project folder and its id. Two files named alike in different project
// folders (a copied or moved history) were one session keyed by id alone, their hits, titles and
// cwd mixed; now `sessions` has an integer key, unique per (project, id), and every table that
// named a session by id names it by that key. The full-text index changes too: whole texts (long
// ones in pieces, one place entry each, so PLACE_BYTES grew), CJK runs as their pairs, titles and
// the project folder's name as rows of their own. The catalogue is kept (each file, and each
// session under its project folder with what it showed), every file marked to be read again and
// everything else recreated empty: all of it is derived from the history files. StoreService says
// so (`upgradedFrom`).
import type { Migration } from "../../platform/sqlite/migration.js";
import { CONTENTLESS_SEARCH_TEXT_SQL } from "./m004Contentless.js";

/** The version at which an index holds nothing a scan of the history files does not rebuild. */
export const REBUILT_AT = 6;

export const m006SessionsByProject: Migration = {
  version: REBUILT_AT,
  name: "sessions-by-project",
  up(db) {
    db.exec(`
      DROP TABLE search_text;
      DROP TABLE file_rows;
      DROP TABLE task_notes;
      DROP TABLE spawns;
      DROP TABLE subagents;
      DROP INDEX sessions_last_time;
      DROP INDEX files_session;
      ALTER TABLE sessions RENAME TO sessions_v5;
      ALTER TABLE files RENAME TO files_v5;
      ${CONTENTLESS_SEARCH_TEXT_SQL}

      CREATE TABLE sessions (
        key INTEGER PRIMARY KEY,
        project TEXT NOT NULL,                 -- the project folder's name (the encoded cwd)
        id TEXT NOT NULL,                      -- the session id: its main file's name
        cwd TEXT,
        title TEXT,
        git_branch TEXT,
        first_time TEXT,
        last_time TEXT,
        prompt_count INTEGER NOT NULL DEFAULT 0,
        subagent_count INTEGER NOT NULL DEFAULT 0,
        size INTEGER NOT NULL DEFAULT 0,
        UNIQUE (project, id)
      );
      CREATE INDEX sessions_id ON sessions(id);
      CREATE INDEX sessions_last_time ON sessions(last_time);

      CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        session_key INTEGER NOT NULL,          -- sessions.key
        agent_id TEXT,                         -- null for the main transcript
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
      CREATE INDEX files_session ON files(session_key);

      CREATE TABLE subagents (
        session_key INTEGER NOT NULL,
        agent_id TEXT NOT NULL,
        tool_use_id TEXT,                      -- the spawning Agent tool_use (meta.json toolUseId)
        parent_agent_id TEXT,                  -- the agent whose sidechain holds that tool_use
        agent_type TEXT,
        description TEXT,
        status TEXT,
        spawn_depth INTEGER,
        stopped_by_user INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (session_key, agent_id)
      );

      -- Every Agent tool_use seen, and who made it: the parent of a nested agent is only
      -- derivable this way (meta.json names no parent agent).
      CREATE TABLE spawns (
        session_key INTEGER NOT NULL,
        tool_use_id TEXT NOT NULL,
        file_id INTEGER NOT NULL,              -- the file it was read from, for re-indexing
        spawner_agent_id TEXT,
        result_status TEXT,
        PRIMARY KEY (session_key, tool_use_id)
      );
      CREATE INDEX spawns_file ON spawns(file_id);

      -- <task-notification> prompts: final status of background tasks (subagents or long Bash).
      CREATE TABLE task_notes (
        session_key INTEGER NOT NULL,
        task_id TEXT NOT NULL,
        status TEXT NOT NULL,
        file_id INTEGER NOT NULL
      );
      CREATE INDEX task_notes_task ON task_notes(session_key, task_id);
      CREATE INDEX task_notes_file ON task_notes(file_id);

      -- Rowids lo..hi of search_text (or of the side index's table), written from one chunk of one
      -- file; places: PLACE_BYTES per rowid (rowPlaces.ts).
      CREATE TABLE file_rows (
        lo INTEGER PRIMARY KEY,
        hi INTEGER NOT NULL,
        file_id INTEGER NOT NULL,
        base_offset INTEGER NOT NULL,
        base_line INTEGER NOT NULL,
        places BLOB NOT NULL
      );
      CREATE INDEX file_rows_file ON file_rows(file_id);

      -- The catalogue: a session for each project folder its files are in, showing what it did
      -- (a session's row was its first-read project's), and every file, to be read again (an
      -- empty identity never equals a real dev:ino).
      INSERT INTO sessions (project, id) SELECT DISTINCT project, session_id FROM files_v5;
      UPDATE sessions SET (cwd, title, git_branch, first_time, last_time, prompt_count, subagent_count, size) =
        (SELECT o.cwd, o.title, o.git_branch, o.first_time, o.last_time, o.prompt_count, o.subagent_count, o.size
         FROM sessions_v5 o WHERE o.id = sessions.id AND o.project = sessions.project)
      WHERE EXISTS (SELECT 1 FROM sessions_v5 o WHERE o.id = sessions.id AND o.project = sessions.project);
      INSERT INTO files (id, path, session_key, agent_id, size, identity, mtime_ms, indexed_offset)
        SELECT f.id, f.path, s.key, f.agent_id, f.size, '', f.mtime_ms, 0
        FROM files_v5 f JOIN sessions s ON s.project = f.project AND s.id = f.session_id;
      DROP TABLE sessions_v5;
      DROP TABLE files_v5;
    `);
  },
};

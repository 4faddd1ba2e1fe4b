// Prepared statements of the incremental indexer, and the SQL that derives sessions and subagent
// status from what the files recorded. A session is its project folder and id (`sessions.key`).
import type Database from "better-sqlite3";
import { asBuffer, insertTexts, type PackedRows } from "./chunkWire.js";
import type { Extracted, FileFacts } from "./extract.js";
import { SIDE_ROWID_BASE, type RowRange } from "./sideIndex.js";
import type { SubagentMeta } from "./subagentMeta.js";

export interface FileRow {
  readonly id: number;
  readonly path: string;
  readonly session_key: number;
  readonly session_id: string;
  readonly size: number;
  readonly identity: string;
  readonly mtime_ms: number;
  readonly indexed_offset: number;
  readonly boundary: string;
  readonly line_count: number;
}

export interface FileProgress {
  readonly offset: number;
  readonly lineCount: number;
  readonly boundary: string;
  /** Set on the last flush of a scan: the stat the next scan compares against. */
  readonly stat?: { readonly size: number; readonly mtimeMs: number; readonly identity: string };
}

export class IndexStatements {
  readonly allFiles: Database.Statement<[], FileRow>;
  private readonly insertFile: Database.Statement;
  private readonly insertSession: Database.Statement;
  private readonly findSession: Database.Statement<[string, string], number>;
  private readonly fileOffset: Database.Statement<[number], { indexed_offset: number }>;
  private readonly loadFacts: Database.Statement<[number], Record<string, unknown>>;
  private readonly lastRowid: Database.Statement<[], { hi: number }>;
  private readonly insertText: Database.Statement;
  private readonly insertRange: Database.Statement;
  private readonly insertSpawn: Database.Statement;
  private readonly updateSpawnResult: Database.Statement;
  private readonly insertNote: Database.Statement;
  private readonly saveProgress: Database.Statement;
  private readonly saveStat: Database.Statement;
  private readonly upsertSubagent: Database.Statement;
  private readonly rangesOf: Database.Statement<[number], { lo: number; hi: number }>;
  private readonly sideFiles: Database.Statement<[], number>;
  private readonly deleteRange: Database.Statement;
  private readonly deleteRanges: Database.Statement;
  private readonly deleteSpawns: Database.Statement;
  private readonly deleteNotes: Database.Statement;
  private readonly resetFile: Database.Statement;
  private readonly deleteFileRow: Database.Statement;
  private readonly sessionUpdate: Database.Statement;
  private readonly subagentDerive: Database.Statement;
  private readonly sessionFileCount: Database.Statement<[number], { n: number }>;
  private readonly deleteSessionRows: Database.Statement[];

  constructor(db: Database.Database) {
    this.allFiles = db.prepare(
      `SELECT f.id, f.path, f.session_key, s.id AS session_id, f.size, f.identity, f.mtime_ms, f.indexed_offset, f.boundary, f.line_count
       FROM files f JOIN sessions s ON s.key = f.session_key`,
    );
    this.insertFile = db.prepare(
      `INSERT INTO files (path, session_key, agent_id, size, identity, mtime_ms, indexed_offset)
       VALUES (?, ?, ?, -1, ?, 0, 0)`,
    );
    this.insertSession = db.prepare("INSERT INTO sessions (project, id) VALUES (?, ?) ON CONFLICT (project, id) DO NOTHING");
    this.findSession = db.prepare<[string, string], number>("SELECT key FROM sessions WHERE project = ? AND id = ?").pluck();
    this.fileOffset = db.prepare("SELECT indexed_offset FROM files WHERE id = ?");
    this.loadFacts = db.prepare(
      `SELECT first_time, last_time, prompt_count, cwd, git_branch, custom_title, ai_title, first_prompt
       FROM files WHERE id = ?`,
    );
    this.lastRowid = db.prepare(`SELECT hi FROM file_rows WHERE lo < ${SIDE_ROWID_BASE} ORDER BY lo DESC LIMIT 1`);
    this.insertText = db.prepare("INSERT INTO search_text (rowid, text) VALUES (?, ?)");
    this.insertRange = db.prepare(
      "INSERT INTO file_rows (lo, hi, file_id, base_offset, base_line, places) VALUES (?, ?, ?, ?, ?, ?)",
    );
    this.insertSpawn = db.prepare(
      "INSERT OR IGNORE INTO spawns (session_key, tool_use_id, file_id, spawner_agent_id) VALUES (?, ?, ?, ?)",
    );
    this.updateSpawnResult = db.prepare(
      "UPDATE spawns SET result_status = ? WHERE session_key = ? AND tool_use_id = ?",
    );
    this.insertNote = db.prepare("INSERT INTO task_notes (session_key, task_id, status, file_id) VALUES (?, ?, ?, ?)");
    this.saveProgress = db.prepare(
      `UPDATE files SET indexed_offset = @offset, line_count = @lineCount, boundary = @boundary,
         first_time = @firstTime, last_time = @lastTime, prompt_count = @promptCount, cwd = @cwd,
         git_branch = @gitBranch, custom_title = @customTitle, ai_title = @aiTitle, first_prompt = @firstPrompt
       WHERE id = @id`,
    );
    this.saveStat = db.prepare("UPDATE files SET size = ?, mtime_ms = ?, identity = ? WHERE id = ?");
    this.upsertSubagent = db.prepare(
      `INSERT INTO subagents (session_key, agent_id, tool_use_id, agent_type, description, spawn_depth, stopped_by_user)
       VALUES (@sessionKey, @agentId, @toolUseId, @agentType, @description, @spawnDepth, @stopped)
       ON CONFLICT (session_key, agent_id) DO UPDATE SET tool_use_id = excluded.tool_use_id,
         agent_type = excluded.agent_type, description = excluded.description,
         spawn_depth = excluded.spawn_depth, stopped_by_user = excluded.stopped_by_user`,
    );
    this.rangesOf = db.prepare("SELECT lo, hi FROM file_rows WHERE file_id = ?");
    this.sideFiles = db.prepare<[], number>(`SELECT DISTINCT file_id FROM file_rows WHERE lo >= ${SIDE_ROWID_BASE}`).pluck();
    this.deleteRange = db.prepare("DELETE FROM search_text WHERE rowid BETWEEN ? AND ?");
    this.deleteRanges = db.prepare("DELETE FROM file_rows WHERE file_id = ?");
    this.deleteSpawns = db.prepare("DELETE FROM spawns WHERE file_id = ?");
    this.deleteNotes = db.prepare("DELETE FROM task_notes WHERE file_id = ?");
    this.resetFile = db.prepare(
      `UPDATE files SET size = -1, identity = ?, mtime_ms = 0, indexed_offset = 0, boundary = '', line_count = 0,
         first_time = NULL, last_time = NULL, prompt_count = 0, cwd = NULL, git_branch = NULL,
         custom_title = NULL, ai_title = NULL, first_prompt = NULL
       WHERE id = ?`,
    );
    this.deleteFileRow = db.prepare("DELETE FROM files WHERE id = ?");
    this.sessionUpdate = db.prepare(SESSION_UPDATE);
    this.subagentDerive = db.prepare(SUBAGENT_DERIVE);
    this.sessionFileCount = db.prepare("SELECT count(*) AS n FROM files WHERE session_key = ?");
    this.deleteSessionRows = ["sessions WHERE key", "subagents WHERE session_key", "spawns WHERE session_key", "task_notes WHERE session_key"].map(
      (what) => db.prepare(`DELETE FROM ${what} = ?`),
    );
  }

  /** The key of the session `id` in the project folder `project`, made if new (the caller holds the transaction). */
  sessionKey(project: string, id: string): number {
    this.insertSession.run(project, id);
    return this.findSession.get(project, id)!;
  }

  createFile(path: string, sessionKey: number, agentId: string | null, identity: string): number {
    return Number(this.insertFile.run(path, sessionKey, agentId, identity).lastInsertRowid);
  }

  offsetOf(fileId: number): number | undefined {
    return this.fileOffset.get(fileId)?.indexed_offset;
  }

  facts(fileId: number): FileFacts {
    const r = this.loadFacts.get(fileId) ?? {};
    const s = (k: string): string | null => (typeof r[k] === "string" ? (r[k] as string) : null);
    return {
      firstTime: s("first_time"),
      lastTime: s("last_time"),
      promptCount: typeof r["prompt_count"] === "number" ? r["prompt_count"] : 0,
      cwd: s("cwd"),
      gitBranch: s("git_branch"),
      customTitle: s("custom_title"),
      aiTitle: s("ai_title"),
      firstPrompt: s("first_prompt"),
    };
  }

  /** Writes one batch; the caller holds the IMMEDIATE transaction. */
  writeBatch(
    file: { readonly id: number; readonly sessionKey: number; readonly agentId: string | null },
    batch: Extracted<PackedRows>,
    facts: FileFacts,
    progress: FileProgress,
  ): void {
    const rows = batch.rows;
    if (rows.count > 0) {
      // Rows the extract worker put in the side index are there already: only their chunk is new.
      let lo = rows.sideLo;
      if (lo === undefined) {
        lo = (this.lastRowid.get()?.hi ?? 0) + 1;
        insertTexts(this.insertText, lo, rows);
      }
      this.insertRange.run(lo, lo + rows.count - 1, file.id, rows.baseOffset, rows.baseLine, asBuffer(rows.places));
    }
    for (const s of batch.spawns) this.insertSpawn.run(file.sessionKey, s.toolUseId, file.id, file.agentId);
    for (const r of batch.results) this.updateSpawnResult.run(r.status, file.sessionKey, r.toolUseId);
    for (const n of batch.notified) this.insertNote.run(file.sessionKey, n.agentId, n.status, file.id);
    this.saveProgress.run({ id: file.id, offset: progress.offset, lineCount: progress.lineCount, boundary: progress.boundary, ...facts });
    if (progress.stat) this.saveStat.run(progress.stat.size, progress.stat.mtimeMs, progress.stat.identity, file.id);
  }

  upsertSubagentMeta(sessionKey: number, meta: SubagentMeta): void {
    this.upsertSubagent.run({ sessionKey, ...meta });
  }

  /**
   * Removes everything a file contributed; `identity` undefined deletes the file row too. Its rows
   * in the side index are another file's to delete: their ranges are added to `sideRanges`, for
   * the caller to delete once this transaction has committed.
   */
  clearFile(fileId: number, sideRanges: RowRange[], identity?: string): void {
    for (const r of this.rangesOf.all(fileId)) {
      if (r.lo >= SIDE_ROWID_BASE) sideRanges.push(r);
      else this.deleteRange.run(r.lo, r.hi);
    }
    this.deleteRanges.run(fileId);
    this.deleteSpawns.run(fileId);
    this.deleteNotes.run(fileId);
    if (identity === undefined) this.deleteFileRow.run(fileId);
    else this.resetFile.run(identity, fileId);
  }

  /** Makes every file with rows in the side index be read again (the caller holds the transaction). */
  resetSideFiles(): void {
    const gone: RowRange[] = []; // in a side index that no longer holds them
    for (const fileId of this.sideFiles.all()) this.clearFile(fileId, gone, "");
  }

  /** Re-derives a session's row (or deletes it when its files are gone) and its subagents' status. */
  refreshSession(sessionKey: number): void {
    if ((this.sessionFileCount.get(sessionKey)?.n ?? 0) === 0) {
      for (const stmt of this.deleteSessionRows) stmt.run(sessionKey);
      return;
    }
    this.subagentDerive.run(sessionKey);
    this.sessionUpdate.run({ key: sessionKey });
  }
}

const SESSION_UPDATE = `
  UPDATE sessions SET
    cwd = (SELECT cwd FROM files WHERE session_key = @key AND cwd IS NOT NULL ORDER BY agent_id IS NOT NULL LIMIT 1),
    title = (SELECT coalesce(custom_title, ai_title, first_prompt) FROM files WHERE session_key = @key AND agent_id IS NULL),
    git_branch = (SELECT git_branch FROM files WHERE session_key = @key AND git_branch IS NOT NULL ORDER BY agent_id IS NOT NULL LIMIT 1),
    first_time = (SELECT min(first_time) FROM files WHERE session_key = @key),
    last_time = (SELECT max(last_time) FROM files WHERE session_key = @key),
    prompt_count = (SELECT coalesce(sum(prompt_count), 0) FROM files WHERE session_key = @key AND agent_id IS NULL),
    subagent_count = (SELECT count(*) FROM subagents WHERE session_key = @key),
    size = (SELECT coalesce(sum(max(size, 0)), 0) FROM files WHERE session_key = @key)
  WHERE key = @key`;

// A nested agent's parent is whoever made the Agent tool_use its meta.json names: meta.json
// itself names no parent agent.
const SUBAGENT_DERIVE = `
  UPDATE subagents SET
    parent_agent_id = (SELECT p.spawner_agent_id FROM spawns p
                       WHERE p.session_key = subagents.session_key AND p.tool_use_id = subagents.tool_use_id),
    status = CASE WHEN stopped_by_user = 1 THEN 'stopped' ELSE coalesce(
      (SELECT n.status FROM task_notes n WHERE n.session_key = subagents.session_key AND n.task_id = subagents.agent_id
       ORDER BY n.rowid DESC LIMIT 1),
      (SELECT coalesce(p.result_status, 'running') FROM spawns p
       WHERE p.session_key = subagents.session_key AND p.tool_use_id = subagents.tool_use_id),
      'unknown') END
  WHERE session_key = ?`;

// Full-text search over the index, best first (bm25), with a highlighted snippet cut from the
// row's text as its transcript holds it (the index keeps no copy).
import type Database from "better-sqlite3";
import type { RowKind } from "./extract.js";
import { parseQuery, toFtsQuery, type QueryPhrase } from "./ftsQuery.js";
import { rowText } from "./rowText.js";
import { snippetOf } from "./snippet.js";

export const HIGHLIGHT_OPEN = "«";
export const HIGHLIGHT_CLOSE = "»";

export interface SearchOptions {
  readonly limit?: number;
  /** Only hits in this session. */
  readonly sessionId?: string;
}

export interface SearchHit {
  readonly sessionId: string;
  readonly sessionTitle: string | null;
  readonly project: string | null;
  readonly cwd: string | null;
  /** Set when the hit is inside a subagent's sidechain. */
  readonly subagent: { readonly agentId: string; readonly description: string | null; readonly agentType: string | null } | null;
  readonly time: string | null;
  readonly kind: RowKind;
  /** `<line>#<event>` inside the file: where to scroll to. */
  readonly ref: string;
  /** Text around the match; matched words are wrapped in « ». */
  readonly snippet: string;
  readonly score: number;
}

interface HitRow {
  id: number;
  path: string;
  line_offset: number;
  session_id: string;
  agent_id: string | null;
  kind: RowKind;
  time: string | null;
  ref: string;
  score: number;
  title: string | null;
  project: string | null;
  cwd: string | null;
  description: string | null;
  agent_type: string | null;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 500;
/** Words in a snippet, as FTS5's snippet() was asked for. */
const SNIPPET_WORDS = 16;
const MARKS = { open: HIGHLIGHT_OPEN, close: HIGHLIGHT_CLOSE, ellipsis: "…" };

/**
 * Ranking every match of a very common word over gigabytes of history takes seconds, so bm25
 * ranks the most recent WINDOW matches (newest rowids; files are indexed oldest first). Rarer
 * queries have fewer matches than this and are ranked in full.
 */
export const MATCH_WINDOW = 2000;

export class Searcher {
  private readonly all: Database.Statement;
  private readonly inSession: Database.Statement;

  constructor(db: Database.Database) {
    this.all = db.prepare(sql(false));
    this.inSession = db.prepare(sql(true));
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(options.limit ?? DEFAULT_LIMIT)));
    const phrases = parseQuery(query);
    const params = { match: toFtsQuery(phrases), limit, window: MATCH_WINDOW };
    const rows = (
      options.sessionId !== undefined
        ? this.inSession.all({ ...params, sessionId: options.sessionId })
        : this.all.all(params)
    ) as HitRow[];
    return rows.map((r) => toHit(r, snippet(r, phrases)));
  }
}

/** The hit's snippet; empty when its transcript no longer holds the row (changed since indexed). */
function snippet(r: HitRow, phrases: readonly QueryPhrase[]): string {
  const text = rowText({ path: r.path, offset: r.line_offset, ref: r.ref });
  return text === undefined ? "" : (snippetOf(text, phrases, SNIPPET_WORDS, MARKS) ?? "");
}

/**
 * Ranks first, then reads the shown rows: the window's bm25 needs only the index and the docsize
 * table. Each row's kind, time and ref live in `search_rows` (same rowid) and its session and
 * subagent in the file it was read from, read for the `limit` rows kept. A session filter joins
 * them inside the window; CROSS JOIN keeps the MATCH as the outer loop.
 */
function sql(sessionFilter: boolean): string {
  const ranked = sessionFilter
    ? `SELECT x.rowid AS id, bm25(search_text) AS score FROM search_text x
         CROSS JOIN search_rows xr ON xr.id = x.rowid CROSS JOIN files xf ON xf.id = xr.file_id
       WHERE search_text MATCH @match AND xf.session_id = @sessionId
       ORDER BY x.rowid DESC LIMIT @window`
    : `SELECT rowid AS id, bm25(search_text) AS score FROM search_text WHERE search_text MATCH @match
       ORDER BY rowid DESC LIMIT @window`;
  return `
    SELECT t.id, f.path, r.line_offset, f.session_id, f.agent_id, r.kind, r.time, r.ref, t.score,
           s.title, s.project, s.cwd, a.description, a.agent_type
    FROM (SELECT * FROM (${ranked}) ORDER BY score LIMIT @limit) t
    JOIN search_rows r ON r.id = t.id
    JOIN files f ON f.id = r.file_id
    LEFT JOIN sessions s ON s.id = f.session_id
    LEFT JOIN subagents a ON a.session_id = f.session_id AND a.agent_id = f.agent_id
    ORDER BY t.score`;
}

function toHit(r: HitRow, snippet: string): SearchHit {
  return {
    sessionId: r.session_id,
    sessionTitle: r.title,
    project: r.project,
    cwd: r.cwd,
    subagent: r.agent_id !== null ? { agentId: r.agent_id, description: r.description, agentType: r.agent_type } : null,
    time: r.time,
    kind: r.kind,
    ref: r.ref,
    snippet,
    score: r.score,
  };
}

// Full-text search over the index, best first (bm25), with a highlighted snippet.
import type Database from "better-sqlite3";
import type { RowKind } from "./extract.js";
import { toFtsQuery } from "./ftsQuery.js";

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
/**
 * Ranking every match of a very common word over gigabytes of history takes seconds, so bm25
 * ranks the most recent WINDOW matches (newest rowids; files are indexed oldest first). Rarer
 * queries have fewer matches than this and are ranked in full.
 */
export const MATCH_WINDOW = 2000;

export class Searcher {
  private readonly all: Database.Statement;
  private readonly inSession: Database.Statement;
  private readonly snippet: Database.Statement<{ match: string; id: number; open: string; close: string }, string>;

  constructor(db: Database.Database) {
    this.all = db.prepare(sql(""));
    this.inSession = db.prepare(sql("AND session_id = @sessionId"));
    this.snippet = db
      .prepare<{ match: string; id: number; open: string; close: string }, string>(
        "SELECT snippet(search_text, 0, @open, @close, '…', 16) FROM search_text WHERE search_text MATCH @match AND rowid = @id",
      )
      .pluck();
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(options.limit ?? DEFAULT_LIMIT)));
    const match = toFtsQuery(query);
    const params = { match, limit, window: MATCH_WINDOW };
    const rows = (
      options.sessionId !== undefined
        ? this.inSession.all({ ...params, sessionId: options.sessionId })
        : this.all.all(params)
    ) as HitRow[];
    // Snippets only for the rows shown: each is one rowid lookup.
    return rows.map((r) =>
      toHit(r, this.snippet.get({ match, id: r.id, open: HIGHLIGHT_OPEN, close: HIGHLIGHT_CLOSE }) ?? ""),
    );
  }
}

function sql(filter: string): string {
  return `
    SELECT t.id, t.session_id, t.agent_id, t.kind, t.time, t.ref, t.score,
           s.title, s.project, s.cwd, a.description, a.agent_type
    FROM (
      SELECT * FROM (
        SELECT rowid AS id, session_id, agent_id, kind, time, ref, bm25(search_text) AS score
        FROM search_text WHERE search_text MATCH @match ${filter}
        ORDER BY rowid DESC LIMIT @window
      ) ORDER BY score LIMIT @limit
    ) t
    LEFT JOIN sessions s ON s.id = t.session_id
    LEFT JOIN subagents a ON a.session_id = t.session_id AND a.agent_id = t.agent_id
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

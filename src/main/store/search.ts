// Full-text search over the index, best first (bm25), with a highlighted snippet cut from the
// row's text as its transcript holds it (the index keeps no copy).
import type Database from "better-sqlite3";
import { refOf, type RowKind, type TextRow } from "./extract.js";
import { parseQuery, toFtsQuery, type QueryPhrase } from "./ftsQuery.js";
import { decodePlace, PLACE_BYTES, type RowPlace } from "./rowPlaces.js";
import { readRow } from "./rowText.js";
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
  base_offset: number;
  base_line: number;
  place: Buffer;
  session_id: string;
  agent_id: string | null;
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
    const hits: SearchHit[] = [];
    for (const r of rows) {
      const place = decodePlace(r.place, r.base_offset, r.base_line);
      if (place !== undefined) hits.push(toHit(r, place, readRow(r.path, place), phrases));
    }
    return hits;
  }
}

/**
 * Ranks first, then reads the shown rows: the window's bm25 needs only the index and the docsize
 * table. A row's chunk is the file_rows entry with the greatest `lo` not past its rowid; it gives
 * the file (so the session and subagent) and the row's place. A session filter looks the chunk up
 * for each match inside the window; CROSS JOIN keeps the MATCH as the outer loop.
 */
function sql(sessionFilter: boolean): string {
  const chunkOf = (rowid: string): string => `(SELECT lo FROM file_rows WHERE lo <= ${rowid} ORDER BY lo DESC LIMIT 1)`;
  const ranked = sessionFilter
    ? `SELECT x.rowid AS id, bm25(search_text) AS score FROM search_text x
         CROSS JOIN file_rows xr ON xr.lo = ${chunkOf("x.rowid")} CROSS JOIN files xf ON xf.id = xr.file_id
       WHERE search_text MATCH @match AND xf.session_id = @sessionId
       ORDER BY x.rowid DESC LIMIT @window`
    : `SELECT rowid AS id, bm25(search_text) AS score FROM search_text WHERE search_text MATCH @match
       ORDER BY rowid DESC LIMIT @window`;
  return `
    SELECT t.id, f.path, r.base_offset, r.base_line, substr(r.places, (t.id - r.lo) * ${PLACE_BYTES} + 1, ${PLACE_BYTES}) AS place,
           f.session_id, f.agent_id, t.score, s.title, s.project, s.cwd, a.description, a.agent_type
    FROM (SELECT * FROM (${ranked}) ORDER BY score LIMIT @limit) t
    JOIN file_rows r ON r.lo = ${chunkOf("t.id")}
    JOIN files f ON f.id = r.file_id
    LEFT JOIN sessions s ON s.id = f.session_id
    LEFT JOIN subagents a ON a.session_id = f.session_id AND a.agent_id = f.agent_id
    ORDER BY t.score`;
}

/**
 * A hit names its row's kind and ref from the index; its time and snippet come from the row as its
 * transcript holds it, and are empty when the file changed since it was indexed.
 */
function toHit(r: HitRow, place: RowPlace, row: TextRow | undefined, phrases: readonly QueryPhrase[]): SearchHit {
  return {
    sessionId: r.session_id,
    sessionTitle: r.title,
    project: r.project,
    cwd: r.cwd,
    subagent: r.agent_id !== null ? { agentId: r.agent_id, description: r.description, agentType: r.agent_type } : null,
    time: row?.time ?? null,
    kind: place.kind,
    ref: refOf(place),
    snippet: row === undefined ? "" : (snippetOf(row.text, phrases, SNIPPET_WORDS, MARKS) ?? ""),
    score: r.score,
  };
}

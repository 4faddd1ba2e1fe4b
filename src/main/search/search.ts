// Full-text search over the index, best first (bm25), with a highlighted snippet cut from the
// row's text as its transcript holds it (the index keeps no copy). The index's rows are in two
// full-text tables, its own and the side index's (sideIndex.ts): both are searched, on a reading
// connection that has the side file attached. A long text is several rows of the full-text index
// (its pieces, textPieces.ts): a hit is one text, shown by its best piece. A hit names its session
// by project folder and id, and the file it is in.
import path from "node:path";
import type Database from "better-sqlite3";
import { refOf, ROW_KINDS, type RowKind } from "./extract.js";
import { parseQuery, toFtsQuery, type QueryPhrase } from "./ftsQuery.js";
import { decodePlace, PLACE_BYTES, ROW_PLACE_BYTES, type RowPlace } from "./rowPlaces.js";
import type { ClientEvent } from "../../shared/events.js";
import { toolUseBefore, type ToolUseSeen } from "../history/index.js";
import { readRowSource, type RowSource } from "./rowText.js";
import { SIDE_ROWID_BASE } from "./sideIndex.js";
import { snippetOf } from "./snippet.js";
import { sessionTitle } from "../../shared/sessionTitle.js";

export const HIGHLIGHT_OPEN = "«";
export const HIGHLIGHT_CLOSE = "»";

export interface SearchOptions {
  readonly limit?: number;
  /** Only hits in this session (in `project`, or in every project folder that has a session by this id). */
  readonly sessionId?: string;
  /** With `sessionId`: the session's project folder. */
  readonly project?: string;
  /**
   * Only hits in files under this history folder. One index can hold several folders (the app's
   * history folder can be changed; `--projects-dir` indexes another), and a hit from a folder not
   * in use could not be opened.
   */
  readonly projectsDir?: string;
}

export interface SearchHit {
  readonly sessionId: string;
  readonly sessionTitle: string | null;
  /** The session's project folder (its name): with the id, what names the session. */
  readonly project: string;
  readonly cwd: string | null;
  /** The transcript the match is in: the session's main file or a subagent's sidechain. */
  readonly file: string;
  /** Set when the hit is inside a subagent's sidechain. */
  readonly subagent: { readonly agentId: string; readonly description: string | null; readonly agentType: string | null } | null;
  readonly time: string | null;
  readonly kind: RowKind;
  /** `<line>#<event>` inside the file: where to scroll to. */
  readonly ref: string;
  /** Byte offset of the hit's line in `file` (the window finds its block from it: history/hitPlaces.ts). */
  readonly offset: number;
  /**
   * A tool input's or output's tool: its name, and an Agent call's description. An output's call is
   * looked for a little way before it in its file (history/lineAt.ts); null when not found.
   */
  readonly tool: ToolUseSeen | null;
  /** Text around the match; matched words are wrapped in « ». */
  readonly snippet: string;
  readonly score: number;
}

interface HitRow {
  id: number;
  lo: number;
  path: string;
  base_offset: number;
  base_line: number;
  place: Buffer;
  session_id: string;
  agent_id: string | null;
  score: number;
  title: string | null;
  project: string;
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

/** Rows in each full-text table, as of a data_version of the reading connection. */
interface RowCounts {
  readonly version: number;
  readonly main: number;
  readonly side: number;
}

export class Searcher {
  private readonly all: Database.Statement;
  private readonly inSession: Database.Statement;
  private readonly inFolder: Database.Statement;
  private readonly version: Database.Statement<[], number>;
  private readonly rowCounts: Database.Statement<[], { main: number; side: number }>;
  private readonly filesOutside: Database.Statement<{ root: string }, number>;
  private counts: RowCounts | undefined;
  /** Whether the index holds files outside a folder, as of a data_version. */
  private outside: { readonly version: number; readonly root: string; readonly any: boolean } | undefined;

  /** `db` reads the index, with the side file attached as `side`. */
  constructor(db: Database.Database) {
    this.all = db.prepare(sql("none"));
    this.inSession = db.prepare(sql("session"));
    this.inFolder = db.prepare(sql("folder"));
    this.filesOutside = db.prepare<{ root: string }, number>("SELECT EXISTS (SELECT 1 FROM files WHERE substr(path, 1, length(@root)) <> @root)").pluck();
    this.version = db.prepare<[], number>("SELECT data_version FROM pragma_data_version").pluck();
    this.rowCounts = db.prepare(
      `SELECT coalesce(sum(CASE WHEN lo < ${SIDE_ROWID_BASE} THEN hi - lo + 1 END), 0) AS main,
              coalesce(sum(CASE WHEN lo >= ${SIDE_ROWID_BASE} THEN hi - lo + 1 END), 0) AS side
       FROM file_rows`,
    );
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(options.limit ?? DEFAULT_LIMIT)));
    const phrases = parseQuery(query);
    const match = toFtsQuery(phrases);
    const root = options.projectsDir === undefined ? undefined : path.resolve(options.projectsDir) + path.sep;
    const windows = this.windows(options.sessionId !== undefined);
    const ranked = (fetch: number): HitRow[] =>
      (options.sessionId !== undefined
        ? this.inSession.all({ match, fetch, ...windows, sessionId: options.sessionId, project: options.project ?? null })
        : root !== undefined && this.holdsOtherFolders(root)
          ? this.inFolder.all({ match, fetch, ...windows, root })
          : this.all.all({ match, fetch, ...windows })) as HitRow[];
    const hits: SearchHit[] = [];
    for (const r of texts(ranked, limit, windows.window + windows.sideWindow)) {
      const place = decodePlace(r.place, r.base_offset, r.base_line);
      if (place !== undefined) hits.push(toHit(r, place, readRowSource(r.path, place), phrases));
    }
    return hits;
  }

  /** Whether some indexed file lies outside `root`: only then must a search look at each match's file. */
  private holdsOtherFolders(root: string): boolean {
    const version = this.version.get()!;
    if (this.outside?.version !== version || this.outside.root !== root) this.outside = { version, root, any: this.filesOutside.get({ root }) === 1 };
    return this.outside.any;
  }

  /**
   * The recency window of each table. Over all history it is shared by the tables' sizes, so each
   * ranks its newest matches about as far back in time as the other (the worker writes side rows
   * all along a large run). One session's rows may all be in one table, so each gets a whole
   * window there: a session's matches are few next to all history's.
   */
  private windows(inSession: boolean): { window: number; sideWindow: number } {
    const version = this.version.get()!;
    if (this.counts?.version !== version) this.counts = { version, ...this.rowCounts.get()! };
    const { main, side } = this.counts;
    if (side === 0) return { window: MATCH_WINDOW, sideWindow: 0 };
    if (inSession) return { window: MATCH_WINDOW, sideWindow: MATCH_WINDOW };
    const sideWindow = Math.round((MATCH_WINDOW * side) / (main + side));
    return { window: MATCH_WINDOW - sideWindow, sideWindow };
  }
}

/**
 * The best `limit` texts of the ranked matches, each once: the pieces of one long text (places
 * alike but for the piece) are one hit, its best piece. Most texts are one piece, so the first
 * fetch of twice `limit` matches nearly always holds `limit` texts; else a larger one follows, up
 * to every match of the window (`most`).
 */
function texts(ranked: (fetch: number) => HitRow[], limit: number, most: number): HitRow[] {
  for (let fetch = limit * 2; ; fetch *= 4) {
    const rows = ranked(fetch);
    const seen = new Set<string>();
    const out: HitRow[] = [];
    for (const r of rows) {
      const key = `${r.lo}:${r.place.subarray(0, ROW_PLACE_BYTES).toString("hex")}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(r);
      if (out.length === limit) return out;
    }
    if (rows.length < fetch || fetch >= most) return out;
  }
}

/** A project row's place, as its kind-and-nth byte reads (rowPlaces.ts; a project row is its line's only row). */
const PROJECT_KIND_BYTE = `x'${ROW_KINDS.indexOf("project").toString(16).padStart(2, "0")}'`;

/**
 * Ranks first, then reads the shown rows: the window's bm25 needs only the index and the docsize
 * table. A row's chunk is the file_rows entry with the greatest `lo` not past its rowid; it gives
 * the file (so the session and subagent) and the row's place. A session or folder filter looks the
 * chunk up for each match as the window is filled; CROSS JOIN keeps the MATCH as the outer loop.
 *
 * Every match of the window is then placed in its chunk, and the best `@fetch` are read; `texts`
 * keeps each text once (grouping the window in SQL, by a slice of each place, cost more than the
 * rest of a search). A project folder's name matches every session of the project, so such hits
 * come after all others.
 *
 * Side rows are checked against their chunk's range as they are ranked: a run that stopped
 * between the worker's commit and the writer's left side rows no chunk names (sideIndex.ts). bm25
 * scores a table by its own statistics; the side table holds rows from the same history, so its
 * word frequencies, and so the two tables' scores, are alike.
 */
function sql(filter: "none" | "session" | "folder"): string {
  const chunkOf = (rowid: string): string => `(SELECT lo FROM file_rows WHERE lo <= ${rowid} ORDER BY lo DESC LIMIT 1)`;
  const rank = (table: string, window: string, checkChunk: boolean): string => {
    if (filter === "none" && !checkChunk) {
      return `SELECT rowid AS id, bm25(${table}) AS score FROM ${table} WHERE ${table} MATCH @match
              ORDER BY rowid DESC LIMIT ${window}`;
    }
    const files = "CROSS JOIN files xf ON xf.id = xr.file_id";
    const inSession =
      filter === "session"
        ? `${files} AND xf.session_key IN (SELECT key FROM sessions WHERE id = @sessionId AND (@project IS NULL OR project = @project))`
        : filter === "folder"
          ? `${files} AND substr(xf.path, 1, length(@root)) = @root`
          : "";
    return `SELECT x.rowid AS id, bm25(${table}) AS score FROM ${table} x
              CROSS JOIN file_rows xr ON xr.lo = ${chunkOf("x.rowid")} ${inSession}
            WHERE ${table} MATCH @match AND x.rowid <= xr.hi
            ORDER BY x.rowid DESC LIMIT ${window}`;
  };
  const ranked = `SELECT * FROM (${rank("search_text", "@window", false)}) UNION ALL SELECT * FROM (${rank("side_text", "@sideWindow", true)})`;
  const order = `substr(t.place, ${ROW_PLACE_BYTES - 3}, 1) = ${PROJECT_KIND_BYTE}, t.score`;
  return `
    WITH placed AS (
      SELECT w.id, w.score, r.lo, substr(r.places, (w.id - r.lo) * ${PLACE_BYTES} + 1, ${PLACE_BYTES}) AS place
      FROM (${ranked}) w JOIN file_rows r ON r.lo = ${chunkOf("w.id")}
    )
    SELECT t.id, t.lo, f.path, r.base_offset, r.base_line, t.place, s.id AS session_id, f.agent_id, t.score, s.title, s.project, s.cwd,
           a.description, a.agent_type
    FROM (SELECT * FROM placed t ORDER BY ${order} LIMIT @fetch) t
    JOIN file_rows r ON r.lo = t.lo
    JOIN files f ON f.id = r.file_id
    JOIN sessions s ON s.key = f.session_key
    LEFT JOIN subagents a ON a.session_key = f.session_key AND a.agent_id = f.agent_id
    ORDER BY ${order}`;
}

/**
 * A hit names its row's kind and ref from the index; its time, snippet and tool come from the row as
 * its transcript holds it, and are empty when the file changed since it was indexed.
 */
function toHit(r: HitRow, place: RowPlace, source: RowSource | undefined, phrases: readonly QueryPhrase[]): SearchHit {
  const row = source?.row;
  return {
    sessionId: r.session_id,
    // The session's one title, as its list entry and tab show it (the index kept the first of its titles).
    sessionTitle: sessionTitle({ customTitle: r.title ?? undefined }, r.session_id).title,
    project: r.project,
    cwd: r.cwd,
    file: r.path,
    subagent: r.agent_id !== null ? { agentId: r.agent_id, description: r.description, agentType: r.agent_type } : null,
    time: row?.time ?? null,
    kind: place.kind,
    ref: refOf(place),
    offset: place.offset,
    tool: toolOf(r.path, place.offset, source?.event) ?? null,
    snippet: row === undefined ? "" : (snippetOf(row.text, phrases, SNIPPET_WORDS, MARKS) ?? ""),
    score: r.score,
  };
}

/** The tool a tool input or output row belongs to. */
function toolOf(file: string, offset: number, event: ClientEvent | undefined): ToolUseSeen | undefined {
  if (event?.kind === "tool_result") return toolUseBefore(file, offset, event.toolUseId);
  if (event?.kind !== "assistant_block" || !("name" in event.block) || typeof event.block.name !== "string") return undefined;
  const input = "input" in event.block ? event.block.input : undefined;
  const description = input !== null && typeof input === "object" && !Array.isArray(input) ? input["description"] : undefined;
  return { name: event.block.name, ...(typeof description === "string" && description !== "" ? { description } : {}) };
}

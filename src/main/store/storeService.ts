// The store as one object on one thread: the worker wraps it, tests can use it directly. Owns the
// index's connections (the index, its side file, and a reader over both for search) and the audit
// trail's; index runs are serialised, searches may run between an index run's batches.
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import type { AuditFork, AuditInterrupt, AuditOrchestration, AuditPermission, AuditPolicyRecord, AuditRewind, SessionTrail } from "../audit/audit.js";
import { AuditDatabase, type AuditInfo } from "../audit/auditDatabase.js";
import { AUDIT_FILE_NAME, auditDbPath, checkDbPath } from "../platform/dbPath.js";
import { isBusy, isCorruption, sqliteFault, StoreError, toErrorInfo, type StoreErrorInfo } from "../platform/sqlite/errors.js";
import { Indexer, type IndexerOptions, type IndexReport } from "../search/indexer.js";
import { schemaVersion } from "../platform/sqlite/migrate.js";
import { BUSY_TIMEOUT_MS } from "../platform/sqlite/busyTimeout.js";
import { connect, moveAside, openDatabase, openReader, type OpenedDatabase } from "../platform/sqlite/openDatabase.js";
import { REBUILT_AT } from "../search/migrations/m006SessionsByProject.js";
import { LATEST_VERSION } from "../search/migrations/index.js";
import { IndexSchema } from "../search/indexSchema.js";
import { Searcher, type SearchHit, type SearchOptions } from "../search/search.js";
import { listSessions, listSubagents, type ListSessionsOptions, type SessionSummary, type SubagentSummary } from "../search/sessions.js";
import { indexedSessions, type IndexedSession } from "../search/indexedSessions.js";
import { SideIndex } from "../search/sideIndex.js";
import type { DivertPolicy } from "../search/extractProtocol.js";

export interface StoreInfo {
  readonly dbPath: string;
  /** The index's schema version; null when it was refused. */
  readonly schemaVersion: number | null;
  /** Why the index is not open (a newer Baton's file, left untouched); null when it is. */
  readonly refused: StoreErrorInfo | null;
  /**
   * Why the index is not open yet: another program held it locked (`busy`) or its disk was full
   * (`disk_full`). Unlike a refusal this passes: the next index or search call opens it again.
   */
  readonly waiting: StoreErrorInfo | null;
  /**
   * An index a newer Baton wrote at the path asked for, left untouched: this store keeps its own at
   * `dbPath` beside it (StoreServiceOptions.besideNewerIndex). Null when it did not meet one.
   */
  readonly newerIndex: { readonly path: string; readonly schemaVersion: number } | null;
  /** Where a damaged database was moved, if that happened since open. */
  readonly movedAsideTo: string | null;
  /** Why the index at open was moved aside other than for damage (a development build's file). */
  readonly retired: string | null;
  /**
   * The schema version of an index this open upgraded to one that holds nothing yet (every history
   * file is read again by the next index run); null when it did not.
   */
  readonly upgradedFrom: number | null;
  /** The audit trail's own file (audit.sqlite beside the index). */
  readonly audit: AuditInfo;
}

export interface IndexRunOptions {
  /**
   * How long this run's writes wait for a lock another program holds (default BUSY_TIMEOUT_MS). A
   * retry passes a short one: the store's thread sleeps while it waits, and searches wait with it.
   */
  readonly lockWaitMs?: number;
}

export interface IndexResult extends IndexReport {
  readonly movedAsideTo: string | null;
}

export interface StoreServiceOptions {
  readonly dbPath: string;
  /** The audit trail's file; default audit.sqlite beside `dbPath`. */
  readonly auditPath?: string;
  /** Bytes of transcript per write transaction (smaller in tests to exercise batching). */
  readonly batchBytes?: number;
  /** Runs reading at least this many bytes parse on an extract worker (0 in tests to use it always). */
  readonly parallelBytes?: number;
  /** When that worker writes rows into the side index itself (sideIndex.ts); default "lagging". */
  readonly divert?: DivertPolicy;
  /** How that worker takes over from the store's thread (tests start it at the first job). */
  readonly workerRead?: IndexerOptions["workerRead"];
  /**
   * An index written by a newer Baton is refused and left untouched. By default that refuses the
   * whole store; with this, the audit trail (its own file) stays open and only the index calls
   * fail, so the app keeps recording decisions while search is off.
   */
  readonly auditWhenIndexRefused?: boolean;
  /**
   * An index written by a newer Baton is left untouched; with this, instead of refusing it, this
   * Baton keeps its own beside it (`history.schema<N>.db`, built from the history files: the index
   * is a cache), so search works. The app does; `--db` on the command line names one file, refused.
   */
  readonly besideNewerIndex?: boolean;
}

/** The open index: its connection, its side file, a reading connection with both, and what uses them. */
interface Index {
  readonly db: Database.Database;
  readonly side: SideIndex;
  readonly reader: Database.Database;
  readonly indexer: Indexer;
  readonly searcher: Searcher;
}

/** What the index's callers are told when a lock held elsewhere or a full disk stopped them. */
const INDEXING_AFTER = "the index answers searches as before, and the next index run goes on from where this one stopped";
const READING_AFTER = "try again once it lets go";

export class StoreService {
  private opened: Index | undefined;
  private refused: StoreError | undefined;
  /** The index was locked by another program (or its disk full) when it was opened: opened at the next call. */
  private waiting: StoreError | undefined;
  private movedAsideTo: string | null = null;
  private retired: string | null = null;
  private upgradedFrom: number | null = null;
  private newerIndex: StoreInfo["newerIndex"] = null;
  private readonly audit: AuditDatabase;
  private indexing: Promise<unknown> = Promise.resolve();
  /** The history folder the last index run read: a damaged index found by a query is rebuilt from it. */
  private lastProjectsDir: string | undefined;
  private closed = false;
  /** The index in use: the path asked for, or this Baton's own beside a newer Baton's. */
  private indexPath: string;

  constructor(private readonly options: StoreServiceOptions) {
    this.indexPath = checkDbPath(options.dbPath);
    const auditPath = checkDbPath(options.auditPath ?? auditDbPath(this.dbPath));
    if (auditPath === this.dbPath) throw new StoreError("forbidden_path", `${AUDIT_FILE_NAME} is Baton's audit trail, not an index; choose another --db`);
    // The trail opens first and on its own: its failure costs the trail, never search.
    this.audit = new AuditDatabase(auditPath);
    try {
      this.openIndexOrBeside();
    } catch (err) {
      // A newer Baton's index (or side file) is left untouched.
      if (options.auditWhenIndexRefused === true && err instanceof StoreError && err.code === "newer_schema") {
        this.refused = err;
        return;
      }
      // Locked by another program, or no room on its disk for the WAL: the trail works, the index
      // opens at its next call.
      if (err instanceof StoreError && (err.code === "busy" || err.code === "disk_full")) {
        this.waiting = err;
        return;
      }
      this.audit.close();
      throw err;
    }
  }

  get dbPath(): string {
    return this.indexPath;
  }

  /** Opens the index; one a newer Baton wrote is left as it is and, when asked, this Baton's own opened beside it. */
  private openIndexOrBeside(): void {
    try {
      this.openIndex();
    } catch (err) {
      const newer = err instanceof StoreError && err.code === "newer_schema";
      if (!(this.options.besideNewerIndex === true && newer && this.newerIndex === null)) throw err;
      this.newerIndex = { path: this.indexPath, schemaVersion: peekVersion(this.indexPath) ?? LATEST_VERSION + 1 };
      this.indexPath = besideNewer(this.indexPath);
      this.openIndex();
    }
  }

  /** Opens the index (moving a damaged one aside, upgrading an older one) and what goes with it. */
  private openIndex(): Index {
    try {
      const existed = fs.existsSync(this.dbPath);
      const versionBefore = existed ? peekVersion(this.dbPath) : undefined;
      const opened = openDatabase(this.dbPath, IndexSchema);
      // A development build's index held the trail: carry its rows over (the old file is kept too).
      if (opened.retired !== undefined && opened.movedAsideTo !== undefined) this.importRetired(opened.movedAsideTo);
      const upgradedFrom = opened.movedAsideTo === undefined && versionBefore !== undefined && versionBefore > 0 && versionBefore < REBUILT_AT ? versionBefore : null;
      // An upgraded index names no side rows any more: the old side file goes with them.
      this.opened = indexOn(this.dbPath, opened, !existed || upgradedFrom !== null, this.options);
      this.movedAsideTo = opened.movedAsideTo ?? null;
      this.retired = opened.retired ?? null;
      this.upgradedFrom = upgradedFrom;
      this.waiting = undefined;
      return this.opened;
    } catch (err) {
      throw sqliteFault(err, this.dbPath, "opening the search index", "it is opened again at the next index run or search") ?? err;
    }
  }

  info(): StoreInfo {
    this.assertOpen();
    return {
      dbPath: this.dbPath,
      schemaVersion: this.opened === undefined ? null : schemaVersion(this.opened.db),
      refused: this.refused === undefined ? null : toErrorInfo(this.refused),
      waiting: this.waiting === undefined ? null : toErrorInfo(this.waiting),
      newerIndex: this.newerIndex,
      movedAsideTo: this.movedAsideTo,
      retired: this.retired,
      upgradedFrom: this.upgradedFrom,
      audit: this.audit.info(),
    };
  }

  /** Refreshes the index from `projectsDir`; a damaged database is moved aside and rebuilt. */
  index(projectsDir: string, options: IndexRunOptions = {}): Promise<IndexResult> {
    this.lastProjectsDir = projectsDir;
    const run = this.indexing.then(async () => {
      this.assertOpen();
      try {
        try {
          return await this.indexRun(projectsDir, options);
        } catch (err) {
          if (!isCorruption(err)) throw err;
          this.recover();
          return await this.indexRun(projectsDir, options);
        }
      } catch (err) {
        // Every chunk is committed with the offset it reaches, so a stopped run keeps what it wrote.
        throw sqliteFault(err, this.dbPath, "indexing", INDEXING_AFTER) ?? err;
      }
    });
    this.indexing = run.catch(() => undefined);
    return run;
  }

  private async indexRun(projectsDir: string, options: IndexRunOptions): Promise<IndexResult> {
    const index = this.requireIndex();
    const connections = [index.db, index.side.db];
    if (options.lockWaitMs !== undefined) for (const db of connections) db.pragma(`busy_timeout = ${options.lockWaitMs}`);
    try {
      return { ...(await index.indexer.indexProjects(projectsDir)), movedAsideTo: this.movedAsideTo };
    } finally {
      if (options.lockWaitMs !== undefined) for (const db of connections) if (db.open) db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  search(query: string, options?: SearchOptions): SearchHit[] {
    return this.guard(() => this.requireIndex().searcher.search(query, options));
  }

  listSessions(options?: ListSessionsOptions): SessionSummary[] {
    return this.guard(() => listSessions(this.requireIndex().db, options));
  }

  listSubagents(sessionId: string, project?: string): SubagentSummary[] {
    return this.guard(() => listSubagents(this.requireIndex().db, sessionId, project));
  }

  /** What the index knows of the main files under `projectsDir` it read to their end (the session list's warm path). */
  indexedSessions(projectsDir: string): IndexedSession[] {
    return this.guard(() => indexedSessions(this.requireIndex().db, projectsDir));
  }

  /** Appends one permission decision to the audit trail (its own file, one IMMEDIATE transaction). */
  recordPermission(entry: AuditPermission): void {
    this.assertOpen();
    this.audit.recordPermission(entry);
  }

  /** Appends one interrupt Baton sent to the audit trail. */
  recordInterrupt(entry: AuditInterrupt): void {
    this.assertOpen();
    this.audit.recordInterrupt(entry);
  }

  /** Appends one policy verdict to the audit trail. */
  recordPolicyDecision(entry: AuditPolicyRecord): void {
    this.assertOpen();
    this.audit.recordPolicyDecision(entry);
  }

  /** Appends one row of the session DAG (a spawn, a status change, a question, a plan, …) to the audit trail. */
  recordOrchestration(entry: AuditOrchestration): void {
    this.assertOpen();
    this.audit.recordOrchestration(entry);
  }

  /** Records a fork Baton made: the fork's session, the session it continues, the prompt (issue 37). */
  recordFork(entry: AuditFork): void {
    this.assertOpen();
    this.audit.recordFork(entry);
  }

  /** Records a file rewind Baton applied: the session, the prompt rewound to, the files (issue 37). */
  recordRewind(entry: AuditRewind): void {
    this.assertOpen();
    this.audit.recordRewind(entry);
  }

  /** The session's audit trail, oldest first; empty when Baton recorded nothing for it. */
  readAudit(sessionId: string): SessionTrail {
    this.assertOpen();
    return this.audit.readAudit(sessionId);
  }

  /** Every fork Baton recorded. */
  readForks(): AuditFork[] {
    this.assertOpen();
    return this.audit.readForks();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.opened !== undefined) closeIndex(this.opened);
    this.audit.close();
  }

  private importRetired(file: string): void {
    try {
      this.audit.importFrom(file);
    } catch {
      // The trail is unavailable (info().audit says why); the retired file still holds the rows.
    }
  }

  private guard<T>(fn: () => T): T {
    this.assertOpen();
    try {
      return fn();
    } catch (err) {
      if (isBusy(err)) throw sqliteFault(err, this.dbPath, "reading the search index", READING_AFTER)!;
      if (!isCorruption(err)) throw err;
      const movedTo = this.recover();
      // Rebuilt at once from the history files (the JSONL files are the index's source of truth).
      const rebuilding = this.lastProjectsDir !== undefined;
      if (this.lastProjectsDir !== undefined) void this.index(this.lastProjectsDir).catch(() => undefined);
      throw new StoreError(
        "corrupt_recovered",
        `the index was damaged; it was moved to ${movedTo} and a fresh one opened: ` +
          (rebuilding ? "it is being rebuilt from the history files, search again in a moment" : "index again to rebuild it"),
      );
    }
  }

  /** Closes the damaged file, moves it aside and starts a fresh one. */
  private recover(): string {
    closeIndex(this.requireIndex());
    const movedTo = moveAside(this.dbPath);
    this.opened = indexOn(this.dbPath, openDatabase(this.dbPath, IndexSchema), true, this.options);
    this.movedAsideTo = movedTo;
    return movedTo;
  }

  /** The open index (opened now if a lock kept it closed until now), or the refusal that keeps it closed. */
  private requireIndex(): Index {
    if (this.opened !== undefined) return this.opened;
    if (this.waiting !== undefined) {
      this.openIndexOrBeside();
      return this.opened!;
    }
    throw this.refused ?? new StoreError("closed", "the index is not open");
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError("closed", "the store is closed");
  }
}

/** `history.db` → `history.schema<N>.db` in the same folder: this Baton's index beside a newer Baton's. */
export function besideNewer(dbPath: string): string {
  const ext = path.extname(dbPath);
  return `${dbPath.slice(0, dbPath.length - ext.length)}.schema${LATEST_VERSION}${ext}`;
}

/**
 * Opens the side file and the reading connection beside an opened index. A new index (`created`,
 * or moved aside and replaced) starts a new side file; a side file that is new while the index
 * still names side rows makes those rows' files be read again.
 */
function indexOn(dbPath: string, opened: OpenedDatabase, created: boolean, options: StoreServiceOptions): Index {
  const db = opened.db;
  let side: SideIndex | undefined;
  try {
    side = SideIndex.open(dbPath, created || opened.movedAsideTo !== undefined);
    const reader = openReader(dbPath, { side: side.path }, IndexSchema.cacheKiB);
    const indexer = new Indexer(db, indexerOptions(options, side));
    if (side.fresh) indexer.forgetSideRows();
    return { db, side, reader, indexer, searcher: new Searcher(reader) };
  } catch (err) {
    side?.close();
    db.close();
    throw err;
  }
}

/**
 * The schema version of the index file at `dbPath` before it is opened (and maybe migrated);
 * undefined when it cannot be read (damaged: opening moves it aside and says so).
 */
function peekVersion(dbPath: string): number | undefined {
  try {
    const db = connect(dbPath, { fileMustExist: true });
    try {
      return schemaVersion(db);
    } finally {
      db.close();
    }
  } catch (err) {
    // Locked by another program: opening would wait for the same lock, so say so now.
    if (isBusy(err)) throw err;
    return undefined;
  }
}

function closeIndex(index: Index): void {
  index.reader.close();
  index.side.close();
  index.db.close();
}

function indexerOptions(options: StoreServiceOptions, side: SideIndex): IndexerOptions {
  return {
    side,
    ...(options.batchBytes !== undefined ? { batchBytes: options.batchBytes } : {}),
    ...(options.parallelBytes !== undefined ? { parallelBytes: options.parallelBytes } : {}),
    ...(options.divert !== undefined ? { divert: options.divert } : {}),
    ...(options.workerRead !== undefined ? { workerRead: options.workerRead } : {}),
  };
}

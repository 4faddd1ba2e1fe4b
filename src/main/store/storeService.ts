// The store as one object on one thread: the worker wraps it, tests can use it directly. Owns the
// database handle; index runs are serialised, searches may run between an index run's batches.
import type Database from "better-sqlite3";
import type { AuditInterrupt, AuditPermission, SessionAudit } from "./audit.js";
import { AuditDatabase, type AuditInfo } from "./auditDatabase.js";
import { AUDIT_FILE_NAME, auditDbPath, checkDbPath } from "./dbPath.js";
import { isCorruption, StoreError } from "./errors.js";
import { Indexer, type IndexerOptions, type IndexReport } from "./indexer.js";
import { schemaVersion } from "./migrate.js";
import { moveAside, openDatabase } from "./openDatabase.js";
import { Searcher, type SearchHit, type SearchOptions } from "./search.js";
import { listSessions, listSubagents, type ListSessionsOptions, type SessionSummary, type SubagentSummary } from "./sessions.js";

export interface StoreInfo {
  readonly dbPath: string;
  readonly schemaVersion: number;
  /** Where a damaged database was moved, if that happened since open. */
  readonly movedAsideTo: string | null;
  /** Why the index at open was moved aside other than for damage (a development build's file). */
  readonly retired: string | null;
  /** The audit trail's own file (audit.sqlite beside the index). */
  readonly audit: AuditInfo;
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
}

export class StoreService {
  private db: Database.Database;
  private indexer: Indexer;
  private searcher: Searcher;
  private movedAsideTo: string | null;
  private readonly retired: string | null;
  private readonly audit: AuditDatabase;
  private indexing: Promise<unknown> = Promise.resolve();
  private closed = false;
  readonly dbPath: string;

  constructor(private readonly options: StoreServiceOptions) {
    this.dbPath = checkDbPath(options.dbPath);
    const auditPath = checkDbPath(options.auditPath ?? auditDbPath(this.dbPath));
    if (auditPath === this.dbPath) throw new StoreError("forbidden_path", `${AUDIT_FILE_NAME} is Baton's audit trail, not an index; choose another --db`);
    // The trail opens first and on its own: its failure costs the trail, never search.
    this.audit = new AuditDatabase(auditPath);
    let opened;
    try {
      opened = openDatabase(this.dbPath);
    } catch (err) {
      this.audit.close();
      throw err;
    }
    this.db = opened.db;
    this.movedAsideTo = opened.movedAsideTo ?? null;
    this.retired = opened.retired ?? null;
    // A development build's index held the trail: carry its rows over (the old file is kept too).
    if (opened.retired !== undefined && opened.movedAsideTo !== undefined) this.importRetired(opened.movedAsideTo);
    this.indexer = new Indexer(this.db, indexerOptions(options));
    this.searcher = new Searcher(this.db);
  }

  info(): StoreInfo {
    this.assertOpen();
    return { dbPath: this.dbPath, schemaVersion: schemaVersion(this.db), movedAsideTo: this.movedAsideTo, retired: this.retired, audit: this.audit.info() };
  }

  /** Refreshes the index from `projectsDir`; a damaged database is moved aside and rebuilt. */
  index(projectsDir: string): Promise<IndexResult> {
    const run = this.indexing.then(async () => {
      this.assertOpen();
      try {
        return { ...(await this.indexer.indexProjects(projectsDir)), movedAsideTo: this.movedAsideTo };
      } catch (err) {
        if (!isCorruption(err)) throw err;
        this.recover();
        return { ...(await this.indexer.indexProjects(projectsDir)), movedAsideTo: this.movedAsideTo };
      }
    });
    this.indexing = run.catch(() => undefined);
    return run;
  }

  search(query: string, options?: SearchOptions): SearchHit[] {
    return this.guard(() => this.searcher.search(query, options));
  }

  listSessions(options?: ListSessionsOptions): SessionSummary[] {
    return this.guard(() => listSessions(this.db, options));
  }

  listSubagents(sessionId: string): SubagentSummary[] {
    return this.guard(() => listSubagents(this.db, sessionId));
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

  /** The session's audit trail, oldest first; empty when Baton recorded nothing for it. */
  readAudit(sessionId: string): SessionAudit {
    this.assertOpen();
    return this.audit.readAudit(sessionId);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
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
      if (!isCorruption(err)) throw err;
      const movedTo = this.recover();
      throw new StoreError(
        "corrupt_recovered",
        `the index was damaged; it was moved to ${movedTo} and a fresh one opened: index again to rebuild it`,
      );
    }
  }

  /** Closes the damaged file, moves it aside and starts a fresh one. */
  private recover(): string {
    this.db.close();
    const movedTo = moveAside(this.dbPath);
    this.db = openDatabase(this.dbPath).db;
    this.indexer = new Indexer(this.db, indexerOptions(this.options));
    this.searcher = new Searcher(this.db);
    this.movedAsideTo = movedTo;
    return movedTo;
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError("closed", "the store is closed");
  }
}

function indexerOptions(options: StoreServiceOptions): IndexerOptions {
  return {
    ...(options.batchBytes !== undefined ? { batchBytes: options.batchBytes } : {}),
    ...(options.parallelBytes !== undefined ? { parallelBytes: options.parallelBytes } : {}),
  };
}

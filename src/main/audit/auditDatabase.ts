// The audit trail's own SQLite file (audit.sqlite beside the index). Its rows are the only record
// of Baton's decisions, so it never shares the index's fate: rebuilding the index leaves it alone,
// and a damaged audit file is moved aside (never deleted) with an error naming where the earlier
// decisions now are. A file from a newer Baton is refused and left untouched, like the index; the
// index and search still work without the trail.
import type Database from "better-sqlite3";
import {
  insertInterrupt,
  insertPermission,
  insertPolicyDecision,
  readSessionAudit,
  insertOrchestration,
  type AuditInterrupt,
  type AuditOrchestration,
  type AuditPermission,
  type AuditPolicyRecord,
  type SessionTrail,
} from "./audit.js";
import { AUDIT_LATEST_VERSION, AUDIT_MIGRATIONS } from "./migrations/index.js";
import { isCorruption, StoreError, toErrorInfo, type StoreErrorInfo } from "../platform/sqlite/errors.js";
import { schemaVersion } from "../platform/sqlite/migrate.js";
import { moveAside, openDatabase, type DatabaseSchema } from "../platform/sqlite/openDatabase.js";

export const AuditSchema: DatabaseSchema = { migrations: AUDIT_MIGRATIONS, latest: AUDIT_LATEST_VERSION, cacheKiB: 2048 };

export interface AuditInfo {
  readonly path: string;
  /** Null when the file could not be opened (see `error`). */
  readonly schemaVersion: number | null;
  /** Set when a damaged audit file was moved aside since open: where it is now. */
  readonly movedAsideTo: string | null;
  /** Why the trail is unavailable (e.g. `newer_schema`); null when it works. */
  readonly error: StoreErrorInfo | null;
}

/** The log line for a damaged audit file: says where the decisions recorded until now went. */
export function auditMovedMessage(auditPath: string, movedTo: string): string {
  return (
    `the audit trail ${auditPath} was damaged: it was moved to ${movedTo} and a fresh one started; ` +
    `the permission decisions and interrupts recorded before are in ${movedTo}`
  );
}

export class AuditDatabase {
  private db: Database.Database | undefined;
  private failure: StoreError | undefined;
  private movedAsideTo: string | null = null;

  constructor(readonly path: string) {
    try {
      const opened = openDatabase(path, AuditSchema);
      this.db = opened.db;
      this.movedAsideTo = opened.movedAsideTo ?? null;
    } catch (err) {
      const info = toErrorInfo(err);
      this.failure = new StoreError(info.code, `the audit trail is unavailable: ${info.message}`);
    }
  }

  info(): AuditInfo {
    return {
      path: this.path,
      schemaVersion: this.db === undefined ? null : schemaVersion(this.db),
      movedAsideTo: this.movedAsideTo,
      error: this.failure === undefined ? null : toErrorInfo(this.failure),
    };
  }

  recordPermission(entry: AuditPermission): void {
    this.use((db) => db.transaction(() => insertPermission(db, entry)).immediate());
  }

  recordInterrupt(entry: AuditInterrupt): void {
    this.use((db) => db.transaction(() => insertInterrupt(db, entry)).immediate());
  }

  recordPolicyDecision(entry: AuditPolicyRecord): void {
    this.use((db) => db.transaction(() => insertPolicyDecision(db, entry)).immediate());
  }

  recordOrchestration(entry: AuditOrchestration): void {
    this.use((db) => db.transaction(() => insertOrchestration(db, entry)).immediate());
  }

  readAudit(sessionId: string): SessionTrail {
    return this.use((db) => readSessionAudit(db, sessionId));
  }

  /** Copies the audit rows of a retired development-build index (see openDatabase.ts). */
  importFrom(file: string): number {
    return this.use((db) => {
      db.prepare("ATTACH DATABASE ? AS retired").run(file);
      try {
        const cols = "session_id, request_id, tool_use_id, agent_id, agent_tool_use_id, tool_name, decision, decided_by, message, time";
        return db
          .transaction(
            () =>
              db.prepare(`INSERT INTO audit_permissions (${cols}) SELECT ${cols} FROM retired.audit_permissions ORDER BY id`).run().changes +
              db.prepare("INSERT INTO audit_interrupts (session_id, time) SELECT session_id, time FROM retired.audit_interrupts ORDER BY id").run().changes,
          )
          .immediate();
      } finally {
        db.prepare("DETACH DATABASE retired").run();
      }
    });
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
    this.failure ??= new StoreError("closed", "the store is closed");
  }

  private use<T>(fn: (db: Database.Database) => T): T {
    if (this.db === undefined) throw this.failure ?? new StoreError("closed", "the store is closed");
    try {
      return fn(this.db);
    } catch (err) {
      if (!isCorruption(err)) throw err;
      throw new StoreError("corrupt_recovered", auditMovedMessage(this.path, this.recover()));
    }
  }

  /** Closes the damaged file, moves it aside (kept: it holds the earlier decisions), starts afresh. */
  private recover(): string {
    this.db?.close();
    this.db = undefined;
    const movedTo = moveAside(this.path);
    this.movedAsideTo = movedTo;
    try {
      this.db = openDatabase(this.path, AuditSchema).db;
    } catch (err) {
      this.failure = new StoreError(toErrorInfo(err).code, `the audit trail is unavailable: ${toErrorInfo(err).message}`);
    }
    return movedTo;
  }
}

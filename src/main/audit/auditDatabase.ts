// The audit trail's own SQLite file (audit.sqlite beside the index). Its rows are the only record
// of Baton's decisions, so it never shares the index's fate: rebuilding the index leaves it alone,
// and a damaged audit file is moved aside (never deleted) with an error naming where the earlier
// decisions now are. A file from a newer Baton is refused and left untouched, like the index; the
// index and search still work without the trail.
//
// A file another program holds locked (another Baton, a database tool) costs no decision: a write
// that waited the busy timeout in vain is kept in memory, with every later one, and they are
// written in order once the lock goes (tried every RETRY_MS, and at each new write). A full disk
// the same, until there is room. The caller is told each time a write had to wait. A file locked
// when Baton opens it is opened the same way.
import type Database from "better-sqlite3";
import {
  insertFork,
  insertInterrupt,
  insertPermission,
  insertPolicyDecision,
  insertRewind,
  readForks,
  readSessionAudit,
  insertOrchestration,
  type AuditFork,
  type AuditInterrupt,
  type AuditOrchestration,
  type AuditPermission,
  type AuditRewind,
  type AuditPolicyRecord,
  type SessionTrail,
} from "./audit.js";
import { AUDIT_LATEST_VERSION, AUDIT_MIGRATIONS } from "./migrations/index.js";
import { isBusy, isCorruption, isDiskFull, StoreError, toErrorInfo, type StoreErrorInfo } from "../platform/sqlite/errors.js";
import { schemaVersion } from "../platform/sqlite/migrate.js";
import { BUSY_TIMEOUT_MS } from "../platform/sqlite/busyTimeout.js";
import { moveAside, openDatabase, type DatabaseSchema } from "../platform/sqlite/openDatabase.js";

/** How often writes kept back by a lock are tried again, and how long each try waits for it. */
const RETRY_MS = 1_000;
const RETRY_WAIT_MS = 50;
/** How long closing waits for the lock to write what is still kept back. */
const CLOSE_WAIT_MS = 2_000;

type Write = (db: Database.Database) => void;

export const AuditSchema: DatabaseSchema = { migrations: AUDIT_MIGRATIONS, latest: AUDIT_LATEST_VERSION, cacheKiB: 2048 };

export interface AuditInfo {
  readonly path: string;
  /** Null when the file could not be opened (see `error`). */
  readonly schemaVersion: number | null;
  /** Set when a damaged audit file was moved aside since open: where it is now. */
  readonly movedAsideTo: string | null;
  /** Why the trail is unavailable (e.g. `newer_schema`); null when it works. */
  readonly error: StoreErrorInfo | null;
  /** Writes kept in memory while another program holds the file locked or its disk is full (written once it lets go, or there is room). */
  readonly waitingWrites: number;
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
  /** The file was locked when it was opened: it is opened at the next try. */
  private locked = false;
  /** Writes a lock held elsewhere or a full disk kept back, oldest first. */
  private waiting: Write[] = [];
  /** What the last try of the kept-back writes met. */
  private keptBy: "lock" | "full disk" = "lock";
  private retry: ReturnType<typeof setInterval> | undefined;

  constructor(readonly path: string) {
    this.open(BUSY_TIMEOUT_MS);
  }

  info(): AuditInfo {
    return {
      path: this.path,
      schemaVersion: this.db === undefined ? null : schemaVersion(this.db),
      movedAsideTo: this.movedAsideTo,
      error: this.failure === undefined ? null : toErrorInfo(this.failure),
      waitingWrites: this.waiting.length,
    };
  }

  recordPermission(entry: AuditPermission): void {
    this.write((db) => insertPermission(db, entry));
  }

  recordInterrupt(entry: AuditInterrupt): void {
    this.write((db) => insertInterrupt(db, entry));
  }

  recordPolicyDecision(entry: AuditPolicyRecord): void {
    this.write((db) => insertPolicyDecision(db, entry));
  }

  recordOrchestration(entry: AuditOrchestration): void {
    this.write((db) => insertOrchestration(db, entry));
  }

  recordFork(entry: AuditFork): void {
    this.write((db) => insertFork(db, entry));
  }

  recordRewind(entry: AuditRewind): void {
    this.write((db) => insertRewind(db, entry));
  }

  readAudit(sessionId: string): SessionTrail {
    return this.read((db) => readSessionAudit(db, sessionId));
  }

  /** Every fork recorded (the session list puts each under its origin). */
  readForks(): AuditFork[] {
    return this.read(readForks);
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
    // A last try for what a lock kept back; past it those writes are lost with the process.
    if (this.waiting.length > 0) this.writeWaiting(CLOSE_WAIT_MS);
    this.stopRetrying();
    this.db?.close();
    this.db = undefined;
    this.failure ??= new StoreError("closed", "the store is closed");
  }

  /** A read; a lock held elsewhere fails it at once with what to do (reads are not kept back as writes are). */
  private read<T>(fn: (db: Database.Database) => T): T {
    try {
      return this.use(fn);
    } catch (err) {
      if (!isBusy(err)) throw err;
      throw new StoreError("busy", `reading the audit trail stopped: ${this.path} is locked by another program (another Baton, or a database tool holding it open); try again once it lets go`);
    }
  }

  private open(busyTimeoutMs: number): void {
    try {
      const opened = openDatabase(this.path, AuditSchema, busyTimeoutMs);
      this.db = opened.db;
      this.movedAsideTo = opened.movedAsideTo ?? null;
      this.locked = false;
      this.failure = undefined;
    } catch (err) {
      this.locked = isBusy(err);
      if (this.locked) this.keptBy = "lock";
      const info = toErrorInfo(err);
      this.failure = this.locked ? this.lockedError() : new StoreError(info.code, `the audit trail is unavailable: ${info.message}`);
    }
  }

  /**
   * Writes `insert` in its own IMMEDIATE transaction, after any writes a lock or a full disk kept
   * back. Throws `busy` or `disk_full` when it is kept back too (written once the lock goes, or
   * there is room).
   */
  private write(insert: Write): void {
    if (this.waiting.length === 0 && !this.locked) {
      try {
        this.use((db) => db.transaction(() => insert(db)).immediate());
        return;
      } catch (err) {
        if (!passes(err)) throw err;
        this.keptBy = isBusy(err) ? "lock" : "full disk";
      }
    }
    if (this.db === undefined && !this.locked) throw this.failure ?? new StoreError("closed", "the store is closed");
    this.waiting.push(insert);
    // Already kept back: the lock is likely still held, so this call does not wait the full timeout.
    if (this.waiting.length > 1 || this.locked) this.writeWaiting(RETRY_WAIT_MS);
    if (this.waiting.length === 0) return;
    this.retry ??= setInterval(() => this.retryWaiting(), RETRY_MS);
    this.retry.unref?.();
    throw this.keptError();
  }

  /** Writes the kept-back writes in order, each in its own transaction, for as long as the lock lets it. */
  private writeWaiting(waitMs: number): void {
    if (this.locked) this.open(waitMs);
    const db = this.db;
    if (db === undefined) {
      if (!this.locked) this.stopRetrying(); // unavailable for good (damaged, newer): nothing to wait for
      return;
    }
    db.pragma(`busy_timeout = ${waitMs}`);
    try {
      while (this.waiting.length > 0) {
        try {
          db.transaction(() => this.waiting[0]!(db)).immediate();
        } catch (err) {
          if (passes(err)) {
            this.keptBy = isBusy(err) ? "lock" : "full disk";
            return;
          }
          // Refused whatever the lock (an entry with missing fields): it would have failed unkept.
          if (!(err instanceof TypeError)) throw err;
        }
        this.waiting.shift();
      }
      this.stopRetrying();
    } finally {
      this.db?.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  /** The timer's try: a failure other than the lock stops the tries, and the next write meets it. */
  private retryWaiting(): void {
    try {
      this.writeWaiting(RETRY_WAIT_MS);
    } catch {
      this.stopRetrying();
    }
  }

  private stopRetrying(): void {
    if (this.retry !== undefined) clearInterval(this.retry);
    this.retry = undefined;
  }

  /** Why the writes kept back wait, and how many there are. */
  private keptError(): StoreError {
    if (this.keptBy === "lock") return this.lockedError();
    const n = this.waiting.length;
    return new StoreError(
      "disk_full",
      `the audit trail ${this.path} cannot be written: the disk holding it is full (free some space there): ` +
        `${n} decision${n === 1 ? " is" : "s are"} kept in memory and written once there is room`,
    );
  }

  private lockedError(): StoreError {
    const n = this.waiting.length;
    return new StoreError(
      "busy",
      `the audit trail ${this.path} is locked by another program (another Baton, or a database tool holding it open): ` +
        `${n === 0 ? "it is opened" : `${n} decision${n === 1 ? " is" : "s are"} kept in memory and written`} once it lets go`,
    );
  }

  private use<T>(fn: (db: Database.Database) => T): T {
    if (this.db === undefined && this.locked) this.open(RETRY_WAIT_MS);
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

/** A failure that passes: another program's lock, or a full disk. */
function passes(err: unknown): boolean {
  return isBusy(err) || isDiskFull(err);
}

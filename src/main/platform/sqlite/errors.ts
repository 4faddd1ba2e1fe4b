// Typed store errors: callers (the worker protocol, the commands) branch on `code`, not on text.

export type StoreErrorCode =
  | "newer_schema" // the database was written by a newer Baton
  | "forbidden_path" // the database path is inside ~/.claude, which Baton never writes
  | "bad_query" // the search query has no searchable words
  | "projects_dir_missing"
  | "corrupt_recovered" // the database was damaged; it was moved aside and a fresh one opened
  | "busy" // another process holds the file's lock past the busy timeout; nothing was written
  | "disk_full" // the disk holding the file is full; the transaction was rolled back
  | "closed"
  | "internal";

export interface StoreErrorInfo {
  readonly code: StoreErrorCode;
  readonly message: string;
}

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string) {
    super(message);
    this.name = "StoreError";
    this.code = code;
  }
}

export function toErrorInfo(err: unknown): StoreErrorInfo {
  if (err instanceof StoreError) return { code: err.code, message: err.message };
  return { code: "internal", message: err instanceof Error ? err.message : String(err) };
}

/** SQLite reports damage as SQLITE_CORRUPT (malformed) or SQLITE_NOTADB (not a database). */
export function isCorruption(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB");
}

/** SQLite gave up waiting for a lock another connection (usually another process) holds. */
export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/** The disk (or the file's size limit) has no room for the transaction: SQLITE_FULL. */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_FULL");
}

/**
 * A lock held elsewhere or a full disk, said as what happened to `file` and what comes next, typed
 * so callers can retry; undefined for any other error. `doing` names the work that stopped
 * ("indexing", "recording a decision"), `after` what the caller does about it.
 */
export function sqliteFault(err: unknown, file: string, doing: string, after: string): StoreError | undefined {
  if (isBusy(err)) {
    return new StoreError("busy", `${doing} stopped: ${file} is locked by another program (another Baton, or a database tool holding it open); ${after}`);
  }
  if (isDiskFull(err)) {
    return new StoreError("disk_full", `${doing} stopped: the disk holding ${file} is full (free some space there); ${after}`);
  }
  return undefined;
}

// Typed store errors: callers (the worker protocol, the commands) branch on `code`, not on text.

export type StoreErrorCode =
  | "newer_schema" // the database was written by a newer Baton
  | "forbidden_path" // the database path is inside ~/.claude, which Baton never writes
  | "bad_query" // the search query has no searchable words
  | "projects_dir_missing"
  | "corrupt_recovered" // the database was damaged; it was moved aside and a fresh one opened
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

// Forks in the audit trail (issue 37, a007Forks.ts): which session each fork continues and at which
// of its prompts. Written once per fork (the first record of a fork session stands: a fork's CLI
// started again names the same session), read one by a restore and `baton audit`, all at once by
// the session list, `baton sessions` and a resumed fork's tab (the table holds a row per fork).
import type Database from "better-sqlite3";
import type { ForkLink } from "../../shared/api.js";
import { hasTable } from "../platform/sqlite/hasTable.js";

export interface AuditFork {
  /** The session the fork's CLI started. */
  readonly forkSessionId: string;
  /** The session it continues. */
  readonly originSessionId: string;
  /** The origin's prompt (its uuid on disk) the fork was made at. */
  readonly promptUuid: string;
  /** ISO 8601: when the fork's CLI named its session. */
  readonly time: string;
}

/** The link a tab, a list and an export show: the origin and its prompt. */
export function forkLinkOf(fork: AuditFork): ForkLink {
  return { sessionId: fork.originSessionId, promptUuid: fork.promptUuid };
}

/**
 * The sessions `sessionId` was forked from, nearest first: its origin, that one's origin, … as
 * recorded (a fork of a fork's copied agents ran in one of them). `originOf`: a fork's record.
 */
export function forkOrigins(sessionId: string, originOf: (forkSessionId: string) => AuditFork | undefined): string[] {
  const origins: string[] = [];
  const seen = new Set([sessionId]);
  // A trail edited by hand may hold a loop: each session once.
  for (let at = originOf(sessionId)?.originSessionId; at !== undefined && !seen.has(at); at = originOf(at)?.originSessionId) {
    origins.push(at);
    seen.add(at);
  }
  return origins;
}

/** Checks an entry from another thread before it reaches SQL: a bad one is refused, not stored half. */
export function checkFork(entry: AuditFork): AuditFork {
  for (const key of ["forkSessionId", "originSessionId", "promptUuid", "time"] as const) {
    if (typeof entry[key] !== "string" || entry[key] === "") throw new TypeError(`audit fork: ${key} must be a non-empty string`);
  }
  if (entry.forkSessionId === entry.originSessionId) throw new TypeError("audit fork: a session is not a fork of itself");
  return entry;
}

/** Records a fork; a fork session already recorded keeps its first row. */
export function insertFork(db: Database.Database, entry: AuditFork): void {
  const e = checkFork(entry);
  db.prepare(
    `INSERT INTO audit_forks (fork_session_id, origin_session_id, prompt_uuid, time) VALUES (?, ?, ?, ?)
     ON CONFLICT (fork_session_id) DO NOTHING`,
  ).run(e.forkSessionId, e.originSessionId, e.promptUuid, e.time);
}

const Columns = "fork_session_id AS forkSessionId, origin_session_id AS originSessionId, prompt_uuid AS promptUuid, time";

/** The fork `sessionId` is, or undefined (not a fork Baton made, or a file before a007). */
export function readFork(db: Database.Database, sessionId: string): AuditFork | undefined {
  if (!hasTable(db, "audit_forks")) return undefined;
  return db.prepare(`SELECT ${Columns} FROM audit_forks WHERE fork_session_id = ?`).get(sessionId) as AuditFork | undefined;
}

/** Every fork recorded, oldest first. */
export function readForks(db: Database.Database): AuditFork[] {
  if (!hasTable(db, "audit_forks")) return [];
  return db.prepare(`SELECT ${Columns} FROM audit_forks ORDER BY time, fork_session_id`).all() as AuditFork[];
}


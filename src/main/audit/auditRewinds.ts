// File rewinds in the audit trail (issue 37, a008Rewinds.ts): each rewind Baton applied to a live
// session's files, the prompt it went back to and the files it changed. Written once the CLI has
// rewound (core/fileRewind.ts), read back in the trail's order by a restore (auditOverlay.ts marks
// the prompt again) and by `baton audit`.
import type Database from "better-sqlite3";
import type { Placed } from "./sessionTrail.js";
import { hasTable } from "../platform/sqlite/hasTable.js";

export interface AuditRewind {
  readonly sessionId: string;
  /** The prompt (its uuid on disk) the files were put back to, as they were just before it. */
  readonly promptUuid: string;
  /** The files the rewind changed (absolute paths), at most MaxRewindFiles of them. */
  readonly files: readonly string[];
  /** How many files it changed: the mark's count, which `files` may not hold whole. */
  readonly fileCount: number;
  /** ISO 8601: when the rewind was applied. */
  readonly time: string;
}

/** The paths kept per rewind: enough to say what changed, bounded so one rewind cannot swell the trail. */
export const MaxRewindFiles = 200;
/** A longer path is cut (no file system has one; the CLI's list is not trusted to be sane). */
const MaxPathLength = 4096;

/** The stored form of a rewind: its file list bounded, its count the whole. */
export function rewindRecord(sessionId: string, promptUuid: string, filesChanged: readonly string[], time: string): AuditRewind {
  return { sessionId, promptUuid, files: boundedFiles(filesChanged), fileCount: filesChanged.length, time };
}

function boundedFiles(files: readonly string[]): string[] {
  return files.slice(0, MaxRewindFiles).map((f) => f.slice(0, MaxPathLength));
}

/** Checks an entry from another thread before it reaches SQL: a bad one is refused, not stored half. */
export function checkRewind(entry: AuditRewind): AuditRewind {
  for (const key of ["sessionId", "promptUuid", "time"] as const) {
    if (typeof entry[key] !== "string" || entry[key] === "") throw new TypeError(`audit rewind: ${key} must be a non-empty string`);
  }
  if (!Array.isArray(entry.files) || !entry.files.every((f) => typeof f === "string")) throw new TypeError("audit rewind: files must be a list of paths");
  if (!Number.isSafeInteger(entry.fileCount) || entry.fileCount < 0) throw new TypeError("audit rewind: fileCount must be a whole number");
  return entry;
}

export function insertRewind(db: Database.Database, entry: AuditRewind): void {
  const e = checkRewind(entry);
  // Bounded here too: the worker's message may not have come through rewindRecord.
  const files = boundedFiles(e.files);
  db.prepare("INSERT INTO audit_rewinds (session_id, prompt_uuid, files, file_count, time) VALUES (?, ?, ?, ?, ?)").run(
    e.sessionId,
    e.promptUuid,
    JSON.stringify(files),
    Math.max(e.fileCount, files.length),
    e.time,
  );
}

interface RewindRow {
  readonly seq: number | null;
  readonly sessionId: string;
  readonly promptUuid: string;
  readonly files: string;
  readonly fileCount: number;
  readonly time: string;
}

/** The session's rewinds in the order they were applied, with their places in the trail; none in a file before a008. */
export function readRewinds(db: Database.Database, sessionId: string): Placed<AuditRewind>[] {
  if (!hasTable(db, "audit_rewinds")) return [];
  const rows = db
    .prepare("SELECT seq, session_id AS sessionId, prompt_uuid AS promptUuid, files, file_count AS fileCount, time FROM audit_rewinds WHERE session_id = ? ORDER BY id")
    .all(sessionId) as RewindRow[];
  return rows.map((r) => ({ seq: r.seq, row: { sessionId: r.sessionId, promptUuid: r.promptUuid, files: JSON.parse(r.files) as string[], fileCount: r.fileCount, time: r.time } }));
}

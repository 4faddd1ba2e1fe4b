// The audit trail (audit.sqlite) as the headless commands find and read it: `--db` names the index
// (its folder holds the trail) or the trail itself, as for `baton audit`.
import { existsSync } from "node:fs";
import path from "node:path";
import type { AuditFork } from "../audit/audit.js";
import { AUDIT_FILE_NAME, auditDbPath, checkDbPath } from "../platform/dbPath.js";
import type { CommandIO } from "./commandIO.js";

/** `--db` names the index (as for the other commands) or the audit file itself. */
export function auditFileFor(db: string): string {
  return path.basename(db) === AUDIT_FILE_NAME ? path.resolve(db) : auditDbPath(db);
}

/**
 * Every fork Baton recorded, by the fork's session id, read from a read-only connection: a listing
 * writes nothing (a damaged file is not moved aside here, the app does that). No trail: none. A
 * trail that cannot be read is a warning on stderr, and the command goes on without the links.
 */
export async function readForkLinks(db: string, io: CommandIO, command: string): Promise<ReadonlyMap<string, AuditFork>> {
  let file: string | undefined;
  try {
    file = checkDbPath(auditFileFor(db));
    if (!existsSync(file)) return new Map();
    // Imported only now: better-sqlite3 is not loaded when Baton has recorded nothing.
    const [{ connect }, { checkNotNewer }, { readForks }, { AUDIT_LATEST_VERSION }] = await Promise.all([
      import("../platform/sqlite/openDatabase.js"),
      import("../platform/sqlite/migrate.js"),
      import("../audit/auditForks.js"),
      import("../audit/migrations/index.js"),
    ]);
    const connection = connect(file, { readonly: true, fileMustExist: true });
    try {
      checkNotNewer(connection, file, AUDIT_LATEST_VERSION);
      return new Map(readForks(connection).map((f) => [f.forkSessionId, f]));
    } finally {
      connection.close();
    }
  } catch (error) {
    io.stderr(`baton ${command}: the forks are not shown: could not read the audit trail${file !== undefined ? ` ${file}` : ""}: ${error instanceof Error ? error.message : String(error)}\n`);
    return new Map();
  }
}

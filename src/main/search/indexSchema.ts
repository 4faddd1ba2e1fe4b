// The search index's file (history.db): its migrations, a large page cache, and the one kind of
// file it retires rather than reads.
import type Database from "better-sqlite3";
import { hasTable } from "../platform/sqlite/hasTable.js";
import { schemaVersion } from "../platform/sqlite/migrate.js";
import type { DatabaseSchema } from "../platform/sqlite/openDatabase.js";
import { LATEST_VERSION, MIGRATIONS } from "./migrations/index.js";

export const IndexSchema: DatabaseSchema = { migrations: MIGRATIONS, latest: LATEST_VERSION, cacheKiB: 65536, retire: devAuditIndex };

/**
 * A development build kept the audit trail inside the index as its version 3 (now audit.sqlite's
 * version 1). Its user_version would read as a later index schema, so the file is retired: moved
 * aside whole (its audit rows are copied into the audit file, see StoreService) and rebuilt.
 */
function devAuditIndex(db: Database.Database): string | undefined {
  if (schemaVersion(db) !== 3) return undefined;
  return hasTable(db, "audit_permissions") ? "an index from a development build that held the audit trail" : undefined;
}

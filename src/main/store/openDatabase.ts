// Opens (creating if needed) the history index: WAL, migrations, refusal of newer schemas, and
// recovery from a damaged file by moving it aside (the JSONL files are the source of truth, so a
// fresh index loses nothing).
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { isCorruption } from "./errors.js";
import { checkNotNewer, migrate } from "./migrate.js";

export interface OpenedDatabase {
  readonly db: Database.Database;
  /** Set when the previous file was damaged: where it was moved. */
  readonly movedAsideTo?: string;
}

// Which compiled better-sqlite3 this thread loads: a property of the runtime (Electron's ABI is not
// Node's), not of one database, so the store worker sets it once before opening anything.
let nativeBinding: string | undefined;

/** The better-sqlite3 binary to load instead of node_modules' (the Electron build, in the app). */
export function useNativeBinding(file: string | undefined): void {
  nativeBinding = file;
}

export function openDatabase(dbPath: string): OpenedDatabase {
  fs.mkdirSync(path.dirname(dbPath), { recursive: true });
  try {
    return { db: openAndMigrate(dbPath) };
  } catch (err) {
    if (!isCorruption(err)) throw err;
    const movedAsideTo = moveAside(dbPath);
    return { db: openAndMigrate(dbPath), movedAsideTo };
  }
}

function openAndMigrate(dbPath: string): Database.Database {
  const db = new Database(dbPath, { timeout: 10_000, ...(nativeBinding !== undefined ? { nativeBinding } : {}) });
  try {
    // Reading the header and the schema surfaces SQLITE_NOTADB / SQLITE_CORRUPT here, not later.
    db.prepare("SELECT count(*) FROM sqlite_master").get();
    checkNotNewer(db, dbPath);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("temp_store = MEMORY");
    db.pragma("cache_size = -65536");
    migrate(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Renames the database (and its WAL/SHM companions) to `<name>.corrupt-<timestamp>`. */
export function moveAside(dbPath: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const target = `${dbPath}.corrupt-${stamp}`;
  fs.renameSync(dbPath, target);
  for (const suffix of ["-wal", "-shm"]) {
    if (fs.existsSync(dbPath + suffix)) fs.renameSync(dbPath + suffix, target + suffix);
  }
  return target;
}

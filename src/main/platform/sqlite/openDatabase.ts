// Opens (creating if needed) one of Baton's SQLite files: WAL, migrations, refusal of newer
// schemas, and recovery from a damaged file by moving it aside. The index (the JSONL files are its
// source of truth, so a fresh one loses nothing; src/main/search/indexSchema.ts) and the audit
// trail (src/main/audit/auditDatabase.ts) share this, each with its schema.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { BUSY_TIMEOUT_MS } from "./busyTimeout.js";
import { isCorruption } from "./errors.js";
import { checkNotNewer, migrate } from "./migrate.js";
import type { Migration } from "./migration.js";

/** What a file is: its migration list, and how it is tuned. */
export interface DatabaseSchema {
  readonly migrations: readonly Migration[];
  readonly latest: number;
  /** Page cache in KiB: the index wants a large one; the audit trail does not. */
  readonly cacheKiB: number;
  /** Says why an existing file must be moved aside and started afresh (not damage), or undefined. */
  readonly retire?: (db: Database.Database) => string | undefined;
}

export interface OpenedDatabase {
  readonly db: Database.Database;
  /** Set when the previous file was damaged (or retired): where it was moved. */
  readonly movedAsideTo?: string;
  /** Set when the previous file was moved aside for this reason rather than for damage. */
  readonly retired?: string;
}

// Which compiled better-sqlite3 this thread loads: a property of the runtime (Electron's ABI is not
// Node's), not of one database, so the store worker sets it once before opening anything.
let nativeBinding: string | undefined;

/** The better-sqlite3 binary to load instead of node_modules' (the Electron build, in the app). */
export function useNativeBinding(file: string | undefined): void {
  nativeBinding = file;
}

/** The binary set by useNativeBinding, for threads this one starts (the extract worker). */
export function nativeBindingPath(): string | undefined {
  return nativeBinding;
}


/** A connection with Baton's busy timeout, loading `binding` (this thread's by default). */
export function connect(file: string, options: Database.Options = {}, binding: string | undefined = nativeBinding): Database.Database {
  return new Database(file, { timeout: BUSY_TIMEOUT_MS, ...options, ...(binding !== undefined ? { nativeBinding: binding } : {}) });
}

class Retired extends Error {}

/**
 * Opens `dbPath` with `schema`. `busyTimeoutMs`: how long opening waits for a lock held elsewhere
 * (a retry that must not hold its thread long passes a short one); the connection then waits
 * BUSY_TIMEOUT_MS as any other.
 */
export function openDatabase(dbPath: string, schema: DatabaseSchema, busyTimeoutMs = BUSY_TIMEOUT_MS): OpenedDatabase {
  fs.mkdirSync(path.dirname(dbPath), { recursive: true });
  try {
    return { db: openAndMigrate(dbPath, schema, busyTimeoutMs) };
  } catch (err) {
    if (err instanceof Retired) {
      const movedAsideTo = moveAside(dbPath, new Date(), "retired");
      return { db: openAndMigrate(dbPath, schema, busyTimeoutMs), movedAsideTo, retired: err.message };
    }
    if (!isCorruption(err)) throw err;
    const movedAsideTo = moveAside(dbPath);
    return { db: openAndMigrate(dbPath, schema, busyTimeoutMs), movedAsideTo };
  }
}

function openAndMigrate(dbPath: string, schema: DatabaseSchema, busyTimeoutMs: number): Database.Database {
  const db = connect(dbPath, { timeout: busyTimeoutMs });
  try {
    // Reading the header and the schema surfaces SQLITE_NOTADB / SQLITE_CORRUPT here, not later.
    db.prepare("SELECT count(*) FROM sqlite_master").get();
    const retired = schema.retire?.(db);
    if (retired !== undefined) throw new Retired(retired);
    checkNotNewer(db, dbPath, schema.latest);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("temp_store = MEMORY");
    db.pragma(`cache_size = -${schema.cacheKiB}`);
    migrate(db, schema.migrations, schema.latest);
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Address space a reading connection maps its files into (only what it reads becomes memory). */
const READER_MMAP_BYTES = 512 * 1024 * 1024;

/**
 * A read-only connection to an existing database, with other files attached by name (read-only
 * too): for queries that span them. It never writes, so it never takes a write lock, and writers
 * of the attached files do not wait for it.
 */
export function openReader(dbPath: string, attach: Readonly<Record<string, string>>, cacheKiB: number): Database.Database {
  const db = connect(dbPath, { readonly: true, fileMustExist: true });
  try {
    db.pragma(`cache_size = -${cacheKiB}`);
    // Pages it has not read yet come straight from the OS's file cache, not through read() and a
    // copy: a fresh reader's first searches after an index run were ~10 % slower without it.
    db.pragma(`mmap_size = ${READER_MMAP_BYTES}`);
    for (const [name, file] of Object.entries(attach)) {
      db.prepare(`ATTACH DATABASE ? AS ${name}`).run(file);
      db.pragma(`${name}.cache_size = -${cacheKiB}`);
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Renames the database (and its WAL/SHM companions) to `<name>.<tag>-<timestamp>`. */
export function moveAside(dbPath: string, now: Date = new Date(), tag = "corrupt"): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const target = `${dbPath}.${tag}-${stamp}`;
  fs.renameSync(dbPath, target);
  for (const suffix of ["-wal", "-shm"]) {
    if (fs.existsSync(dbPath + suffix)) fs.renameSync(dbPath + suffix, target + suffix);
  }
  return target;
}

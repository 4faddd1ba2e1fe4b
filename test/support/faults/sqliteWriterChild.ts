// A process that writes one of Baton's SQLite files with Baton's own code, and stops dead in the
// middle of a transaction for the test to kill it (SIGKILL: no rollback, no close, no checkpoint).
// Run with `node --import tsx`.
//
//   index <dbPath> <projectsDir> <chunk>  one index run (the Indexer, as the store runs it: its
//                                         chunks in one transaction), stopping inside that
//                                         transaction after it wrote its <chunk>th chunk
//   audit <auditPath> <count>             records permission decisions req-1, req-2, … each in
//                                         its own transaction, stopping inside req-<count>'s
//
// Where it stops it prints "stopped <bytes>" (the WAL's size then) and waits forever. The page
// cache is made tiny, so the transaction's pages spill into the WAL before it commits: the file
// the test reopens holds uncommitted frames, as after a crash in a large run.
import fs from "node:fs";
import type Database from "better-sqlite3";
import { AuditSchema } from "../../../src/main/audit/auditDatabase.js";
import { insertPermission } from "../../../src/main/audit/audit.js";
import { openDatabase } from "../../../src/main/platform/sqlite/openDatabase.js";
import { Indexer } from "../../../src/main/search/indexer.js";
import { IndexSchema } from "../../../src/main/search/indexSchema.js";
import { SideIndex } from "../../../src/main/search/sideIndex.js";

const [mode, file, ...rest] = process.argv.slice(2);

/** Registers `stop_here()`: it reports where the WAL is and blocks this process until it is killed. */
function stopHere(db: Database.Database, dbPath: string): void {
  db.function("stop_here", () => {
    const wal = fs.statSync(`${dbPath}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    fs.writeSync(1, `stopped ${wal}\n`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    return 0;
  });
  db.pragma("cache_size = 8"); // pages, not KiB: dirty pages spill to the WAL early
}

if (mode === "index" && file !== undefined && rest.length === 2) {
  const [projectsDir, chunk] = rest as [string, string];
  const opened = openDatabase(file, IndexSchema);
  const side = SideIndex.open(file);
  stopHere(opened.db, file);
  // file_rows gets one row per chunk written; the Nth is the stop.
  opened.db.exec(`
    CREATE TEMP TABLE chunks_written (n INTEGER);
    INSERT INTO chunks_written VALUES (0);
    CREATE TEMP TRIGGER stop_at_chunk AFTER INSERT ON main.file_rows BEGIN
      UPDATE chunks_written SET n = n + 1;
      SELECT stop_here() WHERE (SELECT n FROM chunks_written) = ${Number(chunk)};
    END;`);
  await new Indexer(opened.db, { side }).indexProjects(projectsDir);
  process.stdout.write("finished without stopping\n");
} else if (mode === "audit" && file !== undefined && rest.length === 1) {
  const count = Number(rest[0]);
  const { db } = openDatabase(file, AuditSchema);
  stopHere(db, file);
  db.exec(`CREATE TEMP TRIGGER stop_at_decision AFTER INSERT ON main.audit_permissions WHEN NEW.request_id = 'req-${count}' BEGIN SELECT stop_here(); END;`);
  for (let n = 1; n <= count; n++) {
    db.transaction(() =>
      insertPermission(db, { sessionId: "s1", requestId: `req-${n}`, toolUseId: `toolu_${n}`, toolName: "Bash", decision: "allow", decidedBy: "user", message: "x".repeat(4000), time: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString() }),
    ).immediate();
  }
  process.stdout.write("finished without stopping\n");
} else {
  process.stderr.write("usage: sqliteWriterChild.ts index <dbPath> <projectsDir> <chunk> | audit <auditPath> <count>\n");
  process.exit(2);
}

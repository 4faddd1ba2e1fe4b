// A separate process that holds a lock on one of Baton's SQLite files, as another program would
// (a second Baton indexing, a database browser): `write` takes the write lock (BEGIN IMMEDIATE:
// readers of a WAL file still read), `exclusive` takes the file for itself (locking_mode
// EXCLUSIVE and a write: nobody else reads or writes it). Prints "locked" once it holds the lock,
// and lets go (rolling back) at a line "release" on stdin or when stdin closes.
// Usage: node sqliteLocker.mjs <file> write|exclusive
import readline from "node:readline";
import Database from "better-sqlite3";

const [file, mode] = process.argv.slice(2);
if (file === undefined || (mode !== "write" && mode !== "exclusive")) {
  process.stderr.write("usage: sqliteLocker.mjs <file> write|exclusive\n");
  process.exit(2);
}
const db = new Database(file, { fileMustExist: true });
if (mode === "exclusive") db.pragma("locking_mode = EXCLUSIVE");
db.exec("BEGIN EXCLUSIVE");
// A write makes the lock real in either mode (and, in EXCLUSIVE mode, keeps it after COMMIT).
db.exec("CREATE TABLE IF NOT EXISTS locker_probe (x); INSERT INTO locker_probe VALUES (1)");
process.stdout.write("locked\n");

let released = false;
const release = () => {
  if (released) return;
  released = true;
  db.exec("ROLLBACK");
  db.close();
  process.stdout.write("released\n");
  process.exit(0);
};
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() === "release") release();
});
lines.on("close", release);

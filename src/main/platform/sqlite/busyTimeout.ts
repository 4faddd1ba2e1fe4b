// How long a statement waits for a lock another connection (usually another process) holds before
// it fails with SQLITE_BUSY. Its own file, without SQLite: the store's client on the app's main
// thread needs the number but must not load better-sqlite3 there.

export const BUSY_TIMEOUT_MS = 10_000;

// Baton's store as the app runs it (the store worker, and the background index run that is tried
// again while a fault that passes stops it: store/indexRefresh.ts), driven over stdin and reported
// as JSON lines on stdout, for tests that must run it inside another mount namespace (a small
// disk: sqliteSmallDisk.ts). Run with `node --import tsx`.
//
//   node --import tsx sqliteStoreDriver.ts <dbPath> <projectsDir> <retryMs>
//   stdin:  "search <word>"   → {"search": word, "sessions": [...]} or {"search": word, "error": {...}}
//           "check"           → {"integrity": "ok" | what SQLite found}
//           "record <n>"      → records permission decision req-<n> of session s1 in the audit trail:
//                               {"recorded": n} or {"recorded": n, "error": {...}}
//           "trail"           → {"trail": [the request ids of s1's decisions, in order]}
//           "quit"            → closes the store and exits
//   stdout: {"opened": StoreInfo}, then {"log": {level, message}} as the Console would get them, and
//           {"indexRun": n} as the n-th index run starts
import readline from "node:readline";
import Database from "better-sqlite3";
import { StoreError } from "../../../src/main/platform/sqlite/errors.js";
import { keepIndexFresh } from "../../../src/main/store/indexRefresh.js";
import { openStore } from "../../../src/main/store/storeClient.js";
import type { IndexRunOptions } from "../../../src/main/store/storeService.js";

const [dbPath, projectsDir, retryMs] = process.argv.slice(2);
if (dbPath === undefined || projectsDir === undefined || retryMs === undefined) {
  process.stderr.write("usage: sqliteStoreDriver.ts <dbPath> <projectsDir> <retryMs>\n");
  process.exit(2);
}
const say = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

const store = await openStore({ dbPath });
say({ opened: store.info });
let runs = 0;
const counted = {
  info: store.info,
  index: (dir: string, options?: IndexRunOptions) => {
    say({ indexRun: ++runs });
    return store.index(dir, options);
  },
};
const stop = keepIndexFresh(counted, projectsDir, (level, message) => say({ log: { level, message } }), { retryMs: Number(retryMs) });

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  const [command, ...rest] = line.trim().split(" ");
  if (command === "search") {
    const word = rest.join(" ");
    try {
      say({ search: word, sessions: (await store.search(word)).map((h) => h.sessionId) });
    } catch (err) {
      say({ search: word, error: err instanceof StoreError ? { code: err.code, message: err.message } : { message: String(err) } });
    }
  } else if (command === "record") {
    const n = Number(rest[0]);
    const entry = { sessionId: "s1", requestId: `req-${n}`, toolUseId: `toolu_${n}`, toolName: "Bash", decision: "deny", decidedBy: "user", time: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString() } as const;
    try {
      await store.recordPermission(entry);
      say({ recorded: n });
    } catch (err) {
      say({ recorded: n, error: err instanceof StoreError ? { code: err.code, message: err.message } : { message: String(err) } });
    }
  } else if (command === "trail") {
    say({ trail: (await store.readAudit("s1")).permissions.map((p) => p.requestId) });
  } else if (command === "check") {
    const db = new Database(dbPath, { readonly: true });
    say({ integrity: db.pragma("integrity_check", { simple: true }) });
    db.close();
  } else if (command === "quit") {
    break;
  }
}
stop();
await store.close();

// The async face of the store: every call is a message to the store worker, answered by id.
// The owner calls close(), which closes the database and terminates the worker.
import { Worker } from "node:worker_threads";
import type { AuditFork, AuditInterrupt, AuditOrchestration, AuditPermission, AuditPolicyRecord, AuditRewind, SessionTrail } from "../audit/audit.js";
import { StoreError, type StoreErrorInfo } from "../platform/sqlite/errors.js";
import { BUSY_TIMEOUT_MS } from "../platform/sqlite/busyTimeout.js";
import type { IndexResult, IndexRunOptions, StoreInfo } from "./storeService.js";
import type { SearchHit, SearchOptions } from "../search/search.js";
import type { ListSessionsOptions, SessionSummary, SubagentSummary } from "../search/sessions.js";
import type { IndexedSession } from "../search/indexedSessions.js";
import type { StoreMethod, StoreMethods, StoreResponse, StoreWorkerData } from "./workerProtocol.js";

export interface StoreClient {
  readonly info: StoreInfo;
  index(projectsDir: string, options?: IndexRunOptions): Promise<IndexResult>;
  search(query: string, options?: SearchOptions): Promise<readonly SearchHit[]>;
  listSessions(options?: ListSessionsOptions): Promise<readonly SessionSummary[]>;
  listSubagents(sessionId: string, project?: string): Promise<readonly SubagentSummary[]>;
  /** What the index knows of the main files under `projectsDir` it read to their end (for the session list). */
  indexedSessions(projectsDir: string): Promise<readonly IndexedSession[]>;
  /** Audit trail writes (audit.sqlite, not the index): answered once the row is committed in the worker. */
  recordPermission(entry: AuditPermission): Promise<null>;
  recordInterrupt(entry: AuditInterrupt): Promise<null>;
  recordPolicyDecision(entry: AuditPolicyRecord): Promise<null>;
  recordOrchestration(entry: AuditOrchestration): Promise<null>;
  /** A fork Baton made (issue 37): the fork's session, the session it continues and the prompt. */
  recordFork(entry: AuditFork): Promise<null>;
  /** A file rewind Baton applied (issue 37): the session, the prompt rewound to, the files. */
  recordRewind(entry: AuditRewind): Promise<null>;
  /** The session's answers and interrupts (for a restore) and its whole trail in recorded order. */
  readAudit(sessionId: string): Promise<SessionTrail>;
  /** Every fork recorded, oldest first (the session list puts each under its origin). */
  readForks(): Promise<readonly AuditFork[]>;
  /** Closes the database (checkpointing the WAL) and stops the worker. Idempotent. */
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  readonly dbPath: string;
  /** The audit trail's file; default audit.sqlite beside dbPath (the same worker opens both). */
  readonly auditPath?: string;
  readonly batchBytes?: number;
  /**
   * Keep the audit trail when the index is refused (a newer Baton's file): `info.refused` says so
   * and the index calls fail with that refusal. Default: the refusal rejects `openStore`.
   */
  readonly auditWhenIndexRefused?: boolean;
  /** Keep this Baton's own index beside one a newer Baton wrote, instead of refusing it (the app does). */
  readonly besideNewerIndex?: boolean;
  /**
   * The worker module; defaults to storeWorker next to this file (.ts under tsx, .js when built).
   * A bundled app passes its emitted worker chunk here.
   */
  readonly workerEntry?: URL;
  /** A better-sqlite3 binary for this runtime (Electron's ABI); default: node_modules' build. */
  readonly nativeBinding?: string;
}

/**
 * How long close() lets the worker finish what it is doing before terminating it. Longer than the
 * busy timeout: a statement waiting for another program's lock must end first, or the worker is
 * terminated inside it, and better-sqlite3 then throws its SQLITE_BUSY into a dying isolate and
 * aborts the whole process ("FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal").
 */
const CLOSE_TIMEOUT_MS = BUSY_TIMEOUT_MS + 5_000;

/** Starts the worker and opens the database; rejects with a StoreError (e.g. `newer_schema`). */
export async function openStore(options: OpenStoreOptions): Promise<StoreClient> {
  const here = import.meta.url;
  const entry = options.workerEntry ?? new URL(here.endsWith(".ts") ? "./storeWorker.ts" : "./storeWorker.js", here);
  const workerData: StoreWorkerData = {
    dbPath: options.dbPath,
    entry: entry.href,
    ...(options.auditPath !== undefined ? { auditPath: options.auditPath } : {}),
    ...(options.batchBytes !== undefined ? { batchBytes: options.batchBytes } : {}),
    ...(options.auditWhenIndexRefused === true ? { auditWhenIndexRefused: true } : {}),
    ...(options.besideNewerIndex === true ? { besideNewerIndex: true } : {}),
    ...(options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {}),
  };
  // A .ts entry (tests, `npx baton` under tsx) needs the bootstrap that registers tsx first.
  const script = entry.pathname.endsWith(".ts") ? new URL("../platform/workerBoot.mjs", here) : entry;
  const worker = new Worker(script, { workerData });
  const conn = new Connection(worker);
  try {
    const info = (await conn.ready) as StoreInfo;
    return conn.client(info);
  } catch (err) {
    await worker.terminate();
    throw err;
  }
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

class Connection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closing: Promise<void> | undefined;
  private dead: StoreError | undefined;
  readonly ready: Promise<unknown>;

  constructor(private readonly worker: Worker) {
    let opened!: Pending;
    this.ready = new Promise((resolve, reject) => (opened = { resolve, reject }));
    this.pending.set(0, opened);
    worker.on("message", (msg: StoreResponse) => this.settle(msg));
    worker.on("error", (err) => this.fail(new StoreError("internal", `store worker failed: ${err.message}`)));
    worker.on("exit", (code) => this.fail(new StoreError("closed", `store worker exited (code ${code})`)));
  }

  client(info: StoreInfo): StoreClient {
    return {
      info,
      index: (projectsDir, options) => this.call("index", { projectsDir, ...(options ? { options } : {}) }),
      search: (query, options) => this.call("search", { query, ...(options ? { options } : {}) }),
      listSessions: (options) => this.call("listSessions", options ? { options } : {}),
      listSubagents: (sessionId, project) => this.call("listSubagents", { sessionId, ...(project !== undefined ? { project } : {}) }),
      indexedSessions: (projectsDir) => this.call("indexedSessions", { projectsDir }),
      recordPermission: (entry) => this.call("recordPermission", { entry }),
      recordInterrupt: (entry) => this.call("recordInterrupt", { entry }),
      recordPolicyDecision: (entry) => this.call("recordPolicyDecision", { entry }),
      recordOrchestration: (entry) => this.call("recordOrchestration", { entry }),
      recordFork: (entry) => this.call("recordFork", { entry }),
      recordRewind: (entry) => this.call("recordRewind", { entry }),
      readAudit: (sessionId) => this.call("readAudit", { sessionId }),
      readForks: () => this.call("readForks", {}),
      close: () => this.close(),
    };
  }

  private call<M extends StoreMethod>(method: M, params: StoreMethods[M]["params"]): Promise<StoreMethods[M]["value"]> {
    if (this.dead) return Promise.reject(this.dead);
    if (this.closing && method !== "close") return Promise.reject(new StoreError("closed", "the store is closed"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, method, params });
    });
  }

  private settle(msg: StoreResponse): void {
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.value);
    else p.reject(fromInfo(msg.error));
  }

  private fail(err: StoreError): void {
    this.dead ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  private close(): Promise<void> {
    this.closing ??= (async () => {
      if (!this.dead) {
        const timeout = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref());
        await Promise.race([this.call("close", {}).catch(() => undefined), timeout]);
      }
      await this.worker.terminate();
    })();
    return this.closing;
  }
}

function fromInfo(error: StoreErrorInfo): StoreError {
  return new StoreError(error.code, error.message);
}

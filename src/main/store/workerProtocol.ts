// Messages between StoreClient (any thread) and the store worker. Every request has an id; every
// answer names it and is `{ok: true, value}` or `{ok: false, error}`.
import type { AuditFork, AuditInterrupt, AuditOrchestration, AuditPermission, AuditPolicyRecord, AuditRewind, SessionTrail } from "../audit/audit.js";
import type { StoreErrorInfo } from "../platform/sqlite/errors.js";
import type { IndexResult, StoreInfo } from "./storeService.js";
import type { SearchHit, SearchOptions } from "../search/search.js";
import type { ListSessionsOptions, SessionSummary, SubagentSummary } from "../search/sessions.js";
import type { IndexedSession } from "../search/indexedSessions.js";
import type { IndexRunOptions } from "./storeService.js";

export interface StoreMethods {
  info: { params: Record<string, never>; value: StoreInfo };
  index: { params: { readonly projectsDir: string; readonly options?: IndexRunOptions }; value: IndexResult };
  search: { params: { readonly query: string; readonly options?: SearchOptions }; value: readonly SearchHit[] };
  listSessions: { params: { readonly options?: ListSessionsOptions }; value: readonly SessionSummary[] };
  listSubagents: { params: { readonly sessionId: string; readonly project?: string }; value: readonly SubagentSummary[] };
  indexedSessions: { params: { readonly projectsDir: string }; value: readonly IndexedSession[] };
  recordPermission: { params: { readonly entry: AuditPermission }; value: null };
  recordInterrupt: { params: { readonly entry: AuditInterrupt }; value: null };
  recordPolicyDecision: { params: { readonly entry: AuditPolicyRecord }; value: null };
  recordOrchestration: { params: { readonly entry: AuditOrchestration }; value: null };
  recordFork: { params: { readonly entry: AuditFork }; value: null };
  recordRewind: { params: { readonly entry: AuditRewind }; value: null };
  readAudit: { params: { readonly sessionId: string }; value: SessionTrail };
  readForks: { params: Record<string, never>; value: readonly AuditFork[] };
  close: { params: Record<string, never>; value: null };
}

export type StoreMethod = keyof StoreMethods;

export interface StoreRequest<M extends StoreMethod = StoreMethod> {
  readonly id: number;
  readonly method: M;
  readonly params: StoreMethods[M]["params"];
}

export type StoreResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: StoreErrorInfo };

/** id 0 is the worker's "opened" answer, sent once before any request is served. */
export type StoreResponse = { readonly id: number } & StoreResult<unknown>;

export interface StoreWorkerData {
  readonly dbPath: string;
  /** The audit trail's file; default audit.sqlite beside dbPath. */
  readonly auditPath?: string;
  readonly batchBytes?: number;
  /** See StoreServiceOptions.auditWhenIndexRefused. */
  readonly auditWhenIndexRefused?: boolean;
  /** See StoreServiceOptions.besideNewerIndex. */
  readonly besideNewerIndex?: boolean;
  /** The module the bootstrap imports (a .ts file under tsx, a .js file when built). */
  readonly entry: string;
  /** A better-sqlite3 binary to load instead of node_modules' (the Electron build, in the app). */
  readonly nativeBinding?: string;
}

// The main process's side of the audit trail: fire-and-forget writes to the store worker. A
// write never delays the decision or the interrupt it records (the CLI gets its answer first);
// a write that fails is reported to `onError` (the Console), never retried into the UI's path.
import { policyRecord, type AuditFork, type AuditInterrupt, type AuditOrchestration, type AuditPermission, type AuditPolicyDecision, type AuditRewind, type SessionAudit } from "../audit/audit.js";
import type { StoreClient } from "./storeClient.js";

export interface AuditTrail {
  permission(entry: AuditPermission): void;
  interrupt(entry: AuditInterrupt): void;
  /** A policy verdict (hook or can_use_tool); only a digest of its input is sent and stored. */
  policyDecision(entry: AuditPolicyDecision): void;
  /** A row of the session DAG: a spawn, a status change, a question, a plan, a route, an answer, a review, a phase. */
  orchestration(entry: AuditOrchestration): void;
  /** A fork Baton made (issue 37): the edge from the session it continues to the fork's session. */
  fork(entry: AuditFork): void;
  /** A file rewind Baton applied (issue 37): a restore marks the prompt again from it. */
  rewind(entry: AuditRewind): void;
  /** Settles once every write handed over so far has been answered (shutdown, tests). */
  flush(): Promise<void>;
}

/** What a restore needs: a session's trail, or undefined when it cannot be read (restore as before). */
export type AuditReader = (sessionId: string) => Promise<SessionAudit | undefined>;

/** Every fork recorded, by the fork's session id; empty when the trail cannot be read (the list goes on without links). */
export type ForkReader = () => Promise<ReadonlyMap<string, AuditFork>>;

export type AuditStore = Pick<StoreClient, "recordPermission" | "recordInterrupt" | "recordPolicyDecision" | "recordOrchestration" | "recordFork" | "recordRewind" | "readAudit">;

export function createAuditTrail(store: AuditStore, onError: (what: string, error: unknown) => void): AuditTrail {
  const inFlight = new Set<Promise<unknown>>();
  const track = (what: string, write: () => Promise<unknown>): void => {
    let p: Promise<unknown>;
    try {
      p = write();
    } catch (error) {
      onError(what, error);
      return;
    }
    const done = p.then(
      () => undefined,
      (error: unknown) => onError(what, error),
    );
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };
  return {
    permission: (entry) => track("permission decision", () => store.recordPermission(entry)),
    interrupt: (entry) => track("interrupt", () => store.recordInterrupt(entry)),
    policyDecision: (entry) => track("policy decision", () => store.recordPolicyDecision(policyRecord(entry))),
    orchestration: (entry) => track(`${entry.kind} of ${entry.agentToolUseId}`, () => store.recordOrchestration(entry)),
    fork: (entry) => track(`fork ${entry.forkSessionId} of ${entry.originSessionId}`, () => store.recordFork(entry)),
    rewind: (entry) => track(`rewind of ${entry.sessionId} to ${entry.promptUuid}`, () => store.recordRewind(entry)),
    async flush() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** Reads a session's trail; a failure is reported and the restore goes on without it. */
export function createAuditReader(store: AuditStore, onError: (what: string, error: unknown) => void): AuditReader {
  return async (sessionId) => {
    try {
      return await store.readAudit(sessionId);
    } catch (error) {
      onError(`audit trail of ${sessionId}`, error);
      return undefined;
    }
  };
}

/** Reads every fork; a failure is reported and the list goes on without the links. */
export function createForkReader(store: Pick<StoreClient, "readForks">, onError: (what: string, error: unknown) => void): ForkReader {
  return async () => {
    try {
      return new Map((await store.readForks()).map((f) => [f.forkSessionId, f]));
    } catch (error) {
      onError("forks", error);
      return new Map();
    }
  };
}

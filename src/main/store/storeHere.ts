// The store on the calling thread, for a one-shot command (`baton search`): nothing else waits on
// that thread, so the worker the app needs (src/main/store/storeClient.ts: no query may hold the
// Electron main thread) would only add its start, about a fifth of a search's wall time. The same
// StoreClient face, and the same errors: whatever the service throws arrives as a StoreError with
// the code the worker would have sent.
import { StoreError, toErrorInfo } from "../platform/sqlite/errors.js";
import { useNativeBinding } from "../platform/sqlite/openDatabase.js";
import type { OpenStoreOptions, StoreClient } from "./storeClient.js";
import { StoreService } from "./storeService.js";

type HereOptions = Omit<OpenStoreOptions, "workerEntry">;

/** Opens the database on this thread; rejects with a StoreError (e.g. `newer_schema`) as openStore does. */
export async function openStoreHere(options: HereOptions): Promise<StoreClient> {
  useNativeBinding(options.nativeBinding);
  const service = await settled(() =>
    new StoreService({
      dbPath: options.dbPath,
      ...(options.auditPath !== undefined ? { auditPath: options.auditPath } : {}),
      ...(options.batchBytes !== undefined ? { batchBytes: options.batchBytes } : {}),
      ...(options.auditWhenIndexRefused === true ? { auditWhenIndexRefused: true } : {}),
      ...(options.besideNewerIndex === true ? { besideNewerIndex: true } : {}),
    }),
  );
  let closed = false;
  const open = <T>(work: () => T | Promise<T>): Promise<T> =>
    closed ? Promise.reject(new StoreError("closed", "the store is closed")) : settled(work);
  return {
    info: service.info(),
    index: (projectsDir, runOptions) => open(() => service.index(projectsDir, runOptions)),
    search: (query, searchOptions) => open(() => service.search(query, searchOptions)),
    listSessions: (listOptions) => open(() => service.listSessions(listOptions)),
    listSubagents: (sessionId, project) => open(() => service.listSubagents(sessionId, project)),
    indexedSessions: (projectsDir) => open(() => service.indexedSessions(projectsDir)),
    recordPermission: (entry) => open(() => (service.recordPermission(entry), null)),
    recordInterrupt: (entry) => open(() => (service.recordInterrupt(entry), null)),
    recordPolicyDecision: (entry) => open(() => (service.recordPolicyDecision(entry), null)),
    recordOrchestration: (entry) => open(() => (service.recordOrchestration(entry), null)),
    recordFork: (entry) => open(() => (service.recordFork(entry), null)),
    recordRewind: (entry) => open(() => (service.recordRewind(entry), null)),
    readAudit: (sessionId) => open(() => service.readAudit(sessionId)),
    readForks: () => open(() => service.readForks()),
    close: async () => {
      if (closed) return;
      closed = true;
      service.close();
    },
  };
}

/** `work`'s value, or its failure as the StoreError the worker's reply would have carried. */
async function settled<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof StoreError) throw err;
    const info = toErrorInfo(err);
    throw new StoreError(info.code, info.message);
  }
}

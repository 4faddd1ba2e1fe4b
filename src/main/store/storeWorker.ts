// The store's worker thread: owns the SQLite connection so no query ever runs on the Electron
// main thread or the renderer. Answers requests in arrival order (index runs are serialised by
// the service; searches are answered between an index run's batches).
import { parentPort, workerData } from "node:worker_threads";
import { toErrorInfo } from "../platform/sqlite/errors.js";
import { useNativeBinding } from "../platform/sqlite/openDatabase.js";
import { StoreService } from "./storeService.js";
import type { StoreRequest, StoreResponse, StoreWorkerData } from "./workerProtocol.js";

const port = parentPort;
if (!port) throw new Error("storeWorker must run in a worker thread");
const data = workerData as StoreWorkerData;

function reply(response: StoreResponse): void {
  port!.postMessage(response);
}

let service: StoreService | undefined;
try {
  useNativeBinding(data.nativeBinding);
  service = new StoreService({
    dbPath: data.dbPath,
    ...(data.auditPath !== undefined ? { auditPath: data.auditPath } : {}),
    ...(data.batchBytes ? { batchBytes: data.batchBytes } : {}),
    ...(data.auditWhenIndexRefused === true ? { auditWhenIndexRefused: true } : {}),
    ...(data.besideNewerIndex === true ? { besideNewerIndex: true } : {}),
  });
  reply({ id: 0, ok: true, value: service.info() });
} catch (err) {
  reply({ id: 0, ok: false, error: toErrorInfo(err) });
}

port.on("message", (request: StoreRequest) => {
  void handle(request).then(
    (value) => reply({ id: request.id, ok: true, value }),
    (err: unknown) => reply({ id: request.id, ok: false, error: toErrorInfo(err) }),
  );
});

async function handle(request: StoreRequest): Promise<unknown> {
  const s = service;
  if (!s) throw new Error("the store did not open");
  const p = request.params as Record<string, unknown>;
  switch (request.method) {
    case "info":
      return s.info();
    case "index":
      return s.index(String(p["projectsDir"]), p["options"] as never);
    case "search":
      return s.search(String(p["query"]), p["options"] as never);
    case "listSessions":
      return s.listSessions(p["options"] as never);
    case "listSubagents":
      return s.listSubagents(String(p["sessionId"]), typeof p["project"] === "string" ? p["project"] : undefined);
    case "indexedSessions":
      return s.indexedSessions(String(p["projectsDir"]));
    case "recordPermission":
      s.recordPermission(p["entry"] as never);
      return null;
    case "recordInterrupt":
      s.recordInterrupt(p["entry"] as never);
      return null;
    case "recordPolicyDecision":
      s.recordPolicyDecision(p["entry"] as never);
      return null;
    case "recordOrchestration":
      s.recordOrchestration(p["entry"] as never);
      return null;
    case "recordFork":
      s.recordFork(p["entry"] as never);
      return null;
    case "recordRewind":
      s.recordRewind(p["entry"] as never);
      return null;
    case "readAudit":
      return s.readAudit(String(p["sessionId"]));
    case "readForks":
      return s.readForks();
    case "close":
      s.close();
      return null;
    default:
      throw new Error(`unknown store method ${String(request.method)}`);
  }
}

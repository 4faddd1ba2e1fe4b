// A SessionManager that runs the real CLI of a test's isolated environment, with stop timeouts
// short enough for tests; `withHistory` reads that environment's projects folder. `appCoreFor`:
// the whole app core (store, audit trail, history) over the same environment.
import path from "node:path";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { BatonService } from "../../src/main/core/batonService.js";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { SessionManager, type SessionManagerOptions } from "../../src/main/core/sessionManager.js";
import { createCliEnv, type CliEnv } from "./cliEnv.js";
import { startModelServer, type ModelServer, type Script } from "./modelServer.js";

export function managerFor(env: CliEnv, options: { readonly withHistory?: boolean } & Partial<SessionManagerOptions> = {}): SessionManager {
  const { withHistory, ...rest } = options;
  return new SessionManager({
    claudePath: env.claudePath,
    env: env.env,
    clientDefaults: { stopTimeouts: { closeStdinMs: 3000, sigtermMs: 3000 } },
    ...(withHistory === true ? { history: createHistorySource({ projectsDir: env.projectsDir }) } : {}),
    ...rest,
  });
}

/** The app core as the desktop app makes it, its database in the environment's HOME (the same file each time: a restart). */
export function appCoreFor(env: CliEnv): Promise<AppCore> {
  return createAppCore({
    projectsDir: env.projectsDir,
    dbPath: appDatabase(env),
    claudePath: env.claudePath,
    env: env.env,
    clientDefaults: { stopTimeouts: { closeStdinMs: 3000, sigtermMs: 3000 } },
  });
}

/** Where appCoreFor keeps the app's database. */
export function appDatabase(env: CliEnv): string {
  return path.join(env.home, ".config", "baton", "baton.db");
}

/** A scripted model, an isolated CLI environment and the service over a manager reading its history: what app-core tests start from. */
export interface ServiceApp {
  readonly model: ModelServer;
  readonly env: CliEnv;
  readonly service: BatonService;
  /** Stops the sessions, the model and the environment, in that order. */
  close(): Promise<void>;
}

export async function serviceAppFor(script: Script, cwdName: string): Promise<ServiceApp> {
  const model = await startModelServer(script);
  const env = await createCliEnv({ baseUrl: model.url, cwdName });
  const manager = managerFor(env, { withHistory: true });
  return {
    model,
    env,
    service: new BatonService(manager),
    async close() {
      await manager.shutdown();
      await model.close();
      await env.cleanup();
    },
  };
}

// A SessionManager that runs the real CLI of a test's isolated environment, with stop timeouts
// short enough for tests; `withHistory` reads that environment's projects folder. `appCoreFor`:
// the whole app core (store, audit trail, history) over the same environment.
import path from "node:path";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { SessionManager, type SessionManagerOptions } from "../../src/main/core/sessionManager.js";
import type { CliEnv } from "./cliEnv.js";

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

// A SessionManager that runs the real CLI of a test's isolated environment, with stop timeouts
// short enough for tests; `withHistory` reads that environment's projects folder.
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

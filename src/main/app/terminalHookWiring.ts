// Joins the terminal hooks' socket (src/main/terminal/) to the core's handler (SessionManager's
// handleTerminalHook, core/terminalSessions.ts): the desktop window and `baton web` listen for
// the hooks of sessions started with `baton claude`. A socket that cannot be made costs only that:
// Baton runs on, the Console says why, and the terminal's hooks ask in the terminal.
import type { LogBus } from "../platform/logBus.js";
import type { SessionManager } from "../core/sessionManager.js";
import { startHookServer } from "../terminal/hookServer.js";
import { runFolderPath } from "../terminal/runFolder.js";

/** Stops listening (open hooks are answered "ask"). */
export type StopTerminalHooks = () => Promise<void>;

export async function startTerminalHooks(manager: SessionManager, env: NodeJS.ProcessEnv, log: LogBus): Promise<StopTerminalHooks> {
  const started = await startHookServer({
    folder: runFolderPath(env),
    handler: (input, gaveUp, launch) => manager.handleTerminalHook(input, gaveUp, launch),
    log,
  });
  if (!started.ok) {
    log.baton("warning", `terminal sessions (baton claude) cannot reach Baton: ${started.error}; their requests are asked in the terminal`);
    return async () => undefined;
  }
  log.baton("info", "listening for terminal sessions' hooks (baton claude)", { socket: started.server.socket });
  return () => started.server.stop();
}

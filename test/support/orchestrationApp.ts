// The app core in orchestration mode over a test CLI env, driven as the window drives it: Baton's
// files in the temp HOME's .config/baton, a person present, one session tab watched; and the
// session's audit trail as `baton audit --json` prints it.
import path from "node:path";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import { run as auditRun } from "../../src/main/commands/audit.js";
import type { PermissionMode } from "../../src/shared/protocol/messages.js";
import type { CliEnv } from "./cliEnv.js";
import { watchTab, type TabWatch } from "./tabWatch.js";
import { value } from "./apiValue.js";
// A test of these apps takes `value` from here too.
export { value };

export interface OrchestrationApp {
  readonly core: AppCore;
  readonly tabId: string;
  readonly tab: TabWatch;
  /** The index (the audit trail is beside it). */
  readonly dbPath: string;
  /** Closes the core (which flushes the trail), then prints the session's trail as JSON rows. */
  auditRows<T>(sessionId: string): Promise<T[]>;
  close(): Promise<void>;
}

export async function openOrchestrationApp(env: CliEnv, waitMs: number, permissionMode: PermissionMode = "default"): Promise<OrchestrationApp> {
  const dbPath = path.join(env.home, ".config", "baton", "index.sqlite");
  const core = await createAppCore({
    claudePath: env.claudePath,
    env: env.env,
    settingsFile: path.join(env.home, ".config", "baton", "settings.json"),
    dbPath,
    projectsDir: env.projectsDir,
    orchestration: true,
    clientDefaults: { stopTimeouts: { closeStdinMs: 3000, sigtermMs: 3000 } },
  });
  const release = core.manager.acquirePresence();
  const tabId = value(await core.service.newSession({ cwd: env.cwd, permissionMode })).tabId;
  const tab = watchTab(core.service, tabId, waitMs);
  return {
    core,
    tabId,
    tab,
    dbPath,
    async auditRows<T>(sessionId: string): Promise<T[]> {
      await core.close();
      const out: string[] = [];
      const err: string[] = [];
      const code = await auditRun([sessionId, "--db", dbPath, "--json"], { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
      if (code !== 0) throw new Error(`baton audit exited ${code}: ${err.join("")}`);
      return JSON.parse(out.join("")) as T[];
    },
    async close() {
      tab.stop();
      release();
      await core.close();
    },
  };
}

// The app core as a window would hold it, for the fault tests: the scripted model server, an
// isolated CLI env, a SessionManager + BatonService on the real CLI, a window's presence, and a
// watch on each tab opened. `close()` stops all of it.
import { BatonService } from "../../../src/main/core/batonService.js";
import type { SessionManager, SessionManagerOptions } from "../../../src/main/core/sessionManager.js";
import type { LogEntry, TabInfo } from "../../../src/shared/api.js";
import type { Block, Transcript } from "../../../src/shared/transcript.js";
import { managerFor } from "../appManager.js";
import { createCliEnv, type CliEnv } from "../cliEnv.js";
import { startModelServer, type ModelServer, type Script } from "../modelServer.js";
import { watchTab, type TabWatch } from "../tabWatch.js";
import { value } from "../apiValue.js";
// A test of these apps takes `value` from here too.
export { value };

export const FaultWaitMs = 90_000;

export interface FaultApp {
  readonly model: ModelServer;
  readonly env: CliEnv;
  readonly manager: SessionManager;
  readonly service: BatonService;
  /** Every Console entry since the start, in order. */
  readonly console: readonly LogEntry[];
  /** Opens a live tab on the env's folder and watches it. */
  open(options?: { readonly permissionMode?: "default" | "bypassPermissions" }): Promise<{ tab: TabInfo; watch: TabWatch }>;
  /** The window goes away (its presence is released); returns a function that brings one back. */
  closeWindow(): () => void;
  close(): Promise<void>;
}

export interface FaultAppOptions {
  readonly cwdName: string;
  readonly manager?: Partial<SessionManagerOptions>;
  /** Replaces the env's claude (a wrapper around it, or a stand-in); gets the env to find the real one. */
  readonly claudePath?: (env: CliEnv) => string;
}

export async function startFaultApp(script: Script, options: FaultAppOptions): Promise<FaultApp> {
  const model = await startModelServer(script);
  const env = await createCliEnv({ baseUrl: model.url, cwdName: options.cwdName });
  model.setProjectsDir(env.projectsDir);
  const claudePath = options.claudePath?.(env) ?? env.claudePath;
  // With the history folder, as the app runs: a live tab reads its files from there.
  const manager = managerFor({ ...env, claudePath }, { withHistory: true, ...options.manager });
  const service = new BatonService(manager);
  const console: LogEntry[] = [];
  const stopLog = manager.onLog((entry) => console.push(entry));
  let release: (() => void) | undefined = manager.acquirePresence();
  const watches: TabWatch[] = [];
  return {
    model,
    env,
    manager,
    service,
    console,
    async open(openOptions = {}) {
      const tab = value(await service.newSession({ cwd: env.cwd, ...openOptions }));
      const watch = watchTab(service, tab.tabId, FaultWaitMs);
      watches.push(watch);
      return { tab, watch };
    },
    closeWindow() {
      release?.();
      release = undefined;
      return () => {
        release ??= manager.acquirePresence();
      };
    },
    async close() {
      for (const watch of watches) watch.stop();
      stopLog();
      release?.();
      await manager.shutdown();
      await model.close();
      await env.cleanup();
    },
  };
}

/** Every block of the transcript, subagents' steps included, depth first. */
export function allBlocks(blocks: readonly Block[]): Block[] {
  const out: Block[] = [];
  for (const block of blocks) {
    out.push(block);
    if (block.call?.subagent !== undefined) out.push(...allBlocks(block.call.subagent.blocks));
  }
  return out;
}

/** What still shows a spinner: a call or subagent card still running. */
export function stillSpinning(t: Transcript): string[] {
  const out: string[] = [];
  for (const block of allBlocks(t.blocks)) {
    const call = block.call;
    if (call === undefined) continue;
    if (call.status === "running" || call.status === "pending") out.push(`${call.name} ${call.toolUseId}: ${call.status}`);
    if (call.subagent?.status === "running") out.push(`subagent of ${call.toolUseId}: running`);
  }
  return out;
}

export function noticesOf(t: Transcript, level: "info" | "warning" | "error"): string[] {
  return t.blocks.filter((b) => b.kind === "notice" && b.level === level).map((b) => b.text ?? "");
}

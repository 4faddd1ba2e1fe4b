// Wires the headless core once, for the Electron window and for `baton web` alike: find the
// CLI, choose the history folder (historyFolder.ts), open the history index (optional: search
// says "unavailable" without it), build the session manager and the service. `close()` shuts
// down in order: sessions, then the store.

import path from "node:path";
import { findClaude, type FindClaudeResult } from "../cli/findClaude.js";
import { ClaudeInstallCommand, type ClaudeStatus } from "../../shared/api.js";
import { auditMovedMessage } from "../audit/auditDatabase.js";
import { createAuditReader, createAuditTrail, createForkReader } from "../store/auditTrail.js";
import { checkDbPath, processDbPathEnv } from "../platform/dbPath.js";
import { StoreError } from "../platform/sqlite/errors.js";
import { openStore, type OpenStoreOptions, type StoreClient } from "../store/storeClient.js";
import { indexUpgradedMessage } from "../store/indexUpgraded.js";
import { keepIndexFresh } from "../store/indexRefresh.js";
import { BatonService, type BatonServiceOptions } from "../core/batonService.js";
import { HistoryFolderSetting } from "../core/historyFolder.js";
import { createHistorySource, switchableHistorySource } from "../core/historySource.js";
import { LogBus } from "../platform/logBus.js";
import { DefaultMaxRunningSessions } from "../core/processCap.js";
import { SessionManager, type SessionManagerOptions } from "../core/sessionManager.js";
import { readConductorAnswerSeconds, readSessionLimit } from "../platform/settingsFile.js";
import { PolicyService } from "../policy/policyService.js";
import { SandboxService } from "../sandbox/sandboxService.js";
import { startTerminalHooks } from "./terminalHookWiring.js";

/** What sessions try to run when no `claude` was found (the error then names it). */
const NotFoundClaude = "claude (not found: run `baton doctor`)";

export interface AppCoreOptions {
  /** An explicit history folder (`--projects-dir`): wins over the one saved in the settings file. */
  readonly projectsDir?: string;
  /** Baton's settings file (the history folder setting); absent: the folder cannot be changed from the UI. */
  readonly settingsFile?: string;
  /** The history index; undefined: no index (search unavailable). */
  readonly dbPath?: string;
  /** How the bundled app starts the index: its emitted worker file, its Electron-ABI SQLite binary. */
  readonly storeRuntime?: Pick<OpenStoreOptions, "workerEntry" | "nativeBinding">;
  /** How the bundled app starts the OS sandbox's host process: its emitted file. */
  readonly sandboxHostEntry?: URL;
  /** An explicit `claude` binary; else BATON_CLAUDE_PATH, PATH, install dirs (never Baton's own node_modules). */
  readonly claudePath?: string;
  /** Baton's package folder, whose node_modules' test copy of `claude` is skipped (default: found from the module). */
  readonly batonDir?: string;
  /** The usual install places looked in after PATH (default: findClaude's usualInstallDirs). */
  readonly claudeInstallDirs?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly permissionGraceMs?: number;
  /** How long the conductor has to answer a subagent before the person is asked; wins over the settings file's `conductorAnswerSeconds`. */
  readonly conductorTimeoutMs?: number;
  /** The cap on running CLI processes; wins over the settings file's `maxRunningSessions`. */
  readonly maxRunningSessions?: number;
  readonly clientDefaults?: SessionManagerOptions["clientDefaults"];
  /** `--orchestration`: presets and their sandboxes for this run, over the setting. */
  readonly orchestration?: boolean;
  readonly service?: Omit<BatonServiceOptions, "historyFolder">;
  /** Listen for the hooks of sessions started with `baton claude` (the window and `baton web`; issue 35), in the run folder of `env`. */
  readonly terminalHooks?: boolean;
}

export interface AppCore {
  readonly manager: SessionManager;
  readonly service: BatonService;
  readonly log: LogBus;
  readonly historyFolder: HistoryFolderSetting;
  readonly policy: PolicyService;
  close(): Promise<void>;
}

export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  const log = new LogBus();
  const found = findClaude({
    ...(options.claudePath !== undefined ? { explicitPath: options.claudePath } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.batonDir !== undefined ? { batonDir: options.batonDir } : {}),
    ...(options.claudeInstallDirs !== undefined ? { installDirs: options.claudeInstallDirs } : {}),
  });
  // The first thing a person without the CLI reads: what still works and what to do, in one line.
  if (!found.found) log.baton("warning", `Claude Code CLI not found: history and search work; to start sessions, install it (${ClaudeInstallCommand}) and restart Baton`, { tried: found.tried.map((t) => t.path) });
  else log.baton("info", "using claude", { path: found.path, source: found.source, ...(found.pathEntry !== undefined ? { pathEntry: found.pathEntry } : {}) });

  const folder = await historyFolderOf(options, log);
  const store = options.dbPath === undefined ? undefined : await openIndex({ ...options.storeRuntime, dbPath: options.dbPath }, folder.current.projectsDir, log);
  // An index from a newer Baton is left alone, search is off; the audit trail still records.
  const searchable = store !== undefined && store.info.refused === null;
  let stopRefresh = searchable ? refreshIndex(store, folder.current.projectsDir, log) : undefined;
  // The audit trail (audit.sqlite) goes through the store's worker; a failed write is logged, the
  // action stands. A damaged trail moved aside is an error: earlier decisions now live elsewhere.
  const auditFailed = (what: string, error: unknown): void => {
    const moved = error instanceof StoreError && error.code === "corrupt_recovered";
    // Locked by another program, or its disk full: the decision is kept and written later, as the message says.
    if (error instanceof StoreError && (error.code === "busy" || error.code === "disk_full")) log.baton("warning", error.message, { what });
    else log.baton(moved ? "error" : "warning", `could not use the audit trail (${what})`, { error: String(error) });
  };
  const audit = store === undefined ? undefined : createAuditTrail(store, auditFailed);
  const auditReader = store === undefined ? undefined : createAuditReader(store, auditFailed);
  const forkReader = store === undefined ? undefined : createForkReader(store, auditFailed);
  const history = switchableHistorySource(folder.current.projectsDir, (projectsDir) =>
    createHistorySource({
      projectsDir,
      ...(searchable ? { store } : {}),
      ...(auditReader ? { audit: auditReader } : {}),
      ...(forkReader ? { forks: forkReader } : {}),
      onListProblem: (p) => log.baton("warning", `${p.message}: ${p.path}`, { path: p.path }),
    }),
  );
  // A new folder is listed at once; its sessions become searchable as the index reads them.
  const stopFollowingFolder = folder.onChange(({ projectsDir, source }) => {
    history.switchTo(projectsDir);
    log.baton("info", "history folder changed", { projectsDir, source });
    if (searchable) {
      stopRefresh?.();
      stopRefresh = refreshIndex(store, projectsDir, log);
    }
  });
  const home = (options.env ?? process.env)["HOME"];
  // Preset agents' Bash runs in the OS sandbox (issue 31): its hosts start on the first command.
  const sandbox = new SandboxService({
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.sandboxHostEntry !== undefined ? { hostEntry: options.sandboxHostEntry } : {}),
    log: (level, message, fields) => log.baton(level, message, fields ?? {}),
  });
  const policy = await PolicyService.open({
    ...(options.settingsFile !== undefined ? { settingsFile: options.settingsFile } : {}),
    ...(options.orchestration !== undefined ? { orchestration: options.orchestration } : {}),
    ...(home !== undefined && home !== "" ? { home } : {}),
    sandbox,
    ...(options.dbPath !== undefined ? { ownFiles: [path.dirname(options.dbPath)] } : {}),
    log: (level, message, fields) => log.baton(level, message, fields ?? {}),
  });
  if (policy.orchestration) log.baton("info", "orchestration mode is on", { presets: policy.presets.source, protection: policy.sandboxState().message });
  const manager = new SessionManager({
    policy,
    // Not found: a name no PATH holds, so spawning fails with "not found" rather than running
    // whatever `claude` the process's PATH has first (under `npm start`, Baton's own test copy).
    claudePath: found.found ? found.path : (options.claudePath ?? NotFoundClaude),
    ...(options.env ? { env: options.env } : {}),
    history,
    ...(audit ? { audit } : {}),
    ...(auditReader ? { readAudit: auditReader } : {}),
    ...(forkReader ? { readForks: forkReader } : {}),
    log,
    ...(options.permissionGraceMs !== undefined ? { permissionGraceMs: options.permissionGraceMs } : {}),
    maxRunningSessions: maxRunningSessionsOf(options, log),
    ...conductorTimeoutOf(options, log),
    // Streamed text shows as it is written; the publisher coalesces the extra events per tick.
    clientDefaults: options.clientDefaults ?? { includePartialMessages: true },
  });
  const service = new BatonService(manager, { ...options.service, historyFolder: folder, claude: claudeStatusOf(found) });
  const stopTerminalHooks = options.terminalHooks === true ? await startTerminalHooks(manager, options.env ?? process.env, log) : undefined;
  let closing: Promise<void> | undefined;
  return {
    manager,
    service,
    log,
    historyFolder: folder,
    policy,
    close() {
      closing ??= (async () => {
        stopFollowingFolder();
        await stopTerminalHooks?.(); // no hook arrives while the sessions shut down
        await manager.shutdown();
        await sandbox.close(); // after the CLIs: their sandboxed commands are gone with them
        await audit?.flush(); // the decisions shutdown made are written before the store closes
        stopRefresh?.();
        await store?.close();
      })();
      return closing;
    },
  };
}

/**
 * Opens the index (createAppCore then refreshes it in the background). A failure costs search and the audit trail.
 * An index from a newer Baton is left as it is, and this Baton keeps its own beside it (the index is a
 * cache); only if that one too is newer is search off (the store stays open for the trail).
 */
async function openIndex(storeOptions: OpenStoreOptions, projectsDir: string, log: LogBus): Promise<StoreClient | undefined> {
  const { dbPath } = storeOptions;
  try {
    const store = await openStore({ ...storeOptions, dbPath: checkDbPath(dbPath, processDbPathEnv(projectsDir)), auditWhenIndexRefused: true, besideNewerIndex: true });
    logStoreOpened(store, log);
    if (store.info.refused !== null) {
      log.baton("warning", "history index unavailable; search is off (the audit trail still records decisions)", { dbPath, error: store.info.refused.message });
      return store;
    }
    return store;
  } catch (error) {
    log.baton("warning", "history index unavailable; search is off", { dbPath, error: String(error) });
    return undefined;
  }
}

/** Indexes what is new in `projectsDir`, in the background, again later while a lock or a full disk stops it; returns what stops that. */
function refreshIndex(store: StoreClient, projectsDir: string, log: LogBus): () => void {
  return keepIndexFresh(store, projectsDir, (level, message, fields) => log.baton(level, message, fields));
}

function claudeStatusOf(found: FindClaudeResult): ClaudeStatus {
  return found.found ? { found: true, path: found.path } : { found: false, tried: found.tried.map((t) => t.path) };
}

/** The history folder in use, said in the Console: where it came from, and whether it is there. */
async function historyFolderOf(options: AppCoreOptions, log: LogBus): Promise<HistoryFolderSetting> {
  const env = options.env ?? process.env;
  const home = env["HOME"];
  const folder = new HistoryFolderSetting({
    ...(options.projectsDir !== undefined ? { commandLine: options.projectsDir } : {}),
    ...(options.settingsFile !== undefined ? { settingsFile: options.settingsFile } : {}),
    ...(options.dbPath !== undefined ? { ownFiles: [options.dbPath] } : {}),
    env,
    // Where the CLI, run with this environment, keeps its history.
    ...(options.env !== undefined && home !== undefined && home !== "" ? { homeDir: home } : {}),
  });
  if (folder.problem !== undefined) log.baton("warning", folder.problem, { settingsFile: options.settingsFile ?? null });
  const info = await folder.info();
  if (info.exists) log.baton("info", "history folder", { projectsDir: info.projectsDir, source: info.source });
  else log.baton("warning", `the history folder ${info.projectsDir} does not exist`, { projectsDir: info.projectsDir, source: info.source });
  return folder;
}

/** The cap on running CLI processes: the explicit option, else the settings file's, else the default. */
function maxRunningSessionsOf(options: AppCoreOptions, log: LogBus): number {
  if (options.maxRunningSessions !== undefined) return options.maxRunningSessions;
  const read = options.settingsFile === undefined ? {} : readSessionLimit(options.settingsFile);
  if (read.problem !== undefined) log.baton("warning", read.problem, { default: DefaultMaxRunningSessions });
  return read.maxRunningSessions ?? DefaultMaxRunningSessions;
}

/** How long the conductor has to answer a subagent (issue 24): the explicit option, else the settings file's. */
function conductorTimeoutOf(options: AppCoreOptions, log: LogBus): { conductorTimeoutMs?: number } {
  if (options.conductorTimeoutMs !== undefined) return { conductorTimeoutMs: options.conductorTimeoutMs };
  const read = options.settingsFile === undefined ? {} : readConductorAnswerSeconds(options.settingsFile);
  if (read.problem !== undefined) log.baton("warning", read.problem, {});
  return read.seconds === undefined ? {} : { conductorTimeoutMs: read.seconds * 1000 };
}

/** What opening found that the person should know: a moved-aside audit file above all. */
function logStoreOpened(store: StoreClient, log: LogBus): void {
  const { audit, retired, movedAsideTo, dbPath, waiting, newerIndex } = store.info;
  if (waiting !== null) log.baton("warning", waiting.message, { dbPath, code: waiting.code });
  if (newerIndex !== null) {
    log.baton(
      "warning",
      `the search index ${newerIndex.path} has schema version ${newerIndex.schemaVersion}, written by a newer Baton (this one knows up to ${store.info.schemaVersion ?? "?"}): ` +
        `it is left as it is, and this Baton keeps its own index beside it in ${dbPath}, built from the history files`,
      { dbPath, newerIndex: newerIndex.path },
    );
  }
  if (audit.movedAsideTo !== null) log.baton("error", auditMovedMessage(audit.path, audit.movedAsideTo), { path: audit.path, movedAsideTo: audit.movedAsideTo });
  if (audit.error !== null) log.baton("error", audit.error.message, { path: audit.path, code: audit.error.code });
  if (retired !== null && movedAsideTo !== null) {
    log.baton("warning", `the history index was ${retired}; it was moved to ${movedAsideTo}, its audit rows copied to ${audit.path}, and the index is rebuilt`, { dbPath });
  } else if (movedAsideTo !== null) {
    log.baton("warning", `the history index was damaged; it was moved to ${movedAsideTo} and is rebuilt`, { dbPath });
  }
  const { upgradedFrom, schemaVersion } = store.info;
  if (upgradedFrom !== null) log.baton("info", indexUpgradedMessage(upgradedFrom, schemaVersion), { dbPath });
}

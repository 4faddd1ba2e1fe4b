// The whole app in web mode for browser tests: the scripted model server, an isolated CLI env,
// the app core (SessionManager + BatonService), the web server on 127.0.0.1 serving the built
// renderer, and Chromium with one page signed in through the printed link. `close()` stops all of it.
import fsp from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { BatonService } from "../../../src/main/core/batonService.js";
import { createHistorySource } from "../../../src/main/core/historySource.js";
import { LogBus } from "../../../src/main/platform/logBus.js";
import { SessionManager } from "../../../src/main/core/sessionManager.js";
import { PolicyService } from "../../../src/main/policy/policyService.js";
import { SandboxService } from "../../../src/main/sandbox/sandboxService.js";
import { openStore, type StoreClient } from "../../../src/main/store/storeClient.js";
import { createAuditReader, createAuditTrail, createForkReader } from "../../../src/main/store/auditTrail.js";
import { startWebServer, type WebServer } from "../../../src/main/transport/web/webServer.js";
import { createCliEnv, type CliEnv } from "../cliEnv.js";
import { startModelServer, type ModelServer, type Script } from "../modelServer.js";
import { launchBrowser, type LaunchedBrowser } from "./browser.js";
import { ensureRendererBuilt } from "./buildRenderer.js";
import { BatonPage } from "./batonPage.js";

export interface WebApp {
  readonly model: ModelServer;
  readonly env: CliEnv;
  readonly manager: SessionManager;
  /** The search index, when started with `withStore`. */
  readonly store: StoreClient | undefined;
  readonly web: WebServer;
  readonly browser: LaunchedBrowser;
  readonly page: Page;
  readonly baton: BatonPage;
  /** Errors the page threw or logged; tests assert there are none. */
  readonly pageErrors: string[];
  close(): Promise<void>;
}

export interface WebAppOptions {
  readonly cwdName?: string;
  /** Runs before the app starts (e.g. writes history files into `env.projectsDir`). */
  readonly prepare?: (env: CliEnv) => Promise<void>;
  readonly viewport?: { width: number; height: number };
  /** Open a search index (SQLite in the temp HOME); tests call `store.index(projectsDir)`. */
  readonly withStore?: boolean;
  /** Record Baton's audit trail (the store's audit.sqlite, opened with it) as the app does: decisions, interrupts, forks, rewinds. */
  readonly withAudit?: boolean;
  /** The web server's port (default: any free one). */
  readonly port?: number;
  /** Run with Baton's policy (presets, the person's rules, the OS sandbox), its files in the temp HOME's `.config/baton/`. */
  readonly withPolicy?: boolean;
  /** More environment for the CLI (e.g. a subscription's sign-in: test/support/planHeaders.ts). */
  readonly extraEnv?: Record<string, string>;
}

export async function startWebApp(script: Script, options: WebAppOptions = {}): Promise<WebApp> {
  const rendererDir = ensureRendererBuilt();
  const model = await startModelServer(script);
  const env = await createCliEnv({ baseUrl: model.url, cwdName: options.cwdName ?? "project", ...(options.extraEnv !== undefined ? { extraEnv: options.extraEnv } : {}) });
  model.setProjectsDir(env.projectsDir);
  await options.prepare?.(env);
  const store = options.withStore === true || options.withAudit === true ? await openStore({ dbPath: path.join(env.home, "baton-test.db") }) : undefined;
  const log = new LogBus();
  const auditFailed = (what: string, error: unknown): void => log.baton("warning", `could not use the audit trail (${what})`, { error: String(error) });
  const audit = options.withAudit === true && store !== undefined ? createAuditTrail(store, auditFailed) : undefined;
  const auditReaders = options.withAudit === true && store !== undefined ? { audit: createAuditReader(store, auditFailed), forks: createForkReader(store, auditFailed) } : {};
  // Found on the CLI's PATH, as the app does: a test that takes bubblewrap off that PATH sees none.
  const sandbox = options.withPolicy === true ? new SandboxService({ env: env.env, log: (level, message, fields) => log.baton(level, message, fields ?? {}) }) : undefined;
  const policy =
    options.withPolicy === true
      ? await PolicyService.open({
          settingsFile: path.join(env.home, ".config", "baton", "settings.json"),
          home: env.home,
          ...(sandbox !== undefined ? { sandbox } : {}),
          log: (level, message, fields) => log.baton(level, message, fields ?? {}),
        })
      : undefined;
  const manager = new SessionManager({
    log,
    ...(policy !== undefined ? { policy } : {}),
    claudePath: env.claudePath,
    env: env.env,
    history: createHistorySource({ projectsDir: env.projectsDir, ...(store !== undefined ? { store } : {}), ...auditReaders }),
    ...(audit !== undefined ? { audit, readAudit: auditReaders.audit, readForks: auditReaders.forks } : {}),
    clientDefaults: { stopTimeouts: { closeStdinMs: 3000, sigtermMs: 2000 } },
  });
  const service = new BatonService(manager);
  let web: WebServer;
  try {
    web = await startWebServer({ service, rendererDir, ...(options.port !== undefined ? { port: options.port } : {}) });
  } catch (error) {
    await manager.shutdown();
    await sandbox?.close();
    await store?.close();
    await model.close();
    await env.cleanup();
    throw error;
  }
  const browser = await launchBrowser(options.viewport);
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(m.text());
  });
  await page.goto(web.url);
  const baton = new BatonPage(page, env.cwd);
  await baton.waitReady();
  return {
    model,
    env,
    manager,
    store,
    web,
    browser,
    page,
    baton,
    pageErrors,
    async close() {
      await browser.close();
      await web.close();
      await manager.shutdown();
      await sandbox?.close();
      await audit?.flush();
      await store?.close();
      await model.close();
      await env.cleanup();
    },
  };
}

/** Writes a session history file where the CLI would, for restore tests. */
export async function writeHistory(env: CliEnv, sessionId: string, lines: readonly object[]): Promise<string> {
  const slug = env.cwd.replace(/[^A-Za-z0-9]/g, "-");
  const dir = path.join(env.projectsDir, slug);
  await fsp.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${sessionId}.jsonl`);
  await fsp.writeFile(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return file;
}

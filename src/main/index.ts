// Electron entry: wires the window and its security policies. The policies themselves are pure
// functions in ./window/ (tested without Electron); this file only connects them to Electron.
import { app, BrowserWindow, dialog, ipcMain, nativeTheme, net, protocol, session, shell, type WebContents } from "electron";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { storeBindingPath } from "../../scripts/electronNativePaths.mjs";
import { parseAppSwitches } from "./app/appSwitches.js";
import { createAppCore, type AppCore } from "./app/createAppCore.js";
import { SETTINGS_FILE_NAME } from "./platform/settingsFile.js";
import { registerIpc } from "./transport/ipc/registerIpc.js";
import { defaultDbPath } from "./platform/dbPath.js";
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME, resolveAppAsset } from "./window/appProtocol.js";
import { contentSecurityPolicy } from "./platform/contentSecurityPolicy.js";
import { windowOpenHandler } from "./window/externalLinks.js";
import { decideNavigation } from "./window/navigationPolicy.js";
import { allowsPermission } from "./window/permissionPolicy.js";
import { createWindowOptions } from "./window/windowOptions.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, "../renderer");
const preloadPath = path.join(here, "../preload/index.cjs");
// The store's worker thread is an entry of its own in the bundle (electron.vite.config.ts).
const storeWorkerEntry = pathToFileURL(path.join(here, "storeWorker.js"));
const sandboxHostEntry = pathToFileURL(path.join(here, "sandboxHost.js"));
// Set by `electron-vite dev`; a packaged app always loads its own files.
const devServerUrl = app.isPackaged ? undefined : process.env["ELECTRON_RENDERER_URL"];
const appOrigin = devServerUrl ? new URL(devServerUrl).origin : APP_ORIGIN;
const csp = contentSecurityPolicy({ devServerOrigin: devServerUrl ? appOrigin : undefined });

/** Only ever given URLs that passed isAllowedExternalUrl (https: and mailto:): decideNavigation and windowOpenHandler check first. */
function openExternal(url: string): void {
  shell.openExternal(url).catch((error: unknown) => console.error("baton: could not open link", url, error)); // eng-disable OPEN_EXTERNAL_JS_CHECK: allowlisted URLs only (see above)
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function serveAppProtocol(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppAsset(request.url, rendererDir);
    // A file that is not there is a 404 too: net.fetch would reject, failing the request with no status.
    if (!file || !isFile(file)) return new Response("Not found", { status: 404 });
    const response = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(response.headers);
    headers.set("Content-Security-Policy", csp);
    return new Response(response.body, { status: response.status, headers });
  });
}

function hardenSession(): void {
  // Baton's own page may show notifications and write the clipboard; every other permission is refused.
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) => callback(allowsPermission(permission, details.requestingUrl, appOrigin)));
  session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) => allowsPermission(permission, requestingOrigin, appOrigin));
  if (devServerUrl) {
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, "Content-Security-Policy": [csp] } });
    });
  }
}

function guardNavigation(event: { preventDefault(): void }, url: string): void {
  const decision = decideNavigation(url, appOrigin);
  if (decision.kind === "allow") return;
  event.preventDefault();
  if (decision.kind === "open-external") openExternal(decision.url);
}

function hardenContents(contents: WebContents): void {
  contents.on("will-attach-webview", (event) => event.preventDefault());
  contents.on("will-navigate", (event) => guardNavigation(event, event.url));
  contents.on("will-redirect", (event) => guardNavigation(event, event.url));
  contents.setWindowOpenHandler((details) => windowOpenHandler(details, openExternal));
}

let core: AppCore | undefined;
let mainWindow: BrowserWindow | undefined;

async function chooseDirectory(): Promise<string | null> {
  const options = { properties: ["openDirectory" as const, "createDirectory" as const] };
  const result = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

/** A clicked notification: the window to the front, even minimised or behind others (the page's own window.focus() cannot). */
function showWindow(): void {
  if (mainWindow === undefined || mainWindow.isDestroyed()) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

/**
 * better-sqlite3 built for Electron's ABI: an installed app's copy rebuilt by electron-builder,
 * else the one scripts/electronNative.mjs built (`npm start` runs it).
 */
function storeNativeBinding(): string | undefined {
  const file = storeBindingPath(process.versions, process.arch, app.getAppPath(), app.isPackaged ? process.resourcesPath : undefined);
  if (file === undefined || fs.existsSync(file)) return file;
  const fix = app.isPackaged ? "this installation is incomplete: reinstall Baton" : "run `node scripts/electronNative.mjs` (needs network)";
  console.warn(`baton: ${file} is missing, so history search is off; ${fix}`);
  return undefined;
}

/** The headless core and the IPC bridge, before any page can call it. */
async function startCore(): Promise<void> {
  const nativeBinding = storeNativeBinding();
  const switches = parseAppSwitches(process.argv.slice(1));
  core = await createAppCore({
    ...(switches.projectsDir !== undefined ? { projectsDir: switches.projectsDir } : {}),
    ...(switches.orchestration === true ? { orchestration: true } : {}),
    settingsFile: path.join(app.getPath("userData"), SETTINGS_FILE_NAME),
    dbPath: defaultDbPath(),
    storeRuntime: { workerEntry: storeWorkerEntry, ...(nativeBinding !== undefined ? { nativeBinding } : {}) },
    sandboxHostEntry,
    // `npm start` puts this folder's node_modules/.bin first on PATH: its `claude` is for tests.
    batonDir: app.getAppPath(),
    service: { chooseDirectory, showWindow },
    terminalHooks: true,
  });
  for (const problem of switches.problems) core.log.baton("error", problem);
  registerIpc(ipcMain, core.service, () => mainWindow, appOrigin);
}

/** Quit: deny open permission requests, stop every CLI, close the index — then really quit. */
function stopCoreOnQuit(): void {
  let stopped = false;
  app.on("before-quit", (event) => {
    if (stopped || core === undefined) return;
    event.preventDefault();
    stopped = true;
    core
      .close()
      .catch((error: unknown) => console.error("baton: shutdown failed", error))
      .finally(() => app.quit());
  });
  process.on("SIGTERM", () => app.quit());
}

function createMainWindow(): BrowserWindow {
  // The scanner cannot see into createWindowOptions(), which sets contextIsolation, sandbox and
  // disableBlinkFeatures "Auxclick" (pinned by test/unit/windowPolicy.test.ts).
  const window = new BrowserWindow(createWindowOptions({ preloadPath, dark: nativeTheme.shouldUseDarkColors })); // eng-disable CONTEXT_ISOLATION_JS_CHECK SANDBOX_JS_CHECK AUXCLICK_JS_CHECK: set in createWindowOptions() (see above)
  mainWindow = window;
  // Permission requests wait for a person only while a window is open (then fail closed).
  const releasePresence = core?.manager.acquirePresence();
  window.on("closed", () => {
    releasePresence?.();
    if (mainWindow === window) mainWindow = undefined;
  });
  window.once("ready-to-show", () => window.show());
  window.loadURL(devServerUrl ?? APP_ENTRY_URL).catch((error: unknown) => {
    console.error("baton: the window could not load the app", error);
  });
  return window;
}

function start(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
  ]);
  app.enableSandbox();
  stopCoreOnQuit();
  app.on("web-contents-created", (_event, contents) => hardenContents(contents));
  app.on("second-instance", () => {
    const [window] = BrowserWindow.getAllWindows();
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.on("window-all-closed", () => {
    if (process.platform !== "darwin") app.quit();
  });
  app.on("activate", () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow();
  });
  app
    .whenReady()
    .then(async () => {
      hardenSession();
      serveAppProtocol();
      await startCore();
      createMainWindow();
    })
    .catch((error: unknown) => {
      console.error("baton: startup failed", error);
      app.exit(1);
    });
}

// A second launch hands over to the running instance (its window is focused) instead of racing it.
if (app.requestSingleInstanceLock()) start();
else app.quit();

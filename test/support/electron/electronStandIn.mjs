// TEST DOUBLE of the `electron` module, for the shell's boot test (test/integration/electronShellBoot.test.ts
// and uiElectronTransport.test.ts). It is NOT Electron: no window opens, no Chromium runs. The
// built shell (out/main/index.js) is loaded in a plain Node child (shellChild.mjs) whose resolve hook
// (electronLoader.mjs) maps `electron` here, and this module records, in order, every call the
// shell makes (the scheme registered, the window's options, the handlers installed, each
// ipcMain.handle channel, app.quit …) and keeps the handlers, so the test can call them as Electron
// would: ready, the app:// request, a navigation, a permission request, an IPC call from a given
// frame. What it answers by itself is kept to what Electron documents (a privileged scheme only
// before ready, a second handler for a channel refused, app.quit emitting before-quit).
import { EventEmitter } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The double's own state: what the test fires and calls goes through here (shellChild.mjs). */
export const standIn = {
  ready: false,
  /** @type {(entry: {seq: number, what: string, detail: Record<string, unknown>}) => void} */
  onRecord: () => undefined,
  /** @type {(contentsId: number, channel: string, args: unknown[]) => void} */
  onSend: () => undefined,
  /** @type {(code: number) => void} */
  onExit: () => undefined,
  /** @type {Map<string, (request: Request) => Promise<Response> | Response>} */
  protocolHandlers: new Map(),
  /** @type {Map<string, (event: unknown, ...args: unknown[]) => unknown>} */
  ipcHandlers: new Map(),
  /** @type {((contents: unknown, permission: string, callback: (granted: boolean) => void, details: Record<string, unknown>) => void) | undefined} */
  permissionRequestHandler: undefined,
  /** @type {((contents: unknown, permission: string, requestingOrigin: string, details: Record<string, unknown>) => boolean) | undefined} */
  permissionCheckHandler: undefined,
  /** @type {((details: Record<string, unknown>, callback: (response: Record<string, unknown>) => void) => void) | undefined} */
  headersReceivedHandler: undefined,
  /** @type {BrowserWindow[]} */
  windows: [],
  /** app.quit() is closing the windows: their closing is not a reason to quit. */
  quitting: false,
  /** Electron's 'ready': app.whenReady() resolves, protocol and session may be used. */
  fireReady() {
    if (this.ready) return;
    this.ready = true;
    record("app.ready");
    app.emit("ready", newEvent(), {});
    resolveReady();
  },
};

let seq = 0;
/** Appends one entry to what the shell asked of Electron. */
export function record(what, detail = {}) {
  standIn.onRecord({ seq: ++seq, what, detail });
}

/** Electron's event object: preventDefault() and what it decided. */
export function newEvent(fields = {}) {
  return {
    ...fields,
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

/** @type {() => void} */
let resolveReady = () => undefined;
const readyPromise = new Promise((resolve) => (resolveReady = () => resolve(undefined)));

class App extends EventEmitter {
  /** An installed app (BATON_STANDIN_PACKAGED=1), else a checkout run by `npm start`. */
  isPackaged = process.env["BATON_STANDIN_PACKAGED"] === "1";
  name = "Baton";

  /** @param {string | symbol} event @param {(...args: any[]) => void} listener */
  on(event, listener) {
    record("app.on", { event: String(event) });
    return super.on(event, listener);
  }
  requestSingleInstanceLock() {
    const got = process.env["BATON_STANDIN_INSTANCE_LOCK"] !== "held";
    record("app.requestSingleInstanceLock", { got });
    return got;
  }
  enableSandbox() {
    record("app.enableSandbox", { appReady: standIn.ready });
    if (standIn.ready) throw new Error("app.enableSandbox() can only be called before app is ready");
  }
  whenReady() {
    record("app.whenReady");
    return readyPromise;
  }
  isReady() {
    return standIn.ready;
  }
  /** @param {string} name */
  getPath(name) {
    const userData = process.env["BATON_STANDIN_USER_DATA"];
    if (!userData) throw new Error("the stand-in needs BATON_STANDIN_USER_DATA (a temporary folder)");
    record("app.getPath", { name });
    return name === "userData" ? userData : path.join(userData, name);
  }
  getAppPath() {
    return repoRoot;
  }
  getVersion() {
    return JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).version;
  }
  focus() {
    record("app.focus");
  }
  /** As Electron: before-quit (preventable), then the windows close, will-quit, quit, and the process ends. */
  quit() {
    record("app.quit");
    const event = newEvent();
    this.emit("before-quit", event);
    if (event.defaultPrevented) {
      record("app.before-quit.prevented");
      return;
    }
    standIn.quitting = true;
    for (const window of [...standIn.windows]) window.destroy();
    const willQuit = newEvent();
    this.emit("will-quit", willQuit);
    if (willQuit.defaultPrevented) {
      standIn.quitting = false;
      record("app.will-quit.prevented");
      return;
    }
    this.emit("quit", newEvent(), 0);
    record("app.quitting");
    standIn.onExit(0);
  }
  /** @param {number} [code] */
  exit(code = 0) {
    record("app.exit", { code });
    standIn.onExit(code);
  }
}
export const app = new App();

let nextContentsId = 1;
export class WebContents extends EventEmitter {
  /** @param {string} [url] */
  constructor(url = "") {
    super();
    this.id = nextContentsId++;
    /** Electron's mainFrame: one object for the life of the contents, its url follows navigation. */
    this.mainFrame = { url, parent: null, routingId: 1 };
    this.destroyed = false;
    /** @type {((details: Record<string, unknown>) => unknown) | undefined} */
    this.windowOpenHandler = undefined;
  }
  /** @param {string | symbol} event @param {(...args: any[]) => void} listener */
  on(event, listener) {
    record("webContents.on", { contents: this.id, event: String(event) });
    return super.on(event, listener);
  }
  /** @param {(details: Record<string, unknown>) => unknown} handler */
  setWindowOpenHandler(handler) {
    record("webContents.setWindowOpenHandler", { contents: this.id });
    this.windowOpenHandler = handler;
  }
  /** @param {string} channel @param {...unknown} args */
  send(channel, ...args) {
    if (this.destroyed) throw new Error("Object has been destroyed");
    standIn.onSend(this.id, channel, args);
  }
  isDestroyed() {
    return this.destroyed;
  }
  getURL() {
    return this.mainFrame.url;
  }
}

let nextWindowId = 1;
export class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return standIn.windows.slice();
  }
  /** @param {Record<string, any>} [options] */
  constructor(options = {}) {
    super();
    record("BrowserWindow", { options: structuredClone(options) });
    if (!standIn.ready) throw new Error("Cannot create BrowserWindow before app is ready");
    this.id = nextWindowId++;
    this.webContents = new WebContents();
    this.destroyed = false;
    this.minimized = false;
    standIn.windows.push(this);
    app.emit("web-contents-created", newEvent(), this.webContents);
  }
  /** As a page load: the main frame takes the URL, then the window is ready to show. */
  /** @param {string} url */
  loadURL(url) {
    record("BrowserWindow.loadURL", { url });
    this.webContents.mainFrame.url = url;
    setImmediate(() => {
      if (this.destroyed) return;
      this.webContents.emit("did-finish-load", newEvent());
      this.emit("ready-to-show", newEvent());
    });
    return Promise.resolve();
  }
  show() {
    record("BrowserWindow.show", { window: this.id });
  }
  focus() {
    record("BrowserWindow.focus", { window: this.id });
  }
  restore() {
    record("BrowserWindow.restore", { window: this.id });
    this.minimized = false;
  }
  minimize() {
    this.minimized = true;
  }
  isMinimized() {
    return this.minimized;
  }
  isDestroyed() {
    return this.destroyed;
  }
  close() {
    const event = newEvent();
    this.emit("close", event);
    if (!event.defaultPrevented) this.destroy();
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.destroyed = true;
    standIn.windows = standIn.windows.filter((w) => w !== this);
    record("BrowserWindow.closed", { window: this.id });
    this.emit("closed");
    // As Electron: the last window closed (not by a quit) emits window-all-closed, whose absence of listeners quits.
    if (standIn.quitting || standIn.windows.length > 0) return;
    if (app.listenerCount("window-all-closed") > 0) app.emit("window-all-closed");
    else app.quit();
  }
}

export const protocol = {
  /** @param {unknown[]} schemes */
  registerSchemesAsPrivileged(schemes) {
    record("protocol.registerSchemesAsPrivileged", { schemes: structuredClone(schemes), appReady: standIn.ready });
    if (standIn.ready) throw new Error("protocol.registerSchemesAsPrivileged should be called before app is ready");
  },
  /** @param {string} scheme @param {(request: Request) => Promise<Response> | Response} handler */
  handle(scheme, handler) {
    record("protocol.handle", { scheme, appReady: standIn.ready });
    if (!standIn.ready) throw new Error("The protocol module can only be used after app is ready");
    if (standIn.protocolHandlers.has(scheme)) throw new Error(`Failed to register protocol: ${scheme}`);
    standIn.protocolHandlers.set(scheme, handler);
  },
  /** @param {string} scheme */
  isProtocolHandled(scheme) {
    return standIn.protocolHandlers.has(scheme);
  },
};

const MimeTypes = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
  ".map": "application/json",
};

export const net = {
  /**
   * Electron's net.fetch, for file: URLs only (what the shell's protocol handler asks): the file's
   * bytes with its type, or the rejection Chromium gives for a missing file.
   * @param {string | Request} input
   */
  async fetch(input) {
    const url = new URL(typeof input === "string" ? input : input.url);
    if (url.protocol !== "file:") throw new TypeError(`the stand-in's net.fetch reads file: URLs only, not ${url.protocol}`);
    const file = fileURLToPath(url);
    let body;
    try {
      body = await fs.promises.readFile(file);
    } catch {
      throw new TypeError("net::ERR_FILE_NOT_FOUND");
    }
    const type = /** @type {Record<string, string>} */ (MimeTypes)[path.extname(file)] ?? "application/octet-stream";
    return new Response(body, { status: 200, headers: { "Content-Type": type, "Content-Length": String(body.length) } });
  },
};

export const session = {
  defaultSession: {
    /** @param {NonNullable<typeof standIn.permissionRequestHandler>} handler */
    setPermissionRequestHandler(handler) {
      record("session.setPermissionRequestHandler");
      standIn.permissionRequestHandler = handler;
    },
    /** @param {NonNullable<typeof standIn.permissionCheckHandler>} handler */
    setPermissionCheckHandler(handler) {
      record("session.setPermissionCheckHandler");
      standIn.permissionCheckHandler = handler;
    },
    webRequest: {
      /** @param {NonNullable<typeof standIn.headersReceivedHandler>} handler */
      onHeadersReceived(handler) {
        record("session.webRequest.onHeadersReceived");
        standIn.headersReceivedHandler = handler;
      },
    },
  },
};

export const ipcMain = {
  /** @param {string} channel @param {(event: unknown, ...args: unknown[]) => unknown} listener */
  handle(channel, listener) {
    record("ipcMain.handle", { channel });
    if (standIn.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    standIn.ipcHandlers.set(channel, listener);
  },
  /** @param {string} channel */
  removeHandler(channel) {
    record("ipcMain.removeHandler", { channel });
    standIn.ipcHandlers.delete(channel);
  },
  /** @param {string} channel */
  on(channel) {
    record("ipcMain.on", { channel });
  },
};

export const dialog = {
  /** Answers "cancelled", as a person closing the dialog. */
  async showOpenDialog() {
    record("dialog.showOpenDialog");
    return { canceled: true, filePaths: [] };
  },
};

export const shell = {
  /** @param {string} url */
  async openExternal(url) {
    record("shell.openExternal", { url });
  },
};

export const nativeTheme = {
  shouldUseDarkColors: process.env["BATON_STANDIN_DARK"] === "1",
  on() {
    return nativeTheme;
  },
};

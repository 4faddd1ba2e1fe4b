// The window's page in Chromium over the Electron transport, for uiElectronTransport.test.ts: the
// renderer's files are served through the app:// handler the BUILT shell registered (a page URL
// http://baton.local/… is routed to it, so the response and its Content-Security-Policy header are
// the shell's own), and the REAL preload bundle (out/preload/index.cjs) runs before the page's
// scripts, as in a sandboxed Electron preload, with a TEST DOUBLE of what it requires from
// `electron`: contextBridge.exposeInMainWorld puts the API on window (frozen, not writable), and
// ipcRenderer.invoke / on reach the shell's recorded ipcMain handlers in the child process (through
// a Playwright binding; a call from a subframe is sent as one). What the shell sends with
// webContents.send is delivered to the preload's listeners in order.
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import type { ShellProcess } from "./shellProcess.js";

/** The origin the page is served at (routed, never resolved). */
export const PageOrigin = "http://baton.local";

/** The preload's `require("electron")`, `process` and module scope in the page, around the bundle's own code. */
function preloadScript(bundle: string): string {
  return `(() => {
  const listeners = new Map();
  const ipcRenderer = {
    invoke: (channel, ...args) => window.__batonStandInInvoke(channel, args),
    on(channel, listener) {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      return ipcRenderer;
    },
  };
  Object.defineProperty(window, "__batonStandInDeliver", {
    value: (channel, args) => { for (const listener of listeners.get(channel) ?? []) listener({ sender: ipcRenderer }, ...args); },
  });
  const contextBridge = {
    exposeInMainWorld(key, api) {
      Object.defineProperty(window, key, { value: api, writable: false, configurable: false, enumerable: true });
    },
  };
  const require = (name) => {
    if (name === "electron") return { contextBridge, ipcRenderer };
    throw new Error("a sandboxed preload cannot require " + name);
  };
  const process = { versions: { electron: "stand-in", chrome: "", node: "" }, platform: "linux", env: {} };
  const module = { exports: {} };
  (function (require, process, module, exports) {
${bundle}
  })(require, process, module, module.exports);
})();`;
}

export interface AttachedShell {
  /** The channels the page invoked, in order. */
  readonly calls: readonly string[];
  /** Stops delivering the shell's events to the page. */
  stop(): void;
}

/** Serves the renderer through the shell's app:// handler and runs the real preload on `page`. */
export async function attachShell(context: BrowserContext, page: Page, shell: ShellProcess, preloadFile: string): Promise<AttachedShell> {
  const calls: string[] = [];
  await context.route(`${PageOrigin}/**`, async (route) => {
    const url = new URL(route.request().url());
    const response = await shell.fetchApp(`app://baton${url.pathname}${url.search}`);
    await route.fulfill({ status: response.status, headers: Object.fromEntries(response.headers), body: response.body });
  });
  await page.exposeBinding("__batonStandInInvoke", (source, channel: string, args: unknown[]) => {
    calls.push(channel);
    return shell.invoke(channel, args, source.frame === page.mainFrame() ? "app" : "subframe");
  });
  await page.addInitScript({ content: preloadScript(fs.readFileSync(path.resolve(preloadFile), "utf8")) });
  // One after another: the preload's listeners see the events in the order the shell sent them.
  let delivered = Promise.resolve();
  const stop = shell.onSend((send) => {
    delivered = delivered.then(() =>
      page.evaluate(([channel, args]) => (window as unknown as { __batonStandInDeliver(c: string, a: unknown[]): void }).__batonStandInDeliver(channel, args), [send.channel, send.args] as [string, unknown[]]).catch(() => undefined),
    );
  });
  return { calls, stop };
}

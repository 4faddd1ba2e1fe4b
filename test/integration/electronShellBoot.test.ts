// The Electron shell's boot test (issue 36): the BUILT out/main/index.js runs in a Node child with a
// TEST DOUBLE of the `electron` module (test/support/electron/electronStandIn.mjs) that records
// what the shell asks of Electron and keeps its handlers. The real Electron binary never runs here
// (docs/architecture.md says what this proves and what it cannot). Proved against the real core:
// the app:// scheme privileged before ready and serving the renderer with the CSP; one window with
// createWindowOptions' options; the navigation, new-window, webview and permission guards; every
// IPC channel of the API contract, each refusing a frame that is not the app's; the single-instance
// lock; and the quit order with a live session waiting on a permission: the request denied (the
// CLI and the model see it), then the CLI stopped, then the index closed, then the real quit.
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PendingPermission, Result, SessionSummary, TabInfo, TranscriptDelta } from "../../src/shared/api.js";
import { ApiMethods, ApiSubscriptions } from "../../src/shared/apiContract.js";
import { IpcChannels, type SubscriptionName } from "../../src/shared/apiNames.js";
import { contentSecurityPolicy } from "../../src/main/platform/contentSecurityPolicy.js";
import { APP_ENTRY_URL } from "../../src/main/window/appProtocol.js";
import { createWindowOptions } from "../../src/main/window/windowOptions.js";
import { startShellApp, type ShellApp } from "../support/electron/shellApp.js";
import type { ShellProcess, ShellRecord } from "../support/electron/shellProcess.js";
import { toolResultText } from "../support/model/toolResults.js";
import { bashCall, text } from "../support/scenarios/types.js";

/** The recorded session the history folder holds (fixtures/recordings/subagent). */
const RecordedSession = "51f60392-a228-4722-bc09-abce11fbdf2d";
const Forbidden = { ok: false, error: { code: "forbidden", message: "This frame may not use Baton's API" } };

function value<T>(result: unknown): T {
  const r = result as Result<T>;
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** Every channel the API contract asks for: one per method, one per subscription topic, and the one that ends a subscription. */
function contractChannels(): string[] {
  return [
    ...Object.keys(ApiMethods).map((m) => IpcChannels.method(m as keyof typeof ApiMethods)),
    ...(Object.keys(ApiSubscriptions) as SubscriptionName[]).map((s) => IpcChannels.subscribe(s)),
    IpcChannels.unsubscribe,
  ];
}

const openedExternally = (shell: ShellProcess): string[] => shell.seen("shell.openExternal").map((r) => String(r.detail["url"]));

describe("the built Electron shell, booted against the electron test double", () => {
  let app: ShellApp;
  let shell: ShellProcess;

  beforeAll(async () => {
    app = await startShellApp({ recordings: ["subagent"], dark: false });
    shell = app.shell;
    await shell.ready();
    await shell.waitFor("BrowserWindow.show");
  });
  afterAll(async () => {
    await app?.close();
  });

  it("registers app:// as privileged before ready, and serves the renderer through it with the CSP", async () => {
    const [privileged] = shell.seen("protocol.registerSchemesAsPrivileged");
    expect(privileged?.detail).toEqual({
      schemes: [{ scheme: "app", privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } }],
      appReady: false,
    });
    expect(privileged!.seq).toBeLessThan(shell.seen("app.ready")[0]!.seq);
    expect(shell.seen("app.enableSandbox")).toEqual([expect.objectContaining({ detail: { appReady: false } })]);
    // Only the dev server's pages get their CSP by rewriting headers.
    expect(shell.seen("session.webRequest.onHeadersReceived")).toEqual([]);

    const page = await shell.fetchApp(APP_ENTRY_URL);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(contentSecurityPolicy());
    expect(page.body.toString()).toBe(fs.readFileSync(path.join(app.rendererOut, "index.html"), "utf8"));

    // The page's own script, with the same policy.
    const script = /<script[^>]+src="([^"]+)"/.exec(page.body.toString())?.[1];
    expect(script).toBeDefined();
    const js = await shell.fetchApp(new URL(script!, APP_ENTRY_URL).toString());
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toMatch(/javascript/);
    expect(js.headers.get("content-security-policy")).toBe(contentSecurityPolicy());
  });

  it("answers 404 for anything outside the renderer's folder, another host, or a missing file", async () => {
    const mainBundle = fs.readFileSync(path.join(app.mainOut, "index.js"));
    for (const url of [
      "app://baton/..%2f..%2fmain%2findex.js",
      "app://baton/..%2fmain%2findex.js",
      "app://baton/..%5cmain%5cindex.js",
      "app://baton/%2e%2e/%2e%2e/package.json",
      "app://baton/%00index.html",
      "app://other/index.html",
      "app://baton/no-such-file.js",
    ]) {
      const response = await shell.fetchApp(url);
      expect(response.status, url).toBe(404);
      expect(response.body.equals(mainBundle), url).toBe(false);
    }
  });

  it("opens exactly one window, with the options of createWindowOptions and the built preload", async () => {
    const windows = shell.seen("BrowserWindow");
    expect(windows).toHaveLength(1);
    const preloadPath = path.resolve(app.mainOut, "../preload/index.cjs");
    expect(fs.existsSync(preloadPath)).toBe(true);
    // The double says the system is light: the frame takes the light colour before the page draws.
    expect(windows[0]!.detail["options"]).toEqual(createWindowOptions({ preloadPath, dark: false }));
    expect(windows[0]!.detail["options"]).toMatchObject({ webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false } });
    expect(shell.seen("BrowserWindow.loadURL").map((r) => r.detail["url"])).toEqual([APP_ENTRY_URL]);
    // Shown once its page is ready, never as an empty frame.
    expect(shell.seen("BrowserWindow.show")).toHaveLength(1);
  });

  it("keeps the window on Baton: navigation away is refused, https links go to the browser, webviews and new windows never open", async () => {
    const before = openedExternally(shell).length;
    expect(await shell.contentsEvent("will-navigate", "https://example.com/docs")).toEqual({ prevented: true });
    expect(openedExternally(shell).slice(before)).toEqual(["https://example.com/docs"]);

    for (const url of ["file:///etc/passwd", "http://evil.example/", "javascript:alert(1)", "app://other/index.html"]) {
      expect(await shell.contentsEvent("will-navigate", url), url).toEqual({ prevented: true });
      expect(await shell.contentsEvent("will-redirect", url), url).toEqual({ prevented: true });
    }
    expect(openedExternally(shell).slice(before)).toEqual(["https://example.com/docs"]);
    // Its own pages stay.
    expect(await shell.contentsEvent("will-navigate", `${APP_ENTRY_URL}#settings`)).toEqual({ prevented: false });

    expect(await shell.contentsEvent("will-attach-webview")).toEqual({ prevented: true });

    expect(await shell.windowOpen("https://example.com/page")).toEqual({ action: "deny" });
    expect(await shell.windowOpen("javascript:alert(1)")).toEqual({ action: "deny" });
    expect(await shell.windowOpen(APP_ENTRY_URL)).toEqual({ action: "deny" });
    expect(openedExternally(shell).slice(before)).toEqual(["https://example.com/docs", "https://example.com/page"]);

    // All of it in place before the page starts loading.
    const loading = shell.seen("BrowserWindow.loadURL")[0]!.seq;
    for (const what of ["protocol.handle", "session.setPermissionRequestHandler", "session.setPermissionCheckHandler", "webContents.setWindowOpenHandler"]) {
      expect(shell.seen(what)[0]?.seq, what).toBeLessThan(loading);
    }
    const windowContents = Number(shell.seen("webContents.setWindowOpenHandler")[0]!.detail["contents"]);
    for (const r of shell.seen("webContents.on", (d) => d["contents"] === windowContents)) expect(r.seq).toBeLessThan(loading);

    // Every web contents gets the same guards, not only the window's (a devtools page, a guest).
    const guards = (contents: number) => [
      ...shell.seen("webContents.on", (d) => d["contents"] === contents).map((r) => String(r.detail["event"])),
      ...shell.seen("webContents.setWindowOpenHandler", (d) => d["contents"] === contents).map(() => "windowOpenHandler"),
    ];
    expect(new Set(guards(windowContents))).toEqual(new Set(["will-attach-webview", "will-navigate", "will-redirect", "windowOpenHandler"]));
    const other = await shell.newContents("devtools://devtools/bundled/inspector.html");
    expect(new Set(guards(other))).toEqual(new Set(guards(windowContents)));
  });

  it("grants notifications and clipboard writes to Baton's own page only, and nothing else", async () => {
    expect(await shell.permissionRequest("notifications", APP_ENTRY_URL)).toBe(true);
    expect(await shell.permissionRequest("clipboard-sanitized-write", APP_ENTRY_URL)).toBe(true);
    for (const permission of ["media", "geolocation", "clipboard-read", "openExternal", "fullscreen"]) {
      expect(await shell.permissionRequest(permission, APP_ENTRY_URL), permission).toBe(false);
    }
    expect(await shell.permissionRequest("notifications", "https://evil.example/")).toBe(false);
    expect(await shell.permissionCheck("notifications", "app://baton")).toBe(true);
    expect(await shell.permissionCheck("media", "app://baton")).toBe(false);
    expect(await shell.permissionCheck("notifications", "https://evil.example")).toBe(false);
  });

  it("registers every channel of the API contract, each refusing any frame but the app's own", async () => {
    const registered = shell.seen("ipcMain.handle").map((r) => String(r.detail["channel"]));
    expect(new Set(registered)).toEqual(new Set(contractChannels()));
    expect(registered).toHaveLength(contractChannels().length);
    // Before the window exists: no page can call anything before the core is up.
    const windowSeq = shell.seen("BrowserWindow")[0]!.seq;
    for (const r of shell.seen("ipcMain.handle")) expect(r.seq).toBeLessThan(windowSeq);

    for (const channel of contractChannels()) {
      for (const from of ["subframe", "foreign-origin", "other-contents"] as const) {
        expect(await shell.invoke(channel, [], from), `${channel} from ${from}`).toEqual(Forbidden);
      }
    }

    // The app's page is answered, from the history folder the switch named.
    const sessions = value<SessionSummary[]>(await shell.invoke(IpcChannels.method("listSessions"), [], "app"));
    expect(sessions.map((s) => s.sessionId)).toContain(RecordedSession);
    expect(await shell.invoke(IpcChannels.method("getClaudeStatus"), [], "app")).toEqual({ ok: true, value: { found: true, path: app.env.claudePath } });
    // A foreign frame's call did nothing: the same call from the app still answers the same.
    expect(await shell.invoke(IpcChannels.method("listSessions"), [], "foreign-origin")).toEqual(Forbidden);

    // A subscription's events reach the page through webContents.send, tagged with its id.
    const events = shell.sends.length;
    expect(await shell.invoke(IpcChannels.subscribe("onTabsChanged"), ["page-1", "7"], "app")).toEqual({ ok: true, value: undefined });
    const first = await shell.waitUntil("the tab list sent to the page", () => shell.sends.slice(events).find((s) => s.channel === IpcChannels.event && s.args[0] === "7"));
    expect(first.args[1]).toEqual([]);
    expect(await shell.invoke(IpcChannels.unsubscribe, ["page-1", "7"], "app")).toEqual({ ok: true, value: undefined });
  });

  it("a second launch focuses the window, restored if it was minimised", async () => {
    expect(shell.seen("app.requestSingleInstanceLock")).toEqual([expect.objectContaining({ detail: { got: true } })]);
    await shell.minimizeWindow();
    const since = shell.records.length;
    await shell.appEvent("second-instance", [["baton"], "/home/user"]);
    expect(shell.records.slice(since).map((r) => r.what)).toEqual(["BrowserWindow.restore", "BrowserWindow.focus"]);
    expect(shell.seen("BrowserWindow")).toHaveLength(1);
  });
});

describe("the built shell as `npm start` runs it (electron-vite dev), and installed", () => {
  const DevServer = "http://localhost:5173";
  let app: ShellApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("loads the dev server's page, gives it the dev CSP by its response headers, and trusts that origin instead of app://", async () => {
    app = await startShellApp({ devServerUrl: `${DevServer}/` });
    const { shell } = app;
    await shell.ready();
    await shell.waitFor("BrowserWindow.show");
    expect(shell.seen("BrowserWindow.loadURL").map((r) => r.detail["url"])).toEqual([`${DevServer}/`]);
    expect(await shell.headersReceived(`${DevServer}/`, { "Content-Type": ["text/html"] })).toEqual({
      responseHeaders: { "Content-Type": ["text/html"], "Content-Security-Policy": [contentSecurityPolicy({ devServerOrigin: DevServer })] },
    });
    expect(value<SessionSummary[]>(await shell.invoke(IpcChannels.method("listSessions"), [], "app"))).toEqual([]);
    expect(await shell.invoke(IpcChannels.method("listSessions"), [], "foreign-origin")).toEqual(Forbidden);
    expect(await shell.contentsEvent("will-navigate", `${DevServer}/index.html`)).toEqual({ prevented: false });
    expect(await shell.contentsEvent("will-navigate", APP_ENTRY_URL)).toEqual({ prevented: true });
    expect(await shell.permissionRequest("notifications", `${DevServer}/`)).toBe(true);
    expect(await shell.permissionRequest("notifications", APP_ENTRY_URL)).toBe(false);
  });

  it("an installed app ignores ELECTRON_RENDERER_URL: its own files, the build's CSP, no header rewriting", async () => {
    app = await startShellApp({ devServerUrl: "https://evil.example/", packaged: true });
    const { shell } = app;
    await shell.ready();
    await shell.waitFor("BrowserWindow.show");
    expect(shell.seen("BrowserWindow.loadURL").map((r) => r.detail["url"])).toEqual([APP_ENTRY_URL]);
    expect(shell.seen("session.webRequest.onHeadersReceived")).toEqual([]);
    expect((await shell.fetchApp(APP_ENTRY_URL)).headers.get("content-security-policy")).toBe(contentSecurityPolicy());
    expect(await shell.contentsEvent("will-navigate", "https://evil.example/")).toEqual({ prevented: true });
  });
});

describe("the built shell when another Baton holds the single-instance lock", () => {
  let app: ShellApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("quits at once: no window, no core, no scheme, nothing listening", async () => {
    app = await startShellApp({ lockHeld: true });
    const { shell } = app;
    expect(await shell.exited).toEqual({ code: 0, signal: null });
    // All the shell asked of Electron (main.loaded is the harness's own entry).
    expect(shell.records.map((r) => r.what).filter((what) => what !== "main.loaded")).toEqual(["app.requestSingleInstanceLock", "app.quit", "app.quitting"]);
    expect(shell.seen("app.requestSingleInstanceLock")[0]!.detail).toEqual({ got: false });
  });
});

describe("quitting the built shell with a session waiting on a permission", () => {
  let app: ShellApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  /** Starts a session whose Bash waits for the person, quits the way `how` says, and checks the order. */
  async function quitWhileAsked(how: "app.quit" | "the window closed" | "SIGTERM"): Promise<void> {
    app = await startShellApp({
      cwdName: "quit-order",
      script: { main: [{ blocks: [bashCall("touch quit-order.txt", "Create a file")] }, { blocks: [text("The file was not made.")] }] },
    });
    const { shell, env, model } = app;
    await shell.ready();
    await shell.waitFor("BrowserWindow.show");

    const tab = value<TabInfo>(await shell.invoke(IpcChannels.method("newSession"), [{ cwd: env.cwd, permissionMode: "default" }]));
    expect(await shell.invoke(IpcChannels.subscribe("onTranscriptDelta"), ["page-1", "1", tab.tabId])).toEqual({ ok: true, value: undefined });
    value(await shell.invoke(IpcChannels.method("sendPrompt"), [tab.tabId, "please create the file"]));
    // The request reaches the window's page as a transcript delta, and waits for the person.
    const pending = await shell.waitUntil("the Bash request on the page", () => {
      for (const send of shell.sends) {
        const delta = send.args[1] as TranscriptDelta | undefined;
        const request = send.args[0] === "1" ? delta?.pending?.find((p: PendingPermission) => p.toolName === "Bash") : undefined;
        if (request !== undefined) return request;
      }
      return undefined;
    });
    const [cli] = shell.seen("cli.spawned");
    expect(cli).toBeDefined();
    // The index is open (its worker running) until the quit closes it.
    expect(shell.seen("worker.started", (d) => d["name"] === "storeWorker.js")).toHaveLength(1);
    expect(shell.seen("worker.exit", (d) => d["name"] === "storeWorker.js")).toEqual([]);

    const quitFrom = shell.records.length;
    if (how === "app.quit") await shell.quit();
    else if (how === "SIGTERM") shell.signal("SIGTERM");
    else await shell.closeWindow();
    expect(await shell.exited).toEqual({ code: 0, signal: null });

    const after = shell.records.slice(quitFrom);
    const at = (what: string, match: (r: ShellRecord) => boolean = () => true): number => {
      const index = after.findIndex((r) => r.what === what && match(r));
      expect(index, `${what} in ${after.map((r) => r.what).join(", ")}`).toBeGreaterThanOrEqual(0);
      return index;
    };
    const firstQuit = at("app.quit");
    const held = at("app.before-quit.prevented");
    const denied = at("cli.stdin.control_response", (r) => r.detail["requestId"] === pending.requestId);
    const cliExit = at("cli.exit", (r) => r.detail["pid"] === cli!.detail["pid"]);
    const storeClosed = at("worker.exit", (r) => r.detail["name"] === "storeWorker.js");
    const secondQuit = after.findIndex((r, i) => i > firstQuit && r.what === "app.quit");
    const quitting = at("app.quitting");
    expect(after[denied]!.detail["behavior"]).toBe("deny");
    // Answered once, and before the CLI's stdin is closed (the CLI reads it, then is asked to end).
    expect(after.filter((r) => r.what === "cli.stdin.control_response" && r.detail["requestId"] === pending.requestId)).toHaveLength(1);
    expect(at("cli.stdin.closed")).toBeGreaterThan(denied);
    const order: [string, number][] = [
      ["app.quit", firstQuit],
      ["before-quit held", held],
      ["the request denied", denied],
      ["the CLI exited", cliExit],
      ["the index closed", storeClosed],
      ["app.quit again", secondQuit],
      ["quitting", quitting],
    ];
    for (let i = 1; i < order.length; i++) expect(order[i]![1], `${order[i - 1]![0]} before ${order[i]![0]}`).toBeGreaterThan(order[i - 1]![1]);
    const closed = at("BrowserWindow.closed");
    // Quit from the menu or by a signal: the window closes with the real quit, once the core is
    // down. Its close button: the window goes first, and its last close is what quits (Linux and Windows).
    if (how === "the window closed") expect(closed).toBeLessThan(firstQuit);
    else expect(closed).toBeGreaterThan(secondQuit);

    // The CLI was told no: the tool never ran, and the model was told so.
    expect(fs.existsSync(path.join(env.cwd, "quit-order.txt"))).toBe(false);
    const message = String(after[denied]!.detail["message"]);
    expect(message).toMatch(/^Baton is .*; denied\.$/);
    expect(toolResultText(model, "main", pending.toolUseId)).toContain(message);
  }

  it("on app.quit: denies the request (the CLI and the model see it), then stops the CLI, then closes the index, then quits", async () => {
    await quitWhileAsked("app.quit");
  });

  it("on closing the window: the same, after the window is gone", async () => {
    await quitWhileAsked("the window closed");
  });

  it("on SIGTERM (kill, the system shutting down): the same as app.quit", async () => {
    await quitWhileAsked("SIGTERM");
  });
});

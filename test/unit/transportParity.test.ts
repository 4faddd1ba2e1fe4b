// Both transports serve the same BatonApi the same way: a real app core behind Electron's bridge
// (the preload's bridge.ts and registerIpc over an in-memory IPC pair, payloads structured-cloned
// as Electron does) and behind web mode (the real web server and socket, the renderer's client).
// A new subscriber gets what is now first on both: the Console's ring (entries logged before the
// page subscribed), the tab list, the policy, a transcript's reset; then what changes.

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { BatonApi, LogEntry, PolicyInfo, TabInfo, TranscriptDelta } from "../../src/shared/api.js";
import { createAppCore, type AppCore } from "../../src/main/app/createAppCore.js";
import type { BatonService } from "../../src/main/core/batonService.js";
import { registerIpc, type IpcEventLike, type WebContentsLike } from "../../src/main/transport/ipc/registerIpc.js";
import { startWebServer, type WebServer } from "../../src/main/transport/web/webServer.js";
import { createBridge, type IpcRendererLike } from "../../src/preload/bridge.js";
import { createElectronApi } from "../../src/renderer/transport/electronApi.js";
import { createWebSocketApi, type SocketLike } from "../../src/renderer/transport/webSocketApi.js";
import { socketProtocols } from "../../src/renderer/transport/webSignIn.js";
import { writePromptSession } from "../support/historyFiles.js";
import { signIn, type SignedIn } from "../support/webSignIn.js";
import { tempDirs } from "../support/tempDirs.js";

const SessionId = "33333333-3333-4333-8333-333333333333";

/** Electron's IPC without Electron: registerIpc's handlers on one side, the preload's bridge on the other. */
function electronApi(service: BatonService, page: string): { api: BatonApi; close(): void } {
  const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
  const listeners = new Map<string, ((event: unknown, ...args: unknown[]) => void)[]>();
  const mainFrame = { url: "app://baton/index.html" };
  let delivered = Promise.resolve();
  const contents: WebContentsLike = {
    mainFrame,
    isDestroyed: () => false,
    // Later, in order, cloned: as webContents.send delivers.
    send: (channel, ...args) => {
      const copy = structuredClone(args);
      delivered = delivered.then(() => {
        for (const listener of listeners.get(channel) ?? []) listener({}, ...copy);
      });
    },
  };
  const dispose = registerIpc({ handle: (c, l) => handlers.set(c, l), removeHandler: (c) => handlers.delete(c) }, service, () => ({ webContents: contents }), "app://baton");
  const ipc: IpcRendererLike = {
    invoke: async (channel, ...args) => {
      const answer = await handlers.get(channel)!({ sender: contents, senderFrame: mainFrame }, ...structuredClone(args));
      await delivered;
      return structuredClone(answer);
    },
    on: (channel, listener) => void listeners.set(channel, [...(listeners.get(channel) ?? []), listener]),
  };
  return { api: createElectronApi(createBridge(ipc, page)), close: dispose };
}

/** What one page sees from the subscriptions it opens. */
function watch(api: BatonApi, tabId: string) {
  const seen = { log: [] as LogEntry[], tabs: [] as (readonly TabInfo[])[], policy: [] as PolicyInfo[], transcript: [] as TranscriptDelta[] };
  const stops = [
    api.onLog((entry) => seen.log.push(entry)),
    api.onTabsChanged((tabs) => seen.tabs.push(tabs)),
    api.onPolicyChanged((policy) => seen.policy.push(policy)),
    api.onTranscriptDelta(tabId, (delta) => seen.transcript.push(delta)),
  ];
  return { seen, stop: () => stops.forEach((stop) => stop()) };
}

describe("the Electron bridge and web mode", () => {
  const tempDir = tempDirs("baton-transport-parity-", "all");
  let home: string;
  let core: AppCore;
  let server: WebServer;
  let tab: TabInfo;
  let who: SignedIn;

  beforeAll(async () => {
    home = tempDir();
    const projectsDir = path.join(home, ".claude", "projects");
    writePromptSession(projectsDir, SessionId, "Which transport is this?");
    const rendererDir = path.join(home, "renderer");
    fs.mkdirSync(rendererDir);
    fs.writeFileSync(path.join(rendererDir, "index.html"), "<!doctype html><title>Baton</title>");
    core = await createAppCore({ projectsDir, settingsFile: path.join(home, ".config", "baton", "settings.json"), env: { HOME: home }, claudePath: path.join(home, "no-claude") });
    server = await startWebServer({ service: core.service, rendererDir });
    who = await signIn(server.url);
    const opened = await core.service.openSession(SessionId);
    if (!opened.ok) throw new Error(opened.error.message);
    tab = opened.value;
  });

  afterAll(async () => {
    await server?.close();
    await core?.close();
  });

  function webApi(): { api: BatonApi; close(): void } {
    const api = createWebSocketApi(`ws://127.0.0.1:${server.port}/ws`, {
      protocols: socketProtocols(who.secret),
      createSocket: (url, protocols) => new WebSocket(url, [...protocols], { headers: { origin: who.origin, cookie: who.cookie } }) as unknown as SocketLike,
    });
    return { api, close: () => api.close() };
  }

  it.each([
    ["Electron IPC", async () => electronApi(core.service, "page-1")],
    ["web mode", webApi],
  ])("over %s, a new subscriber gets the Console's ring, the tab list, the policy and a transcript reset first, then changes", async (transport, connect) => {
    core.log.baton("info", `logged before ${transport} subscribed`);
    const ring = core.log.entries();
    const { api, close } = await connect();
    const { seen, stop } = watch(api, tab.tabId);
    try {
      await expect.poll(() => seen.log.length).toBe(ring.length);
      expect(seen.log).toEqual(ring);
      await expect.poll(() => seen.tabs.length).toBe(1);
      expect(seen.tabs[0]).toEqual(core.manager.listTabs());
      await expect.poll(() => seen.policy.length).toBe(1);
      expect(seen.policy[0]).toEqual(core.manager.policy!.info());
      await expect.poll(() => seen.transcript.length).toBe(1);
      expect(seen.transcript[0]).toMatchObject({ tabId: tab.tabId, reset: true });

      core.log.baton("info", `logged while ${transport} follows`);
      await expect.poll(() => seen.log.at(-1)?.message).toBe(`logged while ${transport} follows`);
      expect(await api.setOrchestration(true)).toMatchObject({ ok: true, value: { orchestration: true } });
      await expect.poll(() => seen.policy.at(-1)?.orchestration).toBe(true);
      expect(await api.setOrchestration(false)).toMatchObject({ ok: true, value: { orchestration: false } });
      await expect.poll(() => seen.policy.at(-1)?.orchestration).toBe(false);
    } finally {
      stop();
      close();
    }
  });

  it.each([
    ["Electron IPC", async () => electronApi(core.service, "page-2")],
    ["web mode", webApi],
  ])("over %s, calls are checked by the same contract and resolve to the same Results", async (_transport, connect) => {
    const { api, close } = await connect();
    try {
      expect(await api.listTabs()).toEqual({ ok: true, value: core.manager.listTabs() });
      expect(await api.searchHistory("transport", undefined)).toMatchObject({ ok: false, error: { code: "search_unavailable" } });
      expect(await api.closeTab("tab-404")).toEqual({ ok: false, error: { code: "not_found", message: expect.any(String) } });
      const refused = await api.newSession({ cwd: "/home/user/code/x", shell: "sh" } as never);
      expect(refused).toEqual({ ok: false, error: { code: "invalid_argument", message: 'newSession: options has an unknown field "shell"' } });
      expect(await api.setHistoryFolder("relative")).toEqual({
        ok: false,
        error: { code: "invalid_argument", message: "setHistoryFolder: dir must be an absolute path (or start with ~/)" },
      });
    } finally {
      close();
    }
  });
});

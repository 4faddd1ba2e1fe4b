// The renderer's WebSocket BatonApi against the real web server: calls resolve to Results,
// subscriptions come back after the server restarts, and a call nobody answers times out.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import type { TabInfo } from "../../src/shared/api.js";
import type { WebServer } from "../../src/main/transport/web/webServer.js";
import { startWebFixture, type WebFixture } from "../support/webFixture.js";
import { signIn as signInFromNode, type SignedIn } from "../support/webSignIn.js";
import { createWebSocketApi, type SocketLike } from "../../src/renderer/transport/webSocketApi.js";
import { createElectronApi, isBatonApi } from "../../src/renderer/transport/electronApi.js";
import { webSocketUrl } from "../../src/renderer/transport/getApi.js";
import { SecretKey, signIn, socketProtocols, type SignInEnv } from "../../src/renderer/transport/webSignIn.js";
import { NoLinkMessage } from "../../src/shared/webSignIn.js";

let who: SignedIn;

/** The `ws` package as the page's WebSocket: the browser adds Origin and the cookie itself. */
function socketFactory() {
  return (url: string, protocols: readonly string[]) =>
    new WebSocket(url, [...protocols], { headers: { origin: who.origin, cookie: who.cookie } }) as unknown as SocketLike;
}
const protocols = () => socketProtocols(who.secret);

function until<T>(read: () => T | undefined, timeoutMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = read();
      if (value !== undefined) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error("condition not reached"));
      setTimeout(tick, 10);
    };
    tick();
  });
}

describe("createWebSocketApi", () => {
  let fixture: WebFixture;
  let server: WebServer;

  beforeAll(async () => {
    fixture = await startWebFixture({ "index.html": "<!doctype html>" });
    server = fixture.server;
    who = await signInFromNode(server.url);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("calls resolve to Results, errors included", async () => {
    const api = createWebSocketApi(`ws://127.0.0.1:${server.port}/ws`, { createSocket: socketFactory(), protocols: protocols() });
    try {
      expect(await api.listTabs()).toEqual({ ok: true, value: [] });
      expect(await api.closeTab("tab-404")).toMatchObject({ ok: false, error: { code: "not_found" } });
      expect(await api.newSession({ cwd: "relative" })).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
      expect(await api.searchHistory("x")).toMatchObject({ ok: false, error: { code: "search_unavailable" } });
    } finally {
      api.close();
    }
  });

  it("re-establishes subscriptions after the server comes back", async () => {
    const port = server.port;
    const statuses: string[] = [];
    const api = createWebSocketApi(`ws://127.0.0.1:${port}/ws`, {
      createSocket: socketFactory(),
      protocols: protocols(),
      backoffMs: { initial: 20, max: 100 },
      onStatus: (s) => statuses.push(s),
    });
    const lists: (readonly TabInfo[])[] = [];
    const stop = api.onTabsChanged((tabs) => lists.push(tabs));
    try {
      await until(() => (lists.length >= 1 ? true : undefined));
      await server.close();
      await until(() => (statuses.includes("closed") ? true : undefined));
      server = await fixture.restart(port);
      await until(() => (lists.length >= 2 ? true : undefined));
      expect(statuses.filter((s) => s === "open").length).toBeGreaterThanOrEqual(2);
      expect(await api.listTabs()).toEqual({ ok: true, value: [] });
    } finally {
      stop();
      api.close();
    }
  });

  it("a call that gets no answer resolves to a timeout error", async () => {
    const silent = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await new Promise((resolve) => silent.once("listening", resolve));
    const port = (silent.address() as { port: number }).port;
    const api = createWebSocketApi(`ws://127.0.0.1:${port}`, { timeoutMs: 100, createSocket: (u) => new WebSocket(u) as unknown as SocketLike });
    try {
      expect(await api.listTabs()).toMatchObject({ ok: false, error: { code: "timeout" } });
    } finally {
      api.close();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("after close(), calls fail with closed instead of hanging", async () => {
    const api = createWebSocketApi(`ws://127.0.0.1:${server.port}/ws`, { createSocket: socketFactory(), protocols: protocols() });
    api.close();
    expect(await api.listTabs()).toMatchObject({ ok: false, error: { code: "closed" } });
  });
});

describe("electron adapter and URL", () => {
  it("refuses a bridge that lacks methods", () => {
    expect(isBatonApi({ versions: {} })).toBe(false);
    expect(() => createElectronApi(undefined)).toThrow(/preload/);
  });

  it("derives the socket URL from the page location", () => {
    expect(webSocketUrl({ protocol: "http:", host: "127.0.0.1:4000" })).toBe("ws://127.0.0.1:4000/ws");
  });
});

describe("the page's sign-in", () => {
  /** A tab: its address, its history entry, its sessionStorage, and a fetch to Baton. */
  function tab(hash: string, answer: { ok: boolean; body: unknown }) {
    const storage = new Map<string, string>();
    const state = { url: `/${hash}`, posted: [] as string[] };
    const env: SignInEnv = {
      location: { hash, pathname: "/", search: "" },
      history: { replaceState: (_d, _u, url) => (state.url = url) },
      storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
      fetch: async (_url, init) => {
        state.posted.push(init.body);
        return { ok: answer.ok, json: async () => answer.body };
      },
    };
    return { env, storage, state };
  }

  it("trades the fragment's token, strips it from the address, and keeps the secret for reloads", async () => {
    const t = tab("#token=abc", { ok: true, body: { secret: "s3cret" } });
    expect(await signIn(t.env)).toEqual({ ok: true, protocols: ["baton.v1", "baton.secret.s3cret"] });
    expect(t.state.url).toBe("/");
    expect(t.state.posted).toEqual(['{"token":"abc"}']);
    expect(t.storage.get(SecretKey)).toBe("s3cret");
    // The reload: no fragment, the stored secret, no request.
    const reload = { ...t.env, location: { hash: "", pathname: "/", search: "" } };
    expect(await signIn(reload)).toEqual({ ok: true, protocols: ["baton.v1", "baton.secret.s3cret"] });
    expect(t.state.posted).toHaveLength(1);
  });

  it("shows the server's reason for a refused link, and what to do without one", async () => {
    const used = tab("#token=abc", { ok: false, body: { error: "This link was already used; …" } });
    expect(await signIn(used.env)).toEqual({ ok: false, message: "This link was already used; …" });
    expect(used.state.url).toBe("/");
    expect(used.storage.size).toBe(0);
    expect(await signIn(tab("", { ok: true, body: {} }).env)).toEqual({ ok: false, message: NoLinkMessage });
  });
});

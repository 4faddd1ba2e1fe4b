// The renderer's WebSocket BatonApi against the real web server: calls resolve to Results,
// subscriptions come back after the server restarts, and a call nobody answers times out.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import type { TabInfo } from "../../src/shared/api.js";
import type { WebSecrets } from "../../src/main/web/webAuth.js";
import type { WebServer } from "../../src/main/web/webServer.js";
import { startWebFixture, type WebFixture } from "../support/webFixture.js";
import { createWebSocketApi, type SocketLike } from "../../src/renderer/transport/webSocketApi.js";
import { createElectronApi, isBatonApi } from "../../src/renderer/transport/electronApi.js";
import { webSocketUrl } from "../../src/renderer/transport/getApi.js";

const secrets: WebSecrets = { token: "t", cookie: "c" };

function socketFactory(port: number) {
  return (url: string) =>
    new WebSocket(url, { headers: { origin: `http://127.0.0.1:${port}`, cookie: `baton_session=${secrets.cookie}` } }) as unknown as SocketLike;
}

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
    fixture = await startWebFixture(secrets, { "index.html": "<!doctype html>" });
    server = fixture.server;
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("calls resolve to Results, errors included", async () => {
    const api = createWebSocketApi(`ws://127.0.0.1:${server.port}/ws`, { createSocket: socketFactory(server.port) });
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
      createSocket: socketFactory(port),
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
    const api = createWebSocketApi(`ws://127.0.0.1:${server.port}/ws`, { createSocket: socketFactory(server.port) });
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

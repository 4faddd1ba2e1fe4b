// Web mode's door: loopback only, the per-launch token traded for a cookie, Host and Origin
// checked, nothing served (page or socket) without the cookie. Run against a real server.

import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { decideHttp, decideUpgrade, type WebSecrets } from "../../src/main/web/webAuth.js";
import type { WebServer } from "../../src/main/web/webServer.js";
import { startWebFixture, type WebFixture } from "../support/webFixture.js";

const secrets: WebSecrets = { token: "tok-123", cookie: "cookie-456" };

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(port: number, pathAndQuery: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: pathAndQuery, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Resolves with the upgrade's HTTP status when refused, or "open". */
function connect(port: number, headers: Record<string, string>): Promise<number | "open"> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
    ws.on("open", () => {
      ws.close();
      resolve("open");
    });
    ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.on("error", () => resolve(0));
  });
}

describe("web mode access rules (pure)", () => {
  const port = 4321;
  const host = `127.0.0.1:${port}`;

  it("refuses a foreign Host (DNS rebinding) before anything else", () => {
    expect(decideHttp({ method: "GET", url: "/?token=tok-123", host: `evil.example:${port}` }, port, secrets)).toMatchObject({ kind: "deny", status: 403 });
    expect(decideHttp({ method: "GET", url: "/", host: `127.0.0.1:${port + 1}` }, port, secrets)).toMatchObject({ kind: "deny", status: 403 });
  });

  it("trades the right token for a strict HttpOnly cookie and a URL without it", () => {
    const decision = decideHttp({ method: "GET", url: "/index.html?token=tok-123&x=1", host }, port, secrets);
    expect(decision).toMatchObject({ kind: "redirect", location: "/index.html?x=1" });
    const cookie = decision.kind === "redirect" ? decision.setCookie : "";
    expect(cookie).toContain("baton_session=cookie-456");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
  });

  it("answers 401 to a wrong token and to no cookie; serves with the cookie", () => {
    expect(decideHttp({ method: "GET", url: "/?token=nope", host }, port, secrets)).toMatchObject({ kind: "deny", status: 401 });
    expect(decideHttp({ method: "GET", url: "/", host }, port, secrets)).toMatchObject({ kind: "deny", status: 401 });
    expect(decideHttp({ method: "GET", url: "/", host, cookie: "baton_session=wrong" }, port, secrets)).toMatchObject({ kind: "deny", status: 401 });
    expect(decideHttp({ method: "GET", url: "/", host: `localhost:${port}`, cookie: "a=b; baton_session=cookie-456" }, port, secrets)).toEqual({ kind: "serve", pathname: "/" });
    expect(decideHttp({ method: "POST", url: "/", host, cookie: "baton_session=cookie-456" }, port, secrets)).toMatchObject({ status: 405 });
  });

  it("accepts a socket only with the cookie, our Host and our Origin", () => {
    const ok = { url: "/ws", host, origin: `http://${host}`, cookie: "baton_session=cookie-456" };
    expect(decideUpgrade(ok, port, secrets)).toEqual({ kind: "accept" });
    expect(decideUpgrade({ ...ok, cookie: undefined }, port, secrets)).toMatchObject({ status: 401 });
    expect(decideUpgrade({ ...ok, origin: "http://evil.example" }, port, secrets)).toMatchObject({ status: 403 });
    expect(decideUpgrade({ ...ok, origin: undefined }, port, secrets)).toMatchObject({ status: 403 });
    expect(decideUpgrade({ ...ok, host: "evil.example" }, port, secrets)).toMatchObject({ status: 403 });
  });
});

describe("web server", () => {
  let fixture: WebFixture;
  let server: WebServer;

  beforeAll(async () => {
    fixture = await startWebFixture(secrets, { "index.html": "<!doctype html><title>Baton</title>", "app.js": "console.log(1)" });
    server = fixture.server;
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("binds loopback and prints a URL carrying the token", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=tok-123`);
  });

  it("serves nothing without the token or cookie (401), nothing to a foreign Host (403)", async () => {
    expect((await get(server.port, "/")).status).toBe(401);
    expect((await get(server.port, "/app.js")).status).toBe(401);
    expect((await get(server.port, "/?token=wrong")).status).toBe(401);
    expect((await get(server.port, "/?token=tok-123", { host: `attacker.example:${server.port}` })).status).toBe(403);
  });

  it("exchanges the token for a cookie, then serves the page with a strict CSP", async () => {
    const exchange = await get(server.port, "/?token=tok-123");
    expect(exchange.status).toBe(303);
    expect(exchange.headers.location).toBe("/");
    const setCookie = exchange.headers["set-cookie"]?.[0] ?? "";
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const cookie = setCookie.split(";")[0]!;
    const page = await get(server.port, "/", { cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain("<title>Baton</title>");
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`ws://127.0.0.1:${server.port}`);
    expect(csp).not.toContain("unsafe-inline");
    expect((await get(server.port, "/app.js", { cookie })).body).toBe("console.log(1)");
    expect((await get(server.port, "/../../etc/passwd", { cookie })).status).toBe(404);
  });

  it("refuses the socket without the cookie or from another origin, accepts it with both", async () => {
    const origin = `http://127.0.0.1:${server.port}`;
    const cookie = "baton_session=cookie-456";
    expect(await connect(server.port, { origin })).toBe(401);
    expect(await connect(server.port, { origin: "http://evil.example", cookie })).toBe(403);
    expect(await connect(server.port, { cookie })).toBe(403);
    expect(await connect(server.port, { origin, cookie })).toBe("open");
  });

  it("answers calls over the socket with Results, invalid arguments included", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, { headers: { origin: `http://127.0.0.1:${server.port}`, cookie: "baton_session=cookie-456" } });
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    const replies = new Map<number, unknown>();
    const got = new Promise<void>((resolve) =>
      ws.on("message", (data) => {
        const msg = JSON.parse(String(data)) as { type: string; id: number; result: unknown };
        if (msg.type === "result") replies.set(msg.id, msg.result);
        if (replies.size === 3) resolve();
      }),
    );
    ws.send(JSON.stringify({ type: "call", id: 1, method: "listTabs", args: [] }));
    ws.send(JSON.stringify({ type: "call", id: 2, method: "closeTab", args: [42] }));
    ws.send(JSON.stringify({ type: "call", id: 3, method: "eval", args: [] }));
    await got;
    ws.close();
    expect(replies.get(1)).toEqual({ ok: true, value: [] });
    expect(replies.get(2)).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    expect(replies.get(3)).toMatchObject({ ok: false, error: { code: "unknown_method" } });
  });
});

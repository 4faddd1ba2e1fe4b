// Web mode's door: loopback only, a single-use short-lived link (token in the fragment) traded for
// the session cookie plus a per-tab secret, Host and Origin checked, and the API (the socket)
// opened only with cookie AND secret. The pure checks first, then a real server.

import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { LinkExpiredMessage, LinkUsedMessage } from "../../src/shared/webSignIn.js";
import { decideHttp, decideSignIn, decideUpgrade, isAllowedHost, isAllowedOrigin, linkUrl, type CredentialView, type LinkRecord } from "../../src/main/transport/web/webAuth.js";
import { DefaultLinkTtlMs } from "../../src/main/transport/web/webCredentials.js";
import type { WebServer } from "../../src/main/transport/web/webServer.js";
import { startWebFixture, type WebFixture } from "../support/webFixture.js";
import { openSocket, postSignIn, signIn, socketOutcome, socketProtocols } from "../support/webSignIn.js";

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

/** A view with one unused link `tok-new`, one used `tok-used`, and one tab secret `tab-secret`. */
function view(links: Record<string, LinkRecord> = { "tok-new": { issuedAt: 1000 }, "tok-used": { issuedAt: 1000, usedAt: 2000 } }): CredentialView {
  return { cookie: "cookie-456", linkTtlMs: DefaultLinkTtlMs, link: (t) => links[t], isPageSecret: (s) => s === "tab-secret" };
}

describe("web mode access rules (pure)", () => {
  const port = 4321;
  const host = `127.0.0.1:${port}`;
  const origin = `http://${host}`;
  const json = "application/json";

  it("refuses a foreign Host (DNS rebinding) before anything else", () => {
    expect(decideHttp({ method: "GET", url: "/", host: `evil.example:${port}` }, port)).toMatchObject({ kind: "deny", status: 403 });
    expect(decideHttp({ method: "GET", url: "/", host: `127.0.0.1:${port + 1}` }, port)).toMatchObject({ kind: "deny", status: 403 });
    expect(decideSignIn({ host: "evil.example", origin, contentType: json, body: '{"token":"tok-new"}' }, port, view(), 1000)).toMatchObject({ status: 403 });
  });

  it("accepts the Host and Origin a browser sends on the default port 80 (no port) and on 443", () => {
    expect(isAllowedHost("127.0.0.1", 80)).toBe(true);
    expect(isAllowedHost("localhost", 80)).toBe(true);
    expect(isAllowedHost("127.0.0.1:80", 80)).toBe(true);
    expect(isAllowedOrigin("http://127.0.0.1", 80)).toBe(true);
    expect(isAllowedOrigin("http://localhost", 80)).toBe(true);
    expect(decideHttp({ method: "GET", url: "/", host: "127.0.0.1" }, 80)).toEqual({ kind: "serve", pathname: "/" });
    expect(decideUpgrade({ url: "/ws", host: "localhost", origin: "http://localhost", cookie: "baton_session_80=cookie-456", protocols: socketProtocols("tab-secret").join(", ") }, 80, view())).toEqual({ kind: "accept" });
    // Plain http on 443 is not a default port: the browser names it, and a bare host means port 80.
    expect(isAllowedHost("127.0.0.1:443", 443)).toBe(true);
    expect(isAllowedOrigin("http://localhost:443", 443)).toBe(true);
    expect(isAllowedHost("127.0.0.1", 443)).toBe(false);
    expect(isAllowedHost("127.0.0.1", 8080)).toBe(false);
    expect(linkUrl(80, "abc")).toBe("http://127.0.0.1/#token=abc");
    expect(linkUrl(443, "abc")).toBe("http://127.0.0.1:443/#token=abc");
  });

  it("serves the page without any credential (it must load to read the link), but only GET/HEAD", () => {
    expect(decideHttp({ method: "GET", url: "/", host }, port)).toEqual({ kind: "serve", pathname: "/" });
    expect(decideHttp({ method: "GET", url: "/assets/app.js?x=1", host: `localhost:${port}` }, port)).toEqual({ kind: "serve", pathname: "/assets/app.js" });
    expect(decideHttp({ method: "POST", url: "/", host }, port)).toMatchObject({ status: 405 });
    expect(decideHttp({ method: "POST", url: "/sign-in", host }, port)).toEqual({ kind: "sign-in" });
    expect(decideHttp({ method: "GET", url: "/sign-in", host }, port)).toMatchObject({ status: 405 });
  });

  it("trades an unused link once, within its lifetime, from our own origin as JSON", () => {
    const facts = { host, origin, contentType: json, body: '{"token":"tok-new"}' };
    expect(decideSignIn(facts, port, view(), 1000)).toEqual({ kind: "sign-in", token: "tok-new" });
    expect(decideSignIn({ ...facts, body: '{"token":"tok-used"}' }, port, view(), 3000)).toEqual({ kind: "deny", status: 410, message: LinkUsedMessage });
    expect(decideSignIn(facts, port, view(), 1000 + DefaultLinkTtlMs - 1)).toMatchObject({ kind: "sign-in" });
    expect(decideSignIn(facts, port, view(), 1000 + DefaultLinkTtlMs)).toEqual({ kind: "deny", status: 410, message: LinkExpiredMessage });
    expect(decideSignIn({ ...facts, body: '{"token":"nope"}' }, port, view(), 1000)).toMatchObject({ status: 401 });
    expect(decideSignIn({ ...facts, origin: "http://127.0.0.1:3000" }, port, view(), 1000)).toMatchObject({ status: 403 });
    expect(decideSignIn({ ...facts, contentType: "text/plain" }, port, view(), 1000)).toMatchObject({ status: 415 });
    expect(decideSignIn({ ...facts, body: "tok-new" }, port, view(), 1000)).toMatchObject({ status: 400 });
    expect(decideSignIn({ ...facts, body: '{"token":["tok-new"]}' }, port, view(), 1000)).toMatchObject({ status: 400 });
    expect(decideSignIn({ ...facts, body: '{"__proto__":{"token":"tok-new"}}' }, port, view(), 1000)).toMatchObject({ status: 400 });
  });

  it("opens the socket only with the cookie AND the tab's secret, our Host and our Origin", () => {
    const protocols = socketProtocols("tab-secret").join(", ");
    const ok = { url: "/ws", host, origin, cookie: "baton_session_4321=cookie-456", protocols };
    expect(decideUpgrade(ok, port, view())).toEqual({ kind: "accept" });
    // What a browser sends to every port of the host (the cookie), replayed with a forged Origin:
    expect(decideUpgrade({ ...ok, protocols: undefined }, port, view())).toMatchObject({ status: 401 });
    expect(decideUpgrade({ ...ok, protocols: "baton.v1" }, port, view())).toMatchObject({ status: 401 });
    expect(decideUpgrade({ ...ok, protocols: socketProtocols("guess").join(",") }, port, view())).toMatchObject({ status: 401 });
    expect(decideUpgrade({ ...ok, cookie: undefined }, port, view())).toMatchObject({ status: 401 });
    expect(decideUpgrade({ ...ok, cookie: "baton_session_4321=wrong" }, port, view())).toMatchObject({ status: 401 });
    // Another `baton web`'s cookie (another port) is not ours.
    expect(decideUpgrade({ ...ok, cookie: "baton_session_4322=cookie-456" }, port, view())).toMatchObject({ status: 401 });
    expect(decideUpgrade({ ...ok, origin: "http://evil.example" }, port, view())).toMatchObject({ status: 403 });
    expect(decideUpgrade({ ...ok, origin: undefined }, port, view())).toMatchObject({ status: 403 });
    expect(decideUpgrade({ ...ok, host: "evil.example" }, port, view())).toMatchObject({ status: 403 });
    expect(decideUpgrade({ ...ok, url: "/other" }, port, view())).toMatchObject({ status: 404 });
  });

  it("opens the socket when any of several session cookies is ours: a decoy planted from another port locks no tab out", () => {
    const protocols = socketProtocols("tab-secret").join(", ");
    const ok = { url: "/ws", host, origin, protocols };
    // A page on another local port sets `baton_session_4321=decoy; path=/ws`: the browser sends it first.
    expect(decideUpgrade({ ...ok, cookie: "baton_session_4321=decoy; baton_session_4321=cookie-456" }, port, view())).toEqual({ kind: "accept" });
    expect(decideUpgrade({ ...ok, cookie: "baton_session_4321=cookie-456; baton_session_4321=decoy" }, port, view())).toEqual({ kind: "accept" });
    const many = Array.from({ length: 40 }, (_, i) => `baton_session_4321=decoy-${i}`).join("; ");
    expect(decideUpgrade({ ...ok, cookie: `${many}; other=1; baton_session_4321=cookie-456` }, port, view())).toEqual({ kind: "accept" });
    // Several wrong ones are still no sign-in, and a value of ours under another name counts for nothing.
    expect(decideUpgrade({ ...ok, cookie: "baton_session_4321=decoy; baton_session_4321=" }, port, view())).toMatchObject({ status: 401 });
    expect(decideUpgrade({ ...ok, cookie: "baton_session_4321=decoy; baton_session_43210=cookie-456; xbaton_session_4321=cookie-456" }, port, view())).toMatchObject({ status: 401 });
    // The cookie alone never was enough: the tab's secret is still needed.
    expect(decideUpgrade({ ...ok, cookie: "baton_session_4321=decoy; baton_session_4321=cookie-456", protocols: "baton.v1" }, port, view())).toMatchObject({ status: 401 });
  });
});

describe("web server", () => {
  let fixture: WebFixture;
  let server: WebServer;
  let clock = 1_000_000;

  beforeAll(async () => {
    fixture = await startWebFixture({ "index.html": "<!doctype html><title>Baton</title>", "app.js": "console.log(1)" }, { now: () => clock });
    server = fixture.server;
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("binds loopback and prints a link whose token is in the fragment, not the query", () => {
    expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/#token=[\\w-]{32}$`));
  });

  it("serves the page and its scripts to this machine without credentials, with no secret in them; nothing to a foreign Host", async () => {
    const page = await get(server.port, "/");
    expect(page.status).toBe(200);
    expect(page.body).toContain("<title>Baton</title>");
    const token = new URL(server.url).hash.slice("#token=".length);
    expect(page.body).not.toContain(token);
    expect(page.body).not.toContain(fixture.credentials.cookie);
    expect(page.headers["set-cookie"]).toBeUndefined();
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`ws://127.0.0.1:${server.port}`);
    expect(csp).not.toContain("unsafe-inline");
    expect((await get(server.port, "/app.js")).body).toBe("console.log(1)");
    expect((await get(server.port, "/../../etc/passwd")).status).toBe(404);
    expect((await get(server.port, "/", { host: `attacker.example:${server.port}` })).status).toBe(403);
  });

  it("trades the link once for a strict HttpOnly cookie and a tab secret; a second use says so", async () => {
    const link = server.newLink();
    const first = await postSignIn(link);
    expect(first.status).toBe(200);
    expect(first.reply.secret).toMatch(/^[\w-]{40,}$/);
    expect(first.cookie).toBe(`baton_session_${server.port}=${fixture.credentials.cookie}`);
    const again = await postSignIn(link);
    expect(again).toMatchObject({ status: 410, reply: { error: LinkUsedMessage } });
    expect(again.cookie).toBeUndefined();
    expect(again.reply.error).toContain("--new-link");
    // From a forged page of another port the trade is refused, and it does not spend the link.
    const fresh = server.newLink();
    expect((await postSignIn(fresh, { origin: "http://127.0.0.1:3000" })).status).toBe(403);
    expect((await postSignIn(fresh)).status).toBe(200);
  });

  it("retires a link left unused for 5 minutes (injected clock)", async () => {
    const link = server.newLink();
    clock += DefaultLinkTtlMs - 1;
    const stillGood = server.newLink();
    clock += 1;
    expect(await postSignIn(link)).toMatchObject({ status: 410, reply: { error: LinkExpiredMessage } });
    expect((await postSignIn(stillGood)).status).toBe(200);
  });

  it("refuses the socket to the cookie alone (forged Origin or not), without our Origin, or with a wrong secret", async () => {
    const bare = await signIn(server.newLink());
    expect(await socketOutcome(openSocket(server.port, bare, []))).toBe(401);
    expect(await socketOutcome(openSocket(server.port, bare, ["baton.v1"]))).toBe(401);
    expect(await socketOutcome(openSocket(server.port, bare, socketProtocols("not-the-secret")))).toBe(401);
    expect(await socketOutcome(openSocket(server.port, bare, undefined, { cookie: `baton_session_${server.port}=wrong` }))).toBe(401);
    expect(await socketOutcome(openSocket(server.port, bare, undefined, { origin: "http://evil.example" }))).toBe(403);
    expect(await socketOutcome(openSocket(server.port, bare))).toBe("open");
  });

  it("opens the socket to a signed-in tab whose request also carries a decoy session cookie, before or after its own", async () => {
    const tab = await signIn(server.newLink());
    const name = `baton_session_${server.port}`;
    const ours = `${name}=${fixture.credentials.cookie}`;
    expect(await socketOutcome(openSocket(server.port, tab, undefined, { cookie: `${name}=decoy; ${ours}` }))).toBe("open");
    expect(await socketOutcome(openSocket(server.port, tab, undefined, { cookie: `${ours}; ${name}=decoy` }))).toBe("open");
    expect(await socketOutcome(openSocket(server.port, tab, undefined, { cookie: `${name}=decoy; ${name}=decoy-2` }))).toBe(401);
  });

  it("answers calls over the socket with Results, invalid arguments included", async () => {
    const ws: WebSocket = openSocket(server.port, await signIn(server.newLink()));
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    expect(ws.protocol).toBe("baton.v1");
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

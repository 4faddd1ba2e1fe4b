// Who may talk to web mode: only this machine (127.0.0.1), and only a
// tab that signed in with a printed link. The link's token sits in the URL fragment (never sent to
// a server, never in a log) and works once, for a few minutes: the page POSTs it here and gets
// the session cookie plus a per-tab secret in the response body.
//
// Why both: browsers send cookies to every port of a host, so any other local server the person
// visits learns `baton_session_<port>`. The secret lives in the tab's sessionStorage (scoped to this
// origin, port included) and is presented only in our WebSocket handshake, so what a browser
// sends automatically elsewhere opens nothing. Host is checked against DNS rebinding and Origin
// against other pages; a script can forge Origin, so that check is defence in depth only.
// Pure: the decide* functions read a CredentialView (webCredentials.ts owns the state).

import { timingSafeEqual } from "node:crypto";
import { LinkExpiredMessage, LinkUsedMessage, SecretProtocolPrefix, SignInPath, SocketPath, TokenParam } from "../../../shared/webSignIn.js";

/** Cookies ignore ports: a name per port keeps two `baton web` on one host from overwriting each other's. */
export function cookieName(port: number): string {
  return `baton_session_${port}`;
}

export interface LinkRecord {
  readonly issuedAt: number;
  readonly usedAt?: number;
}

/** What the checks need to know about the credentials minted so far. */
export interface CredentialView {
  /** The session cookie's value (one per launch: a browser keeps one cookie per host). */
  readonly cookie: string;
  /** How long a link stays usable unused. */
  readonly linkTtlMs: number;
  link(token: string): LinkRecord | undefined;
  isPageSecret(secret: string): boolean;
}

/** Host header values a browser sends for this port: without the port when it is http's default. */
export function allowedHosts(port: number): readonly string[] {
  const names = ["127.0.0.1", "localhost"];
  return port === 80 ? [...names, ...names.map((n) => `${n}:80`)] : names.map((n) => `${n}:${port}`);
}

export function isAllowedHost(host: string | undefined, port: number): boolean {
  return host !== undefined && allowedHosts(port).includes(host.toLowerCase());
}

export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  return origin !== undefined && allowedHosts(port).some((h) => origin.toLowerCase() === `http://${h}`);
}

/** The printed link: the token in the fragment, so it reaches neither a server nor a log. */
export function linkUrl(port: number, token: string): string {
  // URL drops a default port (80), so the link matches what the browser will send as Host.
  return `${new URL(`http://127.0.0.1:${port}/`).href}#${TokenParam}=${token}`;
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Every value a Cookie header gives `name`, in the order sent. A browser sends several when pages
 * set the name for different paths, or from another port of this host (cookies ignore ports): a
 * page on another local port can plant `baton_session_<port>=decoy; Path=/ws`, which the browser
 * then sends first. Node caps the header (16 KB by default), so the list is bounded.
 */
export function readCookies(header: string | undefined, name: string): readonly string[] {
  if (header === undefined) return [];
  const values: string[] = [];
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/** Signed in when any of the request's session cookies is ours: a decoy planted beside it locks no one out. */
export function hasSessionCookie(cookieHeader: string | undefined, port: number, view: CredentialView): boolean {
  // Every value is compared (no early exit), so the time taken says nothing about which matched.
  return readCookies(cookieHeader, cookieName(port)).reduce((found, value) => safeEqual(value, view.cookie) || found, false);
}

export function sessionCookie(port: number, view: CredentialView): string {
  return `${cookieName(port)}=${view.cookie}; HttpOnly; SameSite=Strict; Path=/`;
}

/** The tab's secret among the offered subprotocols (`Sec-WebSocket-Protocol`), if any. */
export function offeredSecret(protocolHeader: string | undefined): string | undefined {
  if (protocolHeader === undefined) return undefined;
  const offered = protocolHeader.split(",").map((p) => p.trim());
  const secret = offered.find((p) => p.startsWith(SecretProtocolPrefix));
  return secret === undefined ? undefined : secret.slice(SecretProtocolPrefix.length);
}

export interface HttpRequestFacts {
  readonly method: string;
  readonly url: string;
  readonly host?: string;
}

export type HttpDecision =
  | { readonly kind: "serve"; readonly pathname: string }
  | { readonly kind: "sign-in" }
  | { readonly kind: "deny"; readonly status: 403 | 405; readonly message: string };

/**
 * The built page is served to anyone on this machine: it must load to read the link's fragment,
 * and it holds no secret. What it can reach (the socket) is guarded by decideUpgrade.
 */
export function decideHttp(request: HttpRequestFacts, port: number): HttpDecision {
  if (!isAllowedHost(request.host, port)) return { kind: "deny", status: 403, message: "Forbidden host" };
  const url = new URL(request.url, "http://127.0.0.1");
  if (url.pathname === SignInPath) {
    return request.method === "POST" ? { kind: "sign-in" } : { kind: "deny", status: 405, message: "Method not allowed" };
  }
  if (request.method !== "GET" && request.method !== "HEAD") return { kind: "deny", status: 405, message: "Method not allowed" };
  return { kind: "serve", pathname: url.pathname };
}

export interface SignInFacts {
  readonly host?: string;
  readonly origin?: string;
  readonly contentType?: string;
  /** The request body, already read (capped). */
  readonly body: string;
}

export type SignInDecision =
  | { readonly kind: "sign-in"; readonly token: string }
  | { readonly kind: "deny"; readonly status: 400 | 401 | 403 | 410 | 415; readonly message: string };

export function decideSignIn(request: SignInFacts, port: number, view: CredentialView, now: number): SignInDecision {
  if (!isAllowedHost(request.host, port)) return { kind: "deny", status: 403, message: "Forbidden host" };
  if (!isAllowedOrigin(request.origin, port)) return { kind: "deny", status: 403, message: "Forbidden origin" };
  // JSON only: another site's page cannot send it without a CORS preflight, which we never answer.
  if (request.contentType?.split(";")[0]?.trim().toLowerCase() !== "application/json") {
    return { kind: "deny", status: 415, message: "Send the token as JSON" };
  }
  const token = tokenOf(request.body);
  if (token === undefined) return { kind: "deny", status: 400, message: "No token" };
  const link = view.link(token);
  if (link === undefined) return { kind: "deny", status: 401, message: "This link is not valid for this Baton (it may be from an earlier run); use the link `baton web` printed." };
  if (link.usedAt !== undefined) return { kind: "deny", status: 410, message: LinkUsedMessage };
  if (now - link.issuedAt >= view.linkTtlMs) return { kind: "deny", status: 410, message: LinkExpiredMessage };
  return { kind: "sign-in", token };
}

function tokenOf(body: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || !Object.prototype.hasOwnProperty.call(value, "token")) return undefined;
  const token = (value as { token?: unknown }).token;
  return typeof token === "string" && token.length > 0 && token.length <= 200 ? token : undefined;
}

export interface UpgradeFacts {
  readonly url: string;
  readonly host?: string;
  readonly origin?: string;
  readonly cookie?: string;
  /** `Sec-WebSocket-Protocol`. */
  readonly protocols?: string;
}

export type UpgradeDecision = { readonly kind: "accept" } | { readonly kind: "deny"; readonly status: 401 | 403 | 404; readonly message: string };

/**
 * The secret rides in `Sec-WebSocket-Protocol` rather than a first message: it is checked before
 * the upgrade, so a socket without it never opens and the message layer stays free of auth state.
 */
export function decideUpgrade(request: UpgradeFacts, port: number, view: CredentialView): UpgradeDecision {
  if (!isAllowedHost(request.host, port)) return { kind: "deny", status: 403, message: "Forbidden host" };
  if (!isAllowedOrigin(request.origin, port)) return { kind: "deny", status: 403, message: "Forbidden origin" };
  if (new URL(request.url, "http://127.0.0.1").pathname !== SocketPath) return { kind: "deny", status: 404, message: "Not found" };
  if (!hasSessionCookie(request.cookie, port, view)) return { kind: "deny", status: 401, message: "Not signed in" };
  const secret = offeredSecret(request.protocols);
  if (secret === undefined || !view.isPageSecret(secret)) return { kind: "deny", status: 401, message: "Not signed in in this tab" };
  return { kind: "accept" };
}

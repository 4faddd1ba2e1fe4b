// Who may talk to web mode (DESIGN.md "Security rules"): only this machine (127.0.0.1), only a
// browser that was given the per-launch token, and only pages of this origin. The token is
// traded once per browser for an HttpOnly, SameSite=Strict cookie, so it does not stay in the URL.
// Host is checked against DNS rebinding, Origin against other sites' pages opening our socket. Pure.

import { randomBytes, timingSafeEqual } from "node:crypto";

export const CookieName = "baton_session";

export interface WebSecrets {
  /** Printed in the URL, traded for the cookie. */
  readonly token: string;
  /** The cookie's value. */
  readonly cookie: string;
}

export function createSecrets(): WebSecrets {
  return { token: randomBytes(24).toString("base64url"), cookie: randomBytes(32).toString("base64url") };
}

export function allowedHosts(port: number): readonly string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function isAllowedHost(host: string | undefined, port: number): boolean {
  return host !== undefined && allowedHosts(port).includes(host.toLowerCase());
}

export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  return origin !== undefined && allowedHosts(port).some((h) => origin.toLowerCase() === `http://${h}`);
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function hasSessionCookie(cookieHeader: string | undefined, secrets: WebSecrets): boolean {
  const value = readCookie(cookieHeader, CookieName);
  return value !== undefined && safeEqual(value, secrets.cookie);
}

export function sessionCookie(secrets: WebSecrets): string {
  return `${CookieName}=${secrets.cookie}; HttpOnly; SameSite=Strict; Path=/`;
}

export interface HttpRequestFacts {
  readonly method: string;
  readonly url: string;
  readonly host?: string;
  readonly cookie?: string;
}

export type HttpDecision =
  | { readonly kind: "serve"; readonly pathname: string }
  | { readonly kind: "redirect"; readonly location: string; readonly setCookie: string }
  | { readonly kind: "deny"; readonly status: 401 | 403 | 405; readonly message: string };

export function decideHttp(request: HttpRequestFacts, port: number, secrets: WebSecrets): HttpDecision {
  if (!isAllowedHost(request.host, port)) return { kind: "deny", status: 403, message: "Forbidden host" };
  const url = new URL(request.url, "http://127.0.0.1");
  const token = url.searchParams.get("token");
  if (token !== null) {
    if (!safeEqual(token, secrets.token)) return { kind: "deny", status: 401, message: "Wrong token" };
    url.searchParams.delete("token");
    const query = url.searchParams.toString();
    return { kind: "redirect", location: `${url.pathname}${query ? `?${query}` : ""}`, setCookie: sessionCookie(secrets) };
  }
  if (!hasSessionCookie(request.cookie, secrets)) {
    return { kind: "deny", status: 401, message: "Open the URL that `baton web` printed (it carries the access token)." };
  }
  if (request.method !== "GET" && request.method !== "HEAD") return { kind: "deny", status: 405, message: "Method not allowed" };
  return { kind: "serve", pathname: url.pathname };
}

export interface UpgradeFacts {
  readonly url: string;
  readonly host?: string;
  readonly origin?: string;
  readonly cookie?: string;
}

export type UpgradeDecision = { readonly kind: "accept" } | { readonly kind: "deny"; readonly status: 401 | 403 | 404; readonly message: string };

export function decideUpgrade(request: UpgradeFacts, port: number, secrets: WebSecrets, path = "/ws"): UpgradeDecision {
  if (!isAllowedHost(request.host, port)) return { kind: "deny", status: 403, message: "Forbidden host" };
  if (!isAllowedOrigin(request.origin, port)) return { kind: "deny", status: 403, message: "Forbidden origin" };
  if (!hasSessionCookie(request.cookie, secrets)) return { kind: "deny", status: 401, message: "Not signed in" };
  if (new URL(request.url, "http://127.0.0.1").pathname !== path) return { kind: "deny", status: 404, message: "Not found" };
  return { kind: "accept" };
}

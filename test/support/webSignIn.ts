// Signing in to web mode from Node as the page does: the link's fragment token POSTed to
// /sign-in (with our Origin), answered with the cookie and the tab's secret; then a `ws` socket
// opened with both. For tests of the web layer without a browser.
import http from "node:http";
import WebSocket from "ws";
import { SecretProtocolPrefix, SignInPath, SocketProtocol, type SignInReply } from "../../src/shared/webSignIn.js";

export interface SignedIn {
  /** `baton_session_<port>=…`, for a Cookie header. */
  readonly cookie: string;
  readonly secret: string;
  /** The page's origin, e.g. http://127.0.0.1:4321 */
  readonly origin: string;
}

export interface SignInAnswer {
  readonly status: number;
  readonly reply: SignInReply;
  readonly cookie?: string;
}

/** POSTs the link's token; resolves with whatever the server answered. */
export function postSignIn(link: string, headers: Record<string, string> = {}): Promise<SignInAnswer> {
  const url = new URL(link);
  const token = new URLSearchParams(url.hash.slice(1)).get("token") ?? "";
  const body = JSON.stringify({ token });
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(SignInPath, url.origin),
      { method: "POST", headers: { origin: url.origin, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          const cookie = res.headers["set-cookie"]?.[0]?.split(";")[0];
          let reply: SignInReply = {};
          try {
            reply = JSON.parse(text) as SignInReply;
          } catch {
            reply = { error: text };
          }
          resolve({ status: res.statusCode ?? 0, reply, ...(cookie !== undefined ? { cookie } : {}) });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export async function signIn(link: string): Promise<SignedIn> {
  const answer = await postSignIn(link);
  if (answer.status !== 200 || answer.cookie === undefined || answer.reply.secret === undefined) {
    throw new Error(`sign-in answered ${answer.status}: ${answer.reply.error ?? ""}`);
  }
  return { cookie: answer.cookie, secret: answer.reply.secret, origin: new URL(link).origin };
}

export function socketProtocols(secret: string): string[] {
  return [SocketProtocol, `${SecretProtocolPrefix}${secret}`];
}

/** A `ws` socket to web mode, signed in as `who` (headers may override, to forge). */
export function openSocket(port: number, who: SignedIn, protocols: string[] = socketProtocols(who.secret), headers: Record<string, string> = {}): WebSocket {
  return new WebSocket(`ws://127.0.0.1:${port}/ws`, protocols, { headers: { origin: who.origin, cookie: who.cookie, ...headers } });
}

/** Resolves with the upgrade's HTTP status when refused, or "open". */
export function socketOutcome(ws: WebSocket): Promise<number | "open"> {
  return new Promise((resolve) => {
    ws.on("open", () => {
      ws.close();
      resolve("open");
    });
    ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.on("error", () => resolve(0));
  });
}

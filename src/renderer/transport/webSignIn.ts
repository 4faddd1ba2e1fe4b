// Web mode's sign-in, in the page: the printed link's `#token=…` is read here (the fragment never
// reaches a server), removed from the address bar and history at once, and traded over a POST for
// the session cookie and this tab's secret. The secret is kept in sessionStorage: scoped to this
// origin (port included) and this tab, it survives a reload; a new tab needs a new link.

import { NoLinkMessage, SecretProtocolPrefix, SignInPath, SocketProtocol, TokenParam, type SignInReply } from "../../shared/webSignIn.js";

export const SecretKey = "baton.tabSecret";

export type SignInResult = { readonly ok: true; readonly protocols: readonly string[] } | { readonly ok: false; readonly message: string };

export interface SignInEnv {
  readonly location: { readonly hash: string; readonly pathname: string; readonly search: string };
  readonly history: { replaceState(data: unknown, unused: string, url: string): void };
  readonly storage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  readonly fetch: (url: string, init: { method: string; headers: Record<string, string>; body: string; credentials: "same-origin" }) => Promise<{ ok: boolean; json(): Promise<unknown> }>;
}

/** The subprotocols that carry `secret` in the WebSocket handshake. */
export function socketProtocols(secret: string): readonly string[] {
  return [SocketProtocol, `${SecretProtocolPrefix}${secret}`];
}

export async function signIn(env: SignInEnv): Promise<SignInResult> {
  const token = new URLSearchParams(env.location.hash.replace(/^#/, "")).get(TokenParam);
  const stored = env.storage.getItem(SecretKey);
  if (token === null) return stored !== null ? { ok: true, protocols: socketProtocols(stored) } : { ok: false, message: NoLinkMessage };
  env.history.replaceState(null, "", `${env.location.pathname}${env.location.search}`);
  let reply: SignInReply;
  let accepted: boolean;
  try {
    const response = await env.fetch(SignInPath, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
      credentials: "same-origin",
    });
    accepted = response.ok;
    reply = readReply(await response.json());
  } catch (error) {
    return { ok: false, message: `Could not reach Baton to sign in: ${String(error)}` };
  }
  if (accepted && reply.secret !== undefined) {
    env.storage.setItem(SecretKey, reply.secret);
    return { ok: true, protocols: socketProtocols(reply.secret) };
  }
  // An old link opened again in a tab that is signed in already: the tab keeps working.
  if (stored !== null) return { ok: true, protocols: socketProtocols(stored) };
  return { ok: false, message: reply.error ?? "Baton refused this link." };
}

function readReply(value: unknown): SignInReply {
  if (typeof value !== "object" || value === null) return {};
  const { secret, error } = value as Record<string, unknown>;
  return { ...(typeof secret === "string" ? { secret } : {}), ...(typeof error === "string" ? { error } : {}) };
}

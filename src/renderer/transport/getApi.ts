// The renderer's one way to reach Baton: the preload's bridge in Electron, else web mode's
// WebSocket on the page's own host, opened with this tab's secret (webSignIn.ts; the session
// cookie rides along).

import type { BatonApi } from "../../shared/api.js";
import { createElectronApi } from "./electronApi.js";
import { createWebSocketApi, type WebSocketApiOptions } from "./webSocketApi.js";
import { signIn } from "./webSignIn.js";

let api: BatonApi | undefined;

export function webSocketUrl(location: { readonly protocol: string; readonly host: string }): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
}

export type Connected = { readonly ok: true; readonly api: BatonApi } | { readonly ok: false; readonly message: string };

export async function getApi(options: WebSocketApiOptions = {}): Promise<Connected> {
  if (api !== undefined) return { ok: true, api };
  const bridge = (window as unknown as { baton?: unknown }).baton;
  if (bridge !== undefined) {
    api = createElectronApi(bridge);
    return { ok: true, api };
  }
  const signedIn = await signIn({
    location: window.location,
    history: window.history,
    storage: window.sessionStorage,
    fetch: (url, init) => window.fetch(url, init),
  });
  if (!signedIn.ok) return signedIn;
  api = createWebSocketApi(webSocketUrl(window.location), { ...options, protocols: signedIn.protocols });
  return { ok: true, api };
}

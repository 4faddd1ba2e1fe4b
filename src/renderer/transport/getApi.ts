// The renderer's one way to reach Baton: the preload's bridge in Electron, else web mode's
// WebSocket on the page's own host (the session cookie rides along).

import type { BatonApi } from "../../shared/api.js";
import { createElectronApi } from "./electronApi.js";
import { createWebSocketApi, type WebSocketApiOptions } from "./webSocketApi.js";

let api: BatonApi | undefined;

export function webSocketUrl(location: { readonly protocol: string; readonly host: string }): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
}

export function getApi(options: WebSocketApiOptions = {}): BatonApi {
  if (api !== undefined) return api;
  const bridge = (window as unknown as { baton?: unknown }).baton;
  api = bridge !== undefined ? createElectronApi(bridge) : createWebSocketApi(webSocketUrl(window.location), options);
  return api;
}

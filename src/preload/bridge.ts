// What the preload exposes as `window.baton`, built over an ipcRenderer-like object (so it is
// tested against registerIpc without Electron): every method on its own named channel, every
// subscription opened on its topic's channel with an id of its own, its events picked by that id
// from the one event channel. Looped over the contract's names (src/shared/apiNames.ts, no zod).

import type { BatonApi, Result } from "../shared/api.js";
import { apiOver } from "../shared/apiFacade.js";
import { IpcChannels } from "../shared/apiNames.js";

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void;
}

/** `page` names this load of the page: the main side ends a previous page's subscriptions when it sees a new one. */
export function createBridge(ipc: IpcRendererLike, page: string): BatonApi {
  const listeners = new Map<string, (payload: unknown) => void>();
  let nextSub = 1;
  ipc.on(IpcChannels.event, (_event, sub, payload) => {
    if (typeof sub === "string") listeners.get(sub)?.(payload);
  });
  return apiOver({
    // registerIpc answers every method's channel with a Result.
    call: (method, args) => ipc.invoke(IpcChannels.method(method), ...args) as Promise<Result<unknown>>,
    subscribe(name, key, listener) {
      const sub = String(nextSub++);
      // Listening before asking: what is now arrives before the answer.
      listeners.set(sub, listener);
      void ipc.invoke(IpcChannels.subscribe(name), page, sub, ...(key === undefined ? [] : [key]));
      return () => {
        if (!listeners.delete(sub)) return;
        void ipc.invoke(IpcChannels.unsubscribe, page, sub);
      };
    },
  });
}

/** A new token for each load of the preload: its time and a random part, never the previous page's. */
export function pageToken(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

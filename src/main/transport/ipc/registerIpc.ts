// The Electron side of the bridge: one named channel per API method and per subscription topic (no
// generic invoke), each checking that the call comes from the app's main frame in Baton's window,
// and validating its arguments (BatonService.call / subscribe) before anything runs. Both are
// looped over the contract's names. Each subscription of the page is its own, as in web mode: it
// gets what is now first (the Console's ring, the tab list, a transcript's reset), then follows; its
// events go out on one channel tagged with its id. Typed structurally, so it is tested without
// launching Electron.

import type { Result } from "../../../shared/api.js";
import { BatonMethodNames, IpcChannels, SubscriptionNames } from "../../../shared/apiNames.js";
import type { BatonService } from "../../core/batonService.js";
import { isTrustedSender } from "./senderPolicy.js";

export interface FrameLike {
  readonly url: string;
}
export interface WebContentsLike {
  readonly mainFrame: FrameLike;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}
export interface IpcEventLike {
  readonly sender: WebContentsLike;
  readonly senderFrame: FrameLike | null;
}
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}
export interface WindowLike {
  readonly webContents: WebContentsLike;
}

const Forbidden: Result<never> = { ok: false, error: { code: "forbidden", message: "This frame may not use Baton's API" } };
const Done: Result<void> = { ok: true, value: undefined };
/** The preload's page token and subscription ids: short, plain. */
const TokenPattern = /^[A-Za-z0-9._-]{1,100}$/;
/** As web mode's per-connection bound. */
const MaxSubscriptions = 1000;

/** Registers every channel; returns the function that removes them and ends the subscriptions. */
export function registerIpc(ipcMain: IpcMainLike, service: BatonService, getWindow: () => WindowLike | undefined, appOrigin: string): () => void {
  const trusted = (event: IpcEventLike): boolean => {
    const window = getWindow();
    if (window === undefined || event.sender !== window.webContents) return false;
    // Only the main frame: an iframe, even of our own origin, gets nothing.
    if (event.senderFrame === null || event.senderFrame !== window.webContents.mainFrame) return false;
    return isTrustedSender(event.senderFrame.url, appOrigin);
  };
  const push = (sub: string, payload: unknown) => {
    const contents = getWindow()?.webContents;
    if (contents !== undefined && !contents.isDestroyed()) contents.send(IpcChannels.event, sub, payload);
  };

  const channels: string[] = [];
  const handle = (channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown) => {
    ipcMain.handle(channel, listener);
    channels.push(channel);
  };

  for (const method of BatonMethodNames) {
    handle(IpcChannels.method(method), (event, ...args) => (trusted(event) ? service.call(method, args) : Forbidden));
  }

  // The subscriptions of the page now loaded in the window. Each load of the preload names itself
  // with a new token: the first subscription of a new page ends those of the page before it (a
  // reload or a crash leaves no unsubscribe behind).
  let page: string | undefined;
  const subscriptions = new Map<string, () => void>();
  const endAll = () => {
    for (const stop of subscriptions.values()) stop();
    subscriptions.clear();
  };

  for (const name of SubscriptionNames) {
    handle(IpcChannels.subscribe(name), (event, token, sub, key) => {
      if (!trusted(event)) return Forbidden;
      if (typeof token !== "string" || !TokenPattern.test(token) || typeof sub !== "string" || !TokenPattern.test(sub)) {
        return { ok: false, error: { code: "invalid_argument", message: `${name}: a subscription needs the page's token and an id` } };
      }
      if (token !== page) {
        endAll();
        page = token;
      }
      if (subscriptions.has(sub)) return { ok: false, error: { code: "invalid_argument", message: `${name}: subscription ${sub} exists` } };
      if (subscriptions.size >= MaxSubscriptions) return { ok: false, error: { code: "invalid_argument", message: "too many subscriptions" } };
      const opened = service.subscribe(name, key, (payload) => push(sub, payload));
      if (!opened.ok) return opened;
      subscriptions.set(sub, opened.value);
      return Done;
    });
  }
  handle(IpcChannels.unsubscribe, (event, token, sub) => {
    if (!trusted(event)) return Forbidden;
    if (token !== page || typeof sub !== "string") return Done;
    subscriptions.get(sub)?.();
    subscriptions.delete(sub);
    return Done;
  });

  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
    endAll();
  };
}

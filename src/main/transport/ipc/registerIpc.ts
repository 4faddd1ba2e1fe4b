// The Electron side of the bridge: one named channel per API method (no generic invoke), each
// checking that the call comes from the app's main frame in Baton's window and validating its
// arguments (BatonService.call) before anything runs. Events go out with webContents.send on
// named channels. Typed structurally, so it is tested without launching Electron.

import { BatonMethodNames, IpcChannels, type Result } from "../../../shared/api.js";
import type { BatonService } from "../../core/batonService.js";
import { str } from "../../platform/check.js";
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
const TabIdCheck = str({ min: 1, max: 200 });

/** Registers every channel; returns the function that removes them and ends the subscriptions. */
export function registerIpc(ipcMain: IpcMainLike, service: BatonService, getWindow: () => WindowLike | undefined, appOrigin: string): () => void {
  const trusted = (event: IpcEventLike): boolean => {
    const window = getWindow();
    if (window === undefined || event.sender !== window.webContents) return false;
    // Only the main frame: an iframe, even of our own origin, gets nothing.
    if (event.senderFrame === null || event.senderFrame !== window.webContents.mainFrame) return false;
    return isTrustedSender(event.senderFrame.url, appOrigin);
  };
  const push = (channel: string, payload: unknown) => {
    const contents = getWindow()?.webContents;
    if (contents !== undefined && !contents.isDestroyed()) contents.send(channel, payload);
  };

  const channels: string[] = [];
  const handle = (channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown) => {
    ipcMain.handle(channel, listener);
    channels.push(channel);
  };

  for (const method of BatonMethodNames) {
    handle(IpcChannels.method(method), (event, ...args) => (trusted(event) ? service.call(method, args) : Forbidden));
  }

  // Transcript subscriptions, counted per tab: the page may watch a tab from several places.
  const transcripts = new Map<string, { count: number; stop: () => void }>();
  handle(IpcChannels.subscribeTranscript, (event, tabId) => {
    if (!trusted(event)) return Forbidden;
    const error = TabIdCheck(tabId, "tabId");
    if (error !== undefined) return { ok: false, error: { code: "invalid_argument", message: error } };
    const id = tabId as string;
    const existing = transcripts.get(id);
    // A new listener needs a full reset; resubscribing sends one (harmless to the others).
    existing?.stop();
    const stop = service.onTranscriptDelta(id, (delta) => push(IpcChannels.transcriptDelta, delta));
    transcripts.set(id, { count: (existing?.count ?? 0) + 1, stop });
    return { ok: true, value: undefined };
  });
  handle(IpcChannels.unsubscribeTranscript, (event, tabId) => {
    if (!trusted(event)) return Forbidden;
    const entry = typeof tabId === "string" ? transcripts.get(tabId) : undefined;
    if (entry !== undefined && --entry.count <= 0) {
      entry.stop();
      transcripts.delete(tabId as string);
    }
    return { ok: true, value: undefined };
  });

  const stopTabs = service.onTabsChanged((tabs) => push(IpcChannels.tabsChanged, tabs));
  const stopLog = service.manager.log.subscribe((entry) => push(IpcChannels.log, entry));
  const stopPolicy = service.onPolicyChanged((policy) => push(IpcChannels.policyChanged, policy));

  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
    for (const entry of transcripts.values()) entry.stop();
    transcripts.clear();
    stopTabs();
    stopLog();
    stopPolicy();
  };
}

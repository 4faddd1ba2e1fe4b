// The only bridge between the page and Electron: one frozen object of named functions under
// `window.baton` (BatonApi). Each method has its own IPC channel; the page never sees ipcRenderer
// or any generic channel. Subscriptions return their unsubscribe function.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from "electron";
import {
  BatonMethodNames,
  IpcChannels,
  type BatonApi,
  type BatonMethodName,
  type LogEntry,
  type PolicyInfo,
  type TabInfo,
  type TranscriptDelta,
} from "../shared/api.js";

type Methods = Pick<BatonApi, BatonMethodName>;

function methods(): Methods {
  const table: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of BatonMethodNames) {
    const channel = IpcChannels.method(name);
    table[name] = (...args: unknown[]) => ipcRenderer.invoke(channel, ...args);
  }
  return table as unknown as Methods;
}

function listen<T>(channel: string, accept: (payload: T) => boolean, listener: (payload: T) => void): () => void {
  const handler = (_event: IpcRendererEvent, payload: T) => {
    if (accept(payload)) listener(payload);
  };
  ipcRenderer.on(channel, handler);
  return () => void ipcRenderer.removeListener(channel, handler);
}

const api: BatonApi & { readonly versions: Readonly<Record<string, string>> } = Object.freeze({
  versions: Object.freeze({
    electron: process.versions.electron ?? "",
    chrome: process.versions.chrome ?? "",
    node: process.versions.node,
  }),
  ...methods(),
  onTranscriptDelta(tabId: string, listener: (delta: TranscriptDelta) => void) {
    const stop = listen<TranscriptDelta>(IpcChannels.transcriptDelta, (d) => d.tabId === tabId, listener);
    void ipcRenderer.invoke(IpcChannels.subscribeTranscript, tabId);
    return () => {
      stop();
      void ipcRenderer.invoke(IpcChannels.unsubscribeTranscript, tabId);
    };
  },
  onTabsChanged(listener: (tabs: readonly TabInfo[]) => void) {
    return listen<readonly TabInfo[]>(IpcChannels.tabsChanged, () => true, listener);
  },
  onLog(listener: (entry: LogEntry) => void) {
    return listen<LogEntry>(IpcChannels.log, () => true, listener);
  },
  onPolicyChanged(listener: (policy: PolicyInfo) => void) {
    return listen<PolicyInfo>(IpcChannels.policyChanged, () => true, listener);
  },
});

export type BatonPreloadApi = typeof api;

contextBridge.exposeInMainWorld("baton", api);

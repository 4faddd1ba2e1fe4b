// The only bridge between the page and Electron: one frozen object of named functions under
// `window.baton` (BatonApi, built in bridge.ts). Each method has its own IPC channel, each
// subscription its topic's; the page never sees ipcRenderer or any generic channel.
// Subscriptions return their unsubscribe function.
import { contextBridge, ipcRenderer } from "electron";
import { createBridge, pageToken } from "./bridge.js";

const api = Object.freeze({
  versions: Object.freeze({
    electron: process.versions.electron ?? "",
    chrome: process.versions.chrome ?? "",
    node: process.versions.node,
  }),
  ...createBridge(ipcRenderer, pageToken()),
});

export type BatonPreloadApi = typeof api;

contextBridge.exposeInMainWorld("baton", api);

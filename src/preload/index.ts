// The only bridge between the page and Electron: one frozen object of named functions under
// `window.baton`. The page never sees ipcRenderer or any generic channel.
import { contextBridge } from "electron";

const api = Object.freeze({
  versions: Object.freeze({
    electron: process.versions.electron ?? "",
    chrome: process.versions.chrome ?? "",
    node: process.versions.node,
  }),
});

export type BatonPreloadApi = typeof api;

contextBridge.exposeInMainWorld("baton", api);

// BatonApi in the Electron window: the preload's `window.baton` already is one (named IPC calls,
// Results, unsubscribe functions). This adapter checks its shape once, so a missing method is a
// clear error at startup rather than a crash on first use.

import { BatonMethodNames, type BatonApi } from "../../shared/api.js";

const Subscriptions = ["onTranscriptDelta", "onTabsChanged", "onLog", "onPolicyChanged"] as const;

export function isBatonApi(value: unknown): value is BatonApi {
  if (typeof value !== "object" || value === null) return false;
  const api = value as Record<string, unknown>;
  return [...BatonMethodNames, ...Subscriptions].every((name) => typeof api[name] === "function");
}

export function createElectronApi(bridge: unknown): BatonApi {
  if (!isBatonApi(bridge)) throw new Error("window.baton is not Baton's API: the preload is missing or out of date");
  const api = bridge;
  // Bound copies: contextBridge objects are frozen proxies; callers may pass methods around.
  return {
    listTabs: () => api.listTabs(),
    listSessions: () => api.listSessions(),
    searchHistory: (query, limit) => api.searchHistory(query, limit),
    openSession: (sessionId) => api.openSession(sessionId),
    loadSubagentBlocks: (tabId, toolUseId) => api.loadSubagentBlocks(tabId, toolUseId),
    newSession: (options) => api.newSession(options),
    closeTab: (tabId) => api.closeTab(tabId),
    sendPrompt: (tabId, text, images) => api.sendPrompt(tabId, text, images),
    interrupt: (tabId) => api.interrupt(tabId),
    setPermissionMode: (tabId, mode) => api.setPermissionMode(tabId, mode),
    setModel: (tabId, model) => api.setModel(tabId, model),
    answerPermission: (tabId, requestId, answer) => api.answerPermission(tabId, requestId, answer),
    answerEscalation: (tabId, escalationId, reply) => api.answerEscalation(tabId, escalationId, reply),
    getSessionInfo: (tabId) => api.getSessionInfo(tabId),
    chooseDirectory: () => api.chooseDirectory(),
    getHistoryFolder: () => api.getHistoryFolder(),
    setHistoryFolder: (dir) => api.setHistoryFolder(dir),
    getPolicy: () => api.getPolicy(),
    setOrchestration: (on) => api.setOrchestration(on),
    setPolicyCheckOnly: (on) => api.setPolicyCheckOnly(on),
    addRule: (rule) => api.addRule(rule),
    deleteRule: (key) => api.deleteRule(key),
    resetPresets: () => api.resetPresets(),
    listWorktrees: (tabId) => api.listWorktrees(tabId),
    worktreeDiff: (tabId, path) => api.worktreeDiff(tabId, path),
    mergeWorktree: (tabId, path) => api.mergeWorktree(tabId, path),
    removeWorktree: (tabId, path, rescue) => api.removeWorktree(tabId, path, rescue),
    openWorktree: (tabId, path, where) => api.openWorktree(tabId, path, where),
    onTranscriptDelta: (tabId, listener) => api.onTranscriptDelta(tabId, listener),
    onTabsChanged: (listener) => api.onTabsChanged(listener),
    onLog: (listener) => api.onLog(listener),
    onPolicyChanged: (listener) => api.onPolicyChanged(listener),
  };
}

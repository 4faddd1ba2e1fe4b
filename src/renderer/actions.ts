// User actions shared by the toolbar, the composer and keyboard shortcuts.
import { api, report } from "./apiClient.js";
import type { TranscriptState } from "../shared/delta/index.js";
import { pastSessionOpened } from "./layout/pastSession.js";
import { markRestored, select, setActiveTab, setInterruptConfirm, setInterrupting, useApp, type TabState } from "./state/appState.js";

/**
 * Opens a session from history in a tab and brings it forward; undefined when it cannot (reported).
 * `project`: its project folder, which tells apart two sessions of one id in different folders.
 */
export async function openFromHistory(sessionId: string, project?: string): Promise<string | undefined> {
  const before = useApp.getState().tabOrder;
  const tab = report("Open session", await api().openSession(sessionId, project));
  if (tab === undefined) return undefined;
  if (!tab.live) markRestored(tab.tabId);
  // It opens in the preview tab (layout/previewTab.ts).
  pastSessionOpened(tab, before.includes(tab.tabId));
  setActiveTab(tab.tabId);
  return tab.tabId;
}

/** Brings a session forward: the tab that has it open, else a new one from history. */
export async function showSession(sessionId: string): Promise<string | undefined> {
  const s = useApp.getState();
  const open = s.tabOrder.find((id) => s.tabs[id]?.info.sessionId === sessionId);
  if (open === undefined) return openFromHistory(sessionId);
  setActiveTab(open);
  return open;
}

/**
 * Selects (and scrolls to) the block `find` picks in a tab once the tab's transcript holds it: a
 * tab just opened from history receives its blocks after it appears. Gives up after `timeoutMs`.
 */
export function selectWhenShown(tabId: string, find: (transcript: TranscriptState) => string | undefined, timeoutMs = 30_000): void {
  const pick = (): string | undefined => {
    const transcript = useApp.getState().tabs[tabId]?.transcript;
    return transcript === undefined ? undefined : find(transcript);
  };
  const now = pick();
  if (now !== undefined) {
    select(tabId, now, true);
    return;
  }
  const stop = (): void => {
    unsubscribe();
    clearTimeout(timer);
  };
  const unsubscribe = useApp.subscribe((s, prev) => {
    if (s.tabs[tabId]?.transcript === prev.tabs[tabId]?.transcript) return;
    const id = pick();
    if (id === undefined) return;
    stop();
    select(tabId, id, true);
  });
  const timer = setTimeout(stop, timeoutMs);
}

/**
 * Interrupts the active session (the button, Esc). An interrupt also stops every live background
 * agent: when it would stop any, the first ask only opens a confirm naming how many, and the next
 * ask (Esc again, or the confirm's button) sends it.
 */
export function interruptActive(): void {
  const s = useApp.getState();
  const tabId = s.activeTabId;
  if (tabId === undefined) return;
  const agents = s.tabs[tabId]?.transcript.meta?.backgroundAgents ?? 0;
  const asked = s.interruptConfirm;
  if (agents > 0 && asked?.tabId !== tabId) {
    setInterruptConfirm({ tabId, agents });
    return;
  }
  sendInterrupt(tabId);
}

export function cancelInterrupt(): void {
  setInterruptConfirm(undefined);
}

function sendInterrupt(tabId: string): void {
  setInterruptConfirm(undefined);
  setInterrupting(tabId, true);
  void api()
    .interrupt(tabId)
    .then((r) => report("Interrupt", r))
    .finally(() => setInterrupting(tabId, false));
}

export interface Prompt {
  readonly text: string;
  readonly images: readonly { readonly mediaType: string; readonly data: string }[];
}

/**
 * Sends a prompt to the tab's session. A tab restored from history is continued in a new live tab
 * (`claude --resume`) with the prompt as its first message; a tab whose kind is not known yet
 * learns it from the "read_only" answer and does the same. Returns why it was not sent (also in
 * the Console), or undefined once it was.
 */
export async function sendOrResume(tab: TabState, prompt: Prompt): Promise<string | undefined> {
  if (tab.info.kind !== "restored") {
    const sent = await api().sendPrompt(tab.info.tabId, prompt.text, prompt.images);
    if (sent.ok) return undefined;
    if (sent.error.code !== "read_only") {
      report("Send prompt", sent);
      return sent.error.message;
    }
  }
  const cwd = tab.info.cwd ?? tab.transcript.meta?.cwd;
  if (cwd === undefined) return "this session's folder is not known, so it cannot be resumed";
  const resume = tab.info.sessionId ?? tab.transcript.meta?.sessionId;
  const result = await api().newSession({ cwd, ...(resume !== undefined ? { resumeSessionId: resume } : {}), initialPrompt: prompt.text });
  const opened = report("Resume session", result);
  if (opened === undefined) return result.ok ? "the session did not open" : result.error.message;
  setActiveTab(opened.tabId);
  return undefined;
}

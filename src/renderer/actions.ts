// User actions shared by the toolbar, the composer and keyboard shortcuts.
import { api, report } from "./apiClient.js";
import { setActiveTab, setInterruptConfirm, setInterrupting, useApp, type TabState } from "./store/appStore.js";

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
 * learns it from the "read_only" answer and does the same.
 */
export async function sendOrResume(tab: TabState, prompt: Prompt): Promise<void> {
  if (tab.info.kind !== "restored") {
    const sent = await api().sendPrompt(tab.info.tabId, prompt.text, prompt.images);
    if (sent.ok || sent.error.code !== "read_only") {
      report("Send prompt", sent);
      return;
    }
  }
  const cwd = tab.info.cwd ?? tab.transcript.meta?.cwd;
  if (cwd === undefined) return;
  const resume = tab.info.sessionId ?? tab.transcript.meta?.sessionId;
  const opened = report("Resume session", await api().newSession({ cwd, ...(resume !== undefined ? { resumeSessionId: resume } : {}), initialPrompt: prompt.text }));
  if (opened !== undefined) setActiveTab(opened.tabId);
}

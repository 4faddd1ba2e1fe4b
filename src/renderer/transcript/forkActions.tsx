// The prompt actions "Fork from here" and "Edit and resend" (issue 37): on a prompt of a live or
// restored session, a new live tab continues the session from just before that prompt (the main
// side's forkSession: --resume --fork-session --resume-session-at) and sends the prompt again, as
// it was or as the person edits it in a dialog first (EditResendDialog.tsx). The original session
// is left as it is; the new tab says where it came from.
import { api, report } from "../apiClient.js";
import { setActiveTab, useApp } from "../state/appState.js";
import { EditResendDialog } from "./EditResendDialog.js";
import type { PromptActionEntry, PromptPlace } from "./PromptActions.js";
import { openPromptDialog } from "./promptDialog.js";

/** A prompt the CLI knows by this id: the uuid Baton sent it with, or the one its history line has. */
const PromptUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a prompt can be forked from: its session has an id and runs in Baton (a terminal
 * session's CLI is the terminal's), the prompt has started (a queued one is not on disk yet), and
 * it carries no pictures (a fork sends the words only; leaving the pictures out would answer
 * another question).
 */
function forkable({ tabId, block }: PromptPlace): boolean {
  const info = useApp.getState().tabs[tabId]?.info;
  if (info?.sessionId === undefined || info.terminal !== undefined) return false;
  return block.queued !== true && PromptUuid.test(block.id) && (block.images?.length ?? 0) === 0 && (block.text ?? "") !== "";
}

/** Starts the fork and brings its tab forward; the reason when it could not (also in the Console). */
export async function forkFromPrompt(tabId: string, promptUuid: string, text: string): Promise<string | undefined> {
  const result = await api().forkSession(tabId, promptUuid, text);
  const tab = report("Fork session", result);
  if (tab === undefined) return result.ok ? "the fork did not open" : result.error.message;
  setActiveTab(tab.tabId);
  return undefined;
}

export const forkFromHereAction: PromptActionEntry = (place) => {
  if (!forkable(place)) return undefined;
  const { tabId, block } = place;
  return {
    key: "fork",
    label: "Fork from here",
    title: "Continue this session from just before this prompt in a new tab, and send the prompt again there",
    run: () => void forkFromPrompt(tabId, block.id, block.text ?? ""),
  };
};

export const editAndResendAction: PromptActionEntry = (place) => {
  if (!forkable(place)) return undefined;
  const { tabId, block } = place;
  return {
    key: "edit-resend",
    label: "Edit and resend",
    title: "Edit this prompt, then send it in a new tab that continues the session from just before it",
    run: () => openEditResend(tabId, block.id, block.text ?? ""),
  };
};

function openEditResend(tabId: string, promptUuid: string, prompt: string): void {
  openPromptDialog((close) => <EditResendDialog prompt={prompt} send={(text) => forkFromPrompt(tabId, promptUuid, text)} onClose={close} />);
}

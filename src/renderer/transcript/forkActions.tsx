// The prompt actions "Fork from here" and "Edit and resend" (issue 37): on a prompt of a live or
// restored session, a new live tab continues the session from just before that prompt (the main
// side's forkSession: --resume --fork-session --resume-session-at) and sends the prompt again, as
// it was or as the person edits it in a dialog first (EditResendDialog.tsx). The original session
// is left as it is; the new tab says where it came from. A session running in a worktree may fork
// into a new worktree of its own ("Fork to a new worktree", or the dialog's choice).
import { api, report } from "../apiClient.js";
import type { TabInfo } from "../../shared/api.js";
import { setActiveTab } from "../state/appState.js";
import { EditResendDialog } from "./EditResendDialog.js";
import type { PromptActionEntry, PromptContext } from "./PromptActions.js";
import { openPromptDialog } from "./promptDialog.js";
import { PromptUuid } from "./promptUuid.js";

/**
 * Whether a prompt can be forked from: its session has an id and runs in Baton (a terminal
 * session's CLI is the terminal's), the prompt has started (a queued one is not on disk yet), and
 * it carries no pictures (a fork sends the words only; leaving the pictures out would answer
 * another question).
 */
function forkable({ block, info }: PromptContext): boolean {
  if (info?.sessionId === undefined || info.terminal !== undefined) return false;
  return block.queued !== true && PromptUuid.test(block.id) && (block.images?.length ?? 0) === 0 && (block.text ?? "") !== "";
}

/** A session running in a linked worktree: its fork may start in a new worktree of its own. */
function inWorktree(info: TabInfo | undefined): boolean {
  return info?.worktree !== undefined;
}

/** Starts the fork and brings its tab forward; the reason when it could not (also in the Console). */
export async function forkFromPrompt(tabId: string, promptUuid: string, text: string, inNewWorktree = false): Promise<string | undefined> {
  const result = await api().forkSession(tabId, promptUuid, text, inNewWorktree ? true : undefined);
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

export const forkToWorktreeAction: PromptActionEntry = (place) => {
  if (!forkable(place) || !inWorktree(place.info)) return undefined;
  const { tabId, block } = place;
  return {
    key: "fork-worktree",
    label: "Fork to a new worktree",
    title: "Continue this session from just before this prompt in a new tab and a new worktree, made from this worktree's last commit, and send the prompt again there",
    run: () => void forkFromPrompt(tabId, block.id, block.text ?? "", true),
  };
};

export const editAndResendAction: PromptActionEntry = (place) => {
  if (!forkable(place)) return undefined;
  const { tabId, block } = place;
  return {
    key: "edit-resend",
    label: "Edit and resend",
    title: "Edit this prompt, then send it in a new tab that continues the session from just before it",
    run: () => openEditResend(tabId, block.id, block.text ?? "", inWorktree(place.info)),
  };
};

function openEditResend(tabId: string, promptUuid: string, prompt: string, worktreeChoice: boolean): void {
  openPromptDialog((close) => (
    <EditResendDialog prompt={prompt} worktreeChoice={worktreeChoice} send={(text, inNewWorktree) => forkFromPrompt(tabId, promptUuid, text, inNewWorktree)} onClose={close} />
  ));
}

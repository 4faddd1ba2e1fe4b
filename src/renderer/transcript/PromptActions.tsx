// The actions on one of the person's prompts in a transcript (issue 37): each is a button in a
// small labelled group under the prompt, reached with Tab like any other button. Each action is
// one entry of PromptActionEntries (its own file says what it does); an entry that does not apply
// to a prompt (e.g. one that needs a live session) leaves no button, so no button is ever dead.
import type { TabInfo } from "../../shared/api.js";
import type { Block } from "../../shared/transcript.js";
import { useApp } from "../state/appState.js";
import "./promptActions.css";
import { rewindFilesAction } from "./rewindFilesAction.js";
import { editAndResendAction, forkFromHereAction, forkToWorktreeAction } from "./forkActions.js";

/** One button under a prompt. */
export interface PromptAction {
  /** Stable key and the button's test handle. */
  readonly key: string;
  readonly label: string;
  /** What it does, in a sentence (the tooltip and the accessible description). */
  readonly title: string;
  readonly run: () => void;
}

/** Where a prompt is: its tab and its block (the block id is the prompt's uuid on disk). */
export interface PromptPlace {
  readonly tabId: string;
  readonly block: Block;
}

/** A prompt's place and what its tab is now (its session id, kind, worktree): what an entry decides by. */
export interface PromptContext extends PromptPlace {
  readonly info: TabInfo | undefined;
}

/** An action's entry: the button for this prompt, or undefined when it does not apply. */
export type PromptActionEntry = (context: PromptContext) => PromptAction | undefined;

/** Every action a prompt may offer, in the order the buttons show. */
const PromptActionEntries: readonly PromptActionEntry[] = [forkFromHereAction, forkToWorktreeAction, editAndResendAction, rewindFilesAction];

export function PromptActions({ tabId, block }: PromptPlace) {
  // Read as a subscription: a new session's id arrives after its first prompt is drawn, and the
  // fork actions it enables must then appear on that prompt too.
  const info = useApp((s) => s.tabs[tabId]?.info);
  const actions = PromptActionEntries.map((entry) => entry({ tabId, block, info })).filter((a): a is PromptAction => a !== undefined);
  if (actions.length === 0) return null;
  return (
    <div className="prompt-actions" role="group" aria-label="Prompt actions">
      {actions.map((a) => (
        <button key={a.key} type="button" className="prompt-action" data-action={a.key} title={a.title} onClick={a.run}>
          {a.label}
        </button>
      ))}
    </div>
  );
}

// A tab's title: the session's one title (shared/sessionTitle.ts), as the list and search show it.

import { FirstPrompt, sessionTitle, type TitleFacts } from "../../shared/sessionTitle.js";
import type { Transcript } from "../../shared/transcript.js";

/** What a reader of the session's file found that its transcript may not show. */
export type ReaderFacts = Pick<TitleFacts, "firstPrompt" | "summary">;

/**
 * `read`: the session's first real prompt and summary as its reader found them in the file (a
 * restored tab's first screen may not hold the first prompt; no transcript holds a summary);
 * without it the first prompt is picked from the transcript's prompts. The hub keeps one title,
 * the person's over the model's, as `transcript.title`.
 */
export function tabTitle(transcript: Transcript | undefined, read?: ReaderFacts, fallback = "New session"): string {
  // A session the CLI has not named yet (no id) is no past session to call "(untitled)".
  if (transcript === undefined || transcript.sessionId === "") return fallback;
  const facts = { customTitle: transcript.title, firstPrompt: read !== undefined ? read.firstPrompt : firstPromptOf(transcript), summary: read?.summary };
  return sessionTitle(facts, transcript.sessionId).title;
}

function firstPromptOf(transcript: Transcript): string | undefined {
  const first = new FirstPrompt();
  for (const block of transcript.blocks) {
    if (block.kind !== "user" || block.text === undefined) continue;
    first.note(block.text);
    if (first.settled) break;
  }
  return first.value;
}

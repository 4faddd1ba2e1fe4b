// A tab's title: the session's own title, else its first prompt, else a placeholder.

import { splitIdeContext } from "../../shared/ideContext.js";
import type { Transcript } from "../../shared/transcript.js";

const MaxChars = 60;

export function tabTitle(transcript: Transcript | undefined, fallback = "New session"): string {
  if (transcript?.title !== undefined && transcript.title.trim() !== "") return clip(transcript.title);
  // A prompt from an IDE starts with the file it had open: the person's words name the tab.
  const words = transcript?.blocks.map((b) => (b.kind === "user" && b.text !== undefined ? splitIdeContext(b.text).words : "")).find((w) => w.trim() !== "");
  return words !== undefined ? clip(words) : fallback;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= MaxChars ? line : `${line.slice(0, MaxChars - 1)}…`;
}

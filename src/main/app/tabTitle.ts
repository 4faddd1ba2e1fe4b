// A tab's title: the session's own title, else its first prompt, else a placeholder.

import type { Transcript } from "../../shared/transcript.js";

const MaxChars = 60;

export function tabTitle(transcript: Transcript | undefined, fallback = "New session"): string {
  if (transcript?.title !== undefined && transcript.title.trim() !== "") return clip(transcript.title);
  const prompt = transcript?.blocks.find((b) => b.kind === "user" && b.text !== undefined && b.text.trim() !== "");
  return prompt?.text !== undefined ? clip(prompt.text) : fallback;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= MaxChars ? line : `${line.slice(0, MaxChars - 1)}…`;
}

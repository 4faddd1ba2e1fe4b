// Sensible answers to the CLI's requests that are not scripted agent turns: session titles,
// compaction summaries, prompt suggestions and anything else it asks on the side.

import type { SideKind } from "./classify.js";

export const SCRIPTED_TITLE = "Scripted session title";
export const SCRIPTED_SUGGESTION = "run the tests";
export const UNSCRIPTED_TEXT = "(no scripted turn)";

export function sideReplyText(side: SideKind): string {
  switch (side) {
    case "title":
      return JSON.stringify({ title: SCRIPTED_TITLE });
    case "compact":
      return (
        "<analysis>Scripted analysis.</analysis>\n" +
        "<summary>Scripted summary: the user asked for work and the assistant did it.</summary>"
      );
    case "suggestion":
      return SCRIPTED_SUGGESTION;
    default:
      return "Scripted side answer.";
  }
}

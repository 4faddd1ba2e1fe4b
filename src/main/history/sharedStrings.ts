// Memory for big restores. A tool result is written twice on disk: as the message's text and in
// `toolUseResult` (Bash's stdout, Read's file content, Grep's content), and parsing makes two
// equal strings of it. The transcript keeps both, so the structured copy is pointed at the text:
// the same values, about a fifth less memory for a typical session.

import type { ClientEvent } from "../../shared/events.js";

/** Below this the saving is not worth the comparisons. */
const MinSharedChars = 256;
const MaxDepth = 3;

/** Replaces strings inside a freshly parsed `structured` that equal the result text by the text itself. */
export function shareResultText(event: ClientEvent): ClientEvent {
  if (event.kind !== "tool_result" || event.text.length < MinSharedChars) return event;
  const structured = event.structured;
  if (structured !== null && typeof structured === "object") share(structured as Record<string, unknown> | unknown[], event.text, 0);
  return event;
}

function share(node: Record<string, unknown> | unknown[], text: string, depth: number): void {
  // The object was parsed from this line alone and nothing else holds it yet: writing is safe.
  const record = node as Record<string, unknown>;
  for (const key of Object.keys(node)) {
    const value = record[key];
    if (typeof value === "string") {
      if (value.length === text.length && value === text) record[key] = text;
    } else if (value !== null && typeof value === "object" && depth < MaxDepth) {
      share(value as Record<string, unknown>, text, depth + 1);
    }
  }
}

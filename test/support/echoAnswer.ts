// A scripted model that answers whatever it was last asked, whatever the turn: a fork's turn
// number is not the original's (the model server picks a turn by the conversation's length), so
// the fork tests answer by the words instead.
import type { ScriptTurn } from "./modelServer.js";
import { text } from "./scenarios/types.js";

/** The words of a request's last user message (the CLI's reminders left out). */
export function lastPrompt(body: Readonly<Record<string, unknown>>): string {
  const messages = body["messages"] as { role: string; content: string | { type: string; text?: string }[] }[];
  const last = messages.filter((m) => m.role === "user").at(-1);
  const parts = typeof last?.content === "string" ? [last.content] : (last?.content ?? []).filter((c) => c.type === "text").map((c) => c.text ?? "");
  return parts.filter((p) => !p.startsWith("<system-reminder>")).at(-1) ?? "";
}

/** A turn that answers "Answer to <the last prompt>." */
export const answerLastPrompt: ScriptTurn = { blocks: (request) => [text(`Answer to ${lastPrompt(request)}.`)] };

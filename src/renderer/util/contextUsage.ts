// How full the conductor's context window is, from its last model call's usage.

import type { Usage } from "../../shared/protocol/messages.js";

const DefaultWindow = 200_000;
const LongWindow = 1_000_000;

/** The context window of a model id; a `[1m]` suffix (e.g. `claude-opus-4-6[1m]`) means the 1M window. */
export function contextWindow(model: string | undefined): number {
  return model !== undefined && /\[1m\]\s*$/i.test(model) ? LongWindow : DefaultWindow;
}

/**
 * Percent of the context window used (input + cache read + cache creation tokens); undefined
 * when nothing is known yet (no usage, or a usage that counts no input at all, as restored sessions have).
 */
export function contextPercent(usage: Usage | undefined, model: string | undefined, window?: number): number | undefined {
  if (usage === undefined) return undefined;
  const used = count(usage.input_tokens) + count(usage.cache_read_input_tokens) + count(usage.cache_creation_input_tokens);
  if (used <= 0) return undefined;
  return (used / (window !== undefined && window > 0 ? window : contextWindow(model))) * 100;
}

/** The toolbar's text: "—" when unknown, "<1%" for a little, else the rounded percent. */
export function formatContext(usage: Usage | undefined, model: string | undefined, window?: number): string {
  const percent = contextPercent(usage, model, window);
  if (percent === undefined) return "—";
  return percent < 1 ? "<1%" : `${Math.round(percent)}%`;
}

function count(n: number | undefined): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0;
}

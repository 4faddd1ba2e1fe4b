// Small pieces of UI state kept across restarts in localStorage: expanded cards per session,
// prompt history (composer drafts: drafts.ts; the dock's layout: layout/savedLayout.ts). Storage errors
// (quota, disabled) lose only the convenience, never the session.

const ExpandedKey = "baton.expanded";

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or unavailable: the UI keeps working without persistence.
  }
}

type ExpandedBySession = Record<string, string[]>;

/** All expanded keys of every session (tool use ids are globally unique). */
export function loadExpanded(): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const keys of Object.values(read<ExpandedBySession>(ExpandedKey, {}))) {
    if (Array.isArray(keys)) for (const key of keys) out[key] = true;
  }
  return out;
}

/** How many sessions' expanded cards are kept: the ones changed last. */
export const MaxExpandedSessions = 200;

export function saveExpanded(sessionId: string, key: string, open: boolean): void {
  const all = read<ExpandedBySession>(ExpandedKey, {});
  const set = new Set(all[sessionId] ?? []);
  if (open) set.add(key);
  else set.delete(key);
  // Re-added last: the sessions are kept in the order they were last changed in.
  delete all[sessionId];
  if (set.size > 0) all[sessionId] = [...set];
  const sessions = Object.keys(all);
  for (const old of sessions.slice(0, Math.max(0, sessions.length - MaxExpandedSessions))) delete all[old];
  write(ExpandedKey, all);
}

export function loadPromptHistory(): string[] {
  const list = read<unknown>("baton.prompts", []);
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
}

export function pushPromptHistory(text: string): void {
  const list = loadPromptHistory().filter((x) => x !== text);
  list.push(text);
  write("baton.prompts", list.slice(-100));
}

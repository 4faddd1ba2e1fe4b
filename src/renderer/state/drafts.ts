// The prompt typed in each tab's composer and not sent yet, kept in localStorage so that a reload
// of the window (or a second window on the same Baton) brings it back. One entry per server tab:
// two tabs never share a draft, even two tabs of one session. A draft goes when it is sent, and
// with its tab: the server's tab list is the truth, so every list drops the drafts of tabs it no
// longer names. Tab ids ("tab-3") start again with each Baton, so an entry also names the session
// it was typed for, and a tab now showing another session does not inherit it.

/** What one draft may keep (characters): a paste of a whole log must not fill the origin's quota. */
export const MaxDraftChars = 100_000;

const Prefix = "baton.tabDraft.";
/** Before drafts were per tab: `baton.draft.<session id or tab id>` held the text as a JSON string. */
const LegacyPrefix = "baton.draft.";

interface StoredDraft {
  readonly text: string;
  readonly sessionId?: string;
}

/** The part of a server tab a draft is matched to. */
export interface DraftTab {
  readonly tabId: string;
  readonly sessionId?: string;
}

/** The storage a draft lives in (localStorage in the window; a Map-backed double in unit tests). */
export type DraftStorage = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

function keyOf(tabId: string): string {
  return `${Prefix}${tabId}`;
}

function parse(raw: string | null): StoredDraft | undefined {
  if (raw === null) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null) return undefined;
    const { text, sessionId } = value as Record<string, unknown>;
    if (typeof text !== "string" || (sessionId !== undefined && typeof sessionId !== "string")) return undefined;
    return { text, ...(sessionId !== undefined ? { sessionId } : {}) };
  } catch {
    return undefined;
  }
}

/** A draft (its words or its pictures) typed for one session is not another session's (a tab id reused by a later Baton). */
export function belongs(draft: { readonly sessionId?: string }, tab: DraftTab): boolean {
  return draft.sessionId === undefined || tab.sessionId === undefined || draft.sessionId === tab.sessionId;
}

function remove(storage: DraftStorage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // Storage unavailable: nothing was kept either.
  }
}

/** The tab's draft, or "" (none, another session's, or storage unavailable). */
export function loadDraft(storage: DraftStorage, tab: DraftTab): string {
  let draft: StoredDraft | undefined;
  try {
    draft = parse(storage.getItem(keyOf(tab.tabId)));
  } catch {
    return "";
  }
  return draft !== undefined && belongs(draft, tab) ? draft.text : "";
}

/**
 * Keeps the tab's draft ("" forgets it). Beyond MaxDraftChars only the beginning is kept; a full
 * storage keeps the previous copy: the text stays in the box either way.
 */
export function saveDraft(storage: DraftStorage, tab: DraftTab, text: string): void {
  if (text === "") {
    remove(storage, keyOf(tab.tabId));
    return;
  }
  const draft: StoredDraft = { text: text.slice(0, MaxDraftChars), ...(tab.sessionId !== undefined ? { sessionId: tab.sessionId } : {}) };
  try {
    storage.setItem(keyOf(tab.tabId), JSON.stringify(draft));
  } catch {
    // Quota or storage unavailable: the draft stays in the box, only a reload would lose it.
  }
}

function keys(storage: DraftStorage): string[] {
  const out: string[] = [];
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key !== null) out.push(key);
    }
  } catch {
    return [];
  }
  return out;
}

/**
 * Makes the kept drafts match the server's open tabs: a tab's draft goes with the tab, and one
 * typed for another session under a reused tab id goes too. A draft kept the earlier way (by
 * session id) moves to the open tab of that session; any other is dropped.
 */
export function pruneDrafts(storage: DraftStorage, open: readonly DraftTab[]): void {
  const byTab = new Map(open.map((t) => [t.tabId, t]));
  for (const key of keys(storage)) {
    if (key.startsWith(Prefix)) {
      const tab = byTab.get(key.slice(Prefix.length));
      let draft: StoredDraft | undefined;
      try {
        draft = parse(storage.getItem(key));
      } catch {
        continue;
      }
      if (tab === undefined || draft === undefined || !belongs(draft, tab)) remove(storage, key);
    } else if (key.startsWith(LegacyPrefix)) {
      const name = key.slice(LegacyPrefix.length);
      // Only a session id names one session for sure: a tab id may be an earlier Baton's.
      const tab = open.find((t) => t.sessionId === name);
      let text: unknown;
      try {
        text = JSON.parse(storage.getItem(key) ?? "null");
      } catch {
        text = undefined;
      }
      if (tab !== undefined && typeof text === "string" && loadDraft(storage, tab) === "") saveDraft(storage, tab, text);
      remove(storage, key);
    }
  }
}

// The pictures attached to a tab's unsent prompt, kept across a reload like its words (drafts.ts).
// They go to IndexedDB, not localStorage: a few screenshots as base64 are megabytes, more than
// localStorage holds for an origin. The same rules as the words: one entry per server tab, naming
// the session it was attached for (a tab id reused by a later Baton does not inherit it); gone
// when sent, when emptied, and with its tab (pruneDraftImages, on every tab list). Storage that
// fails (no IndexedDB, a full disk, a private window) keeps nothing and says nothing: the pictures
// stay in the box, only a reload would lose them, as before.
import type { PromptImage } from "../../shared/api.js";
import { belongs, type DraftTab } from "./drafts.js";

const DatabaseName = "baton-drafts";
const Store = "images";

interface StoredImages {
  readonly tabId: string;
  readonly sessionId?: string;
  readonly images: readonly PromptImage[];
}

let opened: Promise<IDBDatabase | undefined> | undefined;

function database(): Promise<IDBDatabase | undefined> {
  opened ??= new Promise((resolve) => {
    try {
      const request = indexedDB.open(DatabaseName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(Store, { keyPath: "tabId" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(undefined);
      request.onblocked = () => resolve(undefined);
    } catch {
      resolve(undefined);
    }
  });
  return opened;
}

/** One request on the store, its result, or undefined when anything failed. */
async function withStore<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T | undefined> {
  const db = await database();
  if (db === undefined) return undefined;
  return new Promise((resolve) => {
    try {
      const request = act(db.transaction(Store, mode).objectStore(Store));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(undefined);
    } catch {
      resolve(undefined);
    }
  });
}

/** Only what a prompt's picture is: a known media type and base64 text (what the API accepts). */
function isImage(value: unknown): value is PromptImage {
  if (typeof value !== "object" || value === null) return false;
  const { mediaType, data } = value as Record<string, unknown>;
  return typeof mediaType === "string" && /^image\/(png|jpeg|gif|webp)$/.test(mediaType) && typeof data === "string" && data !== "";
}

/** The pictures kept for the tab ([] for none, another session's, or storage unavailable). */
export async function loadDraftImages(tab: DraftTab): Promise<PromptImage[]> {
  const stored = (await withStore("readonly", (s) => s.get(tab.tabId))) as StoredImages | undefined;
  if (stored === undefined || !Array.isArray(stored.images) || !belongs(stored, tab)) return [];
  return stored.images.filter(isImage);
}

/** Keeps the tab's pictures ([] forgets them). */
export async function saveDraftImages(tab: DraftTab, images: readonly PromptImage[]): Promise<void> {
  if (images.length === 0) {
    await withStore("readwrite", (s) => s.delete(tab.tabId));
    return;
  }
  const stored: StoredImages = { tabId: tab.tabId, ...(tab.sessionId !== undefined ? { sessionId: tab.sessionId } : {}), images: images.map(({ mediaType, data }) => ({ mediaType, data })) };
  await withStore("readwrite", (s) => s.put(stored));
}

/**
 * Makes the kept pictures match the server's open tabs (as pruneDrafts does the words): one pass
 * over the entries in one transaction, each entry read only to see whose it is.
 */
export async function pruneDraftImages(open: readonly DraftTab[]): Promise<void> {
  const byTab = new Map(open.map((t) => [t.tabId, t]));
  const db = await database();
  if (db === undefined) return;
  await new Promise<void>((resolve) => {
    try {
      const cursor = db.transaction(Store, "readwrite").objectStore(Store).openCursor();
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (at === null) return resolve();
        const stored = at.value as StoredImages;
        const tab = byTab.get(stored.tabId);
        if (tab === undefined || !belongs(stored, tab)) at.delete();
        at.continue();
      };
      cursor.onerror = () => resolve();
    } catch {
      resolve();
    }
  });
}

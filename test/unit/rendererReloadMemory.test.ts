// What a reload of the window brings back that the server does not keep (issue 36): each tab's
// draft (its own, bounded, gone once sent or once its tab closes, not inherited by a later Baton's
// tab of the same id), the tab in front with each tab's selection and the preview tab, where
// each session's tab was in the dock, where each conversation was read, and the expanded cards.
import { beforeEach, describe, expect, it } from "vitest";
import type { SerializedDockview } from "dockview";
import type { TabInfo } from "../../src/shared/api.js";
import { parseSaved, toSaved } from "../../src/renderer/layout/savedLayout.js";
import { parseSpots } from "../../src/renderer/state/scrollMemory.js";
import { loadExpanded, MaxExpandedSessions, saveExpanded } from "../../src/renderer/state/persist.js";
import { loadDraft, MaxDraftChars, pruneDrafts, saveDraft, type DraftStorage } from "../../src/renderer/state/drafts.js";
import { applyFirstList, memoryKey, parseRemembered, readRemembered, startWindowMemory } from "../../src/renderer/state/windowMemory.js";
import { usePreview } from "../../src/renderer/layout/previewTab.js";
import { select, setActiveTab, setTabs, useApp } from "../../src/renderer/state/appState.js";

/** localStorage's behaviour over a Map; `quota` makes setItem fail past that many characters. */
class MemoryStorage implements DraftStorage {
  readonly items = new Map<string, string>();
  constructor(private readonly quota = Infinity) {}
  get length(): number {
    return this.items.size;
  }
  key(i: number): string | null {
    return [...this.items.keys()][i] ?? null;
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    const used = [...this.items].reduce((n, [k, v]) => n + (k === key ? 0 : k.length + v.length), 0);
    if (used + key.length + value.length > this.quota) throw new DOMException("full", "QuotaExceededError");
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

describe("drafts", () => {
  it("are per tab: two tabs of one session each keep their own", () => {
    const storage = new MemoryStorage();
    saveDraft(storage, { tabId: "tab-1", sessionId: "s1" }, "for the first tab");
    saveDraft(storage, { tabId: "tab-2", sessionId: "s1" }, "for the second tab");
    expect(loadDraft(storage, { tabId: "tab-1", sessionId: "s1" })).toBe("for the first tab");
    expect(loadDraft(storage, { tabId: "tab-2", sessionId: "s1" })).toBe("for the second tab");
    expect(loadDraft(storage, { tabId: "tab-3" })).toBe("");
  });

  it("keep a draft typed before the CLI named the session, and forget one that was sent (empty)", () => {
    const storage = new MemoryStorage();
    saveDraft(storage, { tabId: "tab-1" }, "typed early");
    expect(loadDraft(storage, { tabId: "tab-1", sessionId: "s1" })).toBe("typed early");
    saveDraft(storage, { tabId: "tab-1", sessionId: "s1" }, "");
    expect(loadDraft(storage, { tabId: "tab-1", sessionId: "s1" })).toBe("");
    expect(storage.length).toBe(0);
  });

  it("go with their tab, and a later Baton's tab of the same id does not inherit another session's", () => {
    const storage = new MemoryStorage();
    saveDraft(storage, { tabId: "tab-1", sessionId: "s1" }, "one");
    saveDraft(storage, { tabId: "tab-2", sessionId: "s2" }, "two");
    saveDraft(storage, { tabId: "tab-3", sessionId: "s3" }, "three");
    expect(loadDraft(storage, { tabId: "tab-3", sessionId: "s9" })).toBe("");
    pruneDrafts(storage, [{ tabId: "tab-1", sessionId: "s1" }, { tabId: "tab-3", sessionId: "s9" }]);
    expect(loadDraft(storage, { tabId: "tab-1", sessionId: "s1" })).toBe("one");
    expect([...storage.items.keys()]).toEqual(["baton.tabDraft.tab-1"]);
    pruneDrafts(storage, []);
    expect(storage.length).toBe(0);
  });

  it("move from the earlier per-session key to the open tab of that session; other keys go, other settings stay", () => {
    const storage = new MemoryStorage();
    storage.setItem("baton.draft.s1", JSON.stringify("kept the old way"));
    storage.setItem("baton.draft.tab-4", JSON.stringify("a tab of an earlier Baton"));
    storage.setItem("baton.draft.s2", "not JSON");
    storage.setItem("baton.prompts", JSON.stringify(["an earlier prompt"]));
    const tabs: TabInfo[] = [{ tabId: "tab-4", sessionId: "s1", title: "x", live: true }];
    pruneDrafts(storage, tabs);
    expect(loadDraft(storage, tabs[0]!)).toBe("kept the old way");
    expect([...storage.items.keys()].sort()).toEqual(["baton.prompts", "baton.tabDraft.tab-4"]);
  });

  it("are bounded, and a full storage or a damaged entry loses no more than that entry", () => {
    const storage = new MemoryStorage(MaxDraftChars + 500);
    saveDraft(storage, { tabId: "tab-1" }, "x".repeat(MaxDraftChars * 2));
    expect(loadDraft(storage, { tabId: "tab-1" })).toHaveLength(MaxDraftChars);
    // No room for a second one: the first stays as it was, and nothing throws.
    saveDraft(storage, { tabId: "tab-2" }, "y".repeat(1000));
    expect(loadDraft(storage, { tabId: "tab-2" })).toBe("");
    expect(loadDraft(storage, { tabId: "tab-1" })).toHaveLength(MaxDraftChars);
    storage.items.set("baton.tabDraft.tab-1", "{not json");
    storage.items.set("baton.tabDraft.tab-2", JSON.stringify({ text: 42 }));
    expect(loadDraft(storage, { tabId: "tab-1" })).toBe("");
    pruneDrafts(storage, [{ tabId: "tab-1" }, { tabId: "tab-2" }]);
    expect(storage.length).toBe(0);
  });

  it("survive a storage that throws on every call", () => {
    const broken: DraftStorage = {
      get length(): number {
        throw new Error("denied");
      },
      key: () => {
        throw new Error("denied");
      },
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
      removeItem: () => {
        throw new Error("denied");
      },
    };
    expect(() => saveDraft(broken, { tabId: "tab-1" }, "text")).not.toThrow();
    expect(() => saveDraft(broken, { tabId: "tab-1" }, "")).not.toThrow();
    expect(loadDraft(broken, { tabId: "tab-1" })).toBe("");
    expect(() => pruneDrafts(broken, [])).not.toThrow();
  });
});

const tab = (tabId: string): TabInfo => ({ tabId, title: tabId, live: true });

describe("the tab in front and selections across a reload", () => {
  beforeEach(() => {
    useApp.setState({ tabs: {}, tabOrder: [], activeTabId: undefined, selection: undefined, selectedByTab: {} });
    usePreview.setState({ tabId: undefined });
  });

  it("the first list brings back the preview tab, unless that session is live now", () => {
    applyFirstList([tab("tab-1"), { tabId: "tab-2", title: "past", live: false, kind: "restored" }], { front: "tab-1", selected: {}, preview: "tab-2" });
    expect(usePreview.getState().tabId).toBe("tab-2");
    expect(useApp.getState().activeTabId).toBe("tab-1");
    usePreview.setState({ tabId: undefined });
    useApp.setState({ tabs: {}, tabOrder: [] });
    applyFirstList([tab("tab-1")], { selected: {}, preview: "tab-1" });
    expect(usePreview.getState().tabId).toBeUndefined();
  });

  it("the first list brings back the tab that was in front and each open tab's selection", () => {
    setTabs([tab("tab-1"), tab("tab-2"), tab("tab-3")], { front: "tab-2", selected: { "tab-2": "block-b", "tab-3": "block-c", "tab-9": "gone" } });
    const s = useApp.getState();
    expect(s.tabOrder).toEqual(["tab-1", "tab-2", "tab-3"]);
    expect(s.activeTabId).toBe("tab-2");
    expect(s.selection).toEqual({ tabId: "tab-2", blockId: "block-b" });
    expect(s.selectedByTab).toEqual({ "tab-2": "block-b", "tab-3": "block-c" });
  });

  it("a remembered tab that is no longer open leaves the last tab in front", () => {
    setTabs([tab("tab-1"), tab("tab-2")], { front: "tab-7", selected: {} });
    expect(useApp.getState().activeTabId).toBe("tab-2");
  });

  it("is kept as it changes once the tabs are known, and read back", () => {
    const storage = new MemoryStorage();
    useApp.setState({ tabOrder: useApp.getInitialState().tabOrder });
    const stop = startWindowMemory(storage, "main");
    try {
      // Before the server's list nothing is written (the empty window would forget the last one).
      useApp.setState({ activeTabId: undefined, selectedByTab: {} });
      expect(storage.length).toBe(0);
      setTabs([tab("tab-1"), tab("tab-2")]);
      setActiveTab("tab-1");
      select("tab-1", "block-a", false);
      expect(readRemembered(storage, "main")).toEqual({ front: "tab-1", selected: { "tab-1": "block-a" } });
      usePreview.setState({ tabId: "tab-2" });
      expect(readRemembered(storage, "main")).toEqual({ front: "tab-1", selected: { "tab-1": "block-a" }, preview: "tab-2" });
    } finally {
      stop();
    }
  });

  it("reads only ids from storage, whatever else is there", () => {
    expect(parseRemembered(null)).toEqual({ selected: {} });
    expect(parseRemembered("{oops")).toEqual({ selected: {} });
    expect(parseRemembered(JSON.stringify({ front: "<img src=x>", selected: { "tab-1": "ok_1", "tab-2": 5, "tab 3": "x" } }))).toEqual({ selected: { "tab-1": "ok_1" } });
    expect(memoryKey("second")).toBe("baton.tabsInWindow.second");
  });
});

describe("where the sessions' tabs were in the dock", () => {
  const leaf = (id: string, views: string[], activeView?: string) => ({ type: "leaf" as const, data: { id, views, ...(activeView !== undefined ? { activeView } : {}) }, size: 200 });
  const dock = (): SerializedDockview =>
    ({
      grid: {
        root: { type: "branch", data: [leaf("left", ["hierarchy"]), leaf("centre", ["session:tab-2", "session:tab-1"], "session:tab-1"), leaf("split", ["session:tab-3"], "session:tab-3"), leaf("right", ["inspector", "session:tab-4"], "inspector")], size: 1000 },
        width: 1400,
        height: 1000,
        orientation: "HORIZONTAL",
      },
      panels: Object.fromEntries(["hierarchy", "inspector", "session:tab-1", "session:tab-2", "session:tab-3", "session:tab-4"].map((id) => [id, { id, contentComponent: id, title: id }])),
    }) as SerializedDockview;

  it("are kept beside the layout: group, place among the group's tabs, and the one in front", () => {
    const saved = toSaved(dock(), "centre");
    expect(saved.sessions).toEqual([
      { tabId: "tab-2", group: "centre", index: 0 },
      { tabId: "tab-1", group: "centre", index: 1, front: true },
      { tabId: "tab-3", group: "split", index: 0, front: true },
      { tabId: "tab-4", group: "right", index: 1 },
    ]);
    const loaded = parseSaved(JSON.stringify(saved));
    expect(loaded.ok && loaded.layout?.sessions).toEqual(saved.sessions);
  });

  it("a load keeps only places in the layout's groups, each tab once, and never refuses a layout for them", () => {
    const saved = toSaved(dock(), "centre");
    const odd = [{ tabId: "tab-1", group: "centre", index: 0 }, { tabId: "tab-1", group: "split", index: 0 }, { tabId: "tab-5", group: "gone", index: 0 }, { tabId: "<b>", group: "centre", index: 1 }, { tabId: "tab-6", group: "centre", index: -1 }, "x", null];
    const loaded = parseSaved(JSON.stringify({ ...saved, sessions: odd }));
    expect(loaded.ok).toBe(true);
    expect(loaded.ok && loaded.layout?.sessions).toEqual([{ tabId: "tab-1", group: "centre", index: 0 }]);
    const none = parseSaved(JSON.stringify({ ...saved, sessions: "nope" }));
    expect(none.ok && none.layout?.sessions).toBeUndefined();
  });
});

describe("where each conversation was read", () => {
  it("reads only a tab id with a row id and a distance from storage", () => {
    expect(parseSpots(null)).toEqual({});
    expect(parseSpots("[1,2")).toEqual({});
    expect(parseSpots(JSON.stringify({ "tab-1": { row: "group:toolu_1", offset: 12.4 }, "tab-2": { row: "x y", offset: 1 }, "tab-3": { row: "b", offset: -5 }, "<i>": { row: "b", offset: 1 }, "tab-4": "b" }))).toEqual({
      "tab-1": { row: "group:toolu_1", offset: 12 },
    });
  });
});

describe("expanded cards", () => {
  it("keep a card expanded and one collapsed again collapsed, for the sessions changed last only", () => {
    const storage = new MemoryStorage();
    const global = globalThis as { localStorage?: unknown };
    const before = global.localStorage;
    global.localStorage = storage;
    try {
      saveExpanded("s1", "toolu_open", true);
      saveExpanded("s1", "toolu_closed", true);
      saveExpanded("s1", "toolu_closed", false);
      expect(loadExpanded()).toEqual({ toolu_open: true });
      for (let i = 0; i < MaxExpandedSessions; i++) saveExpanded(`other-${i}`, `toolu_${i}`, true);
      const kept = loadExpanded();
      expect(kept["toolu_open"]).toBeUndefined();
      expect(Object.keys(kept)).toHaveLength(MaxExpandedSessions);
      // A session whose last card closed keeps no entry.
      saveExpanded("other-0", "toolu_0", false);
      expect(Object.keys(JSON.parse(storage.getItem("baton.expanded")!) as object)).not.toContain("other-0");
    } finally {
      global.localStorage = before;
    }
  });
});

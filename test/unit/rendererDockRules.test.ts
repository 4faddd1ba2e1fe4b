// The dock's small rules: the preview tab (VS Code's), what acting in a session is, which tabs
// "Close others" and "Close to the right" close, which docks a narrow window hides, which toolbar
// items move into "…".
import { describe, expect, it } from "vitest";
import { sideOf } from "../../src/renderer/layout/narrowDock.js";
import { overflowing } from "../../src/renderer/layout/OverflowToolbar.js";
import { actsInPreview, previewAfterOpen } from "../../src/renderer/layout/previewTab.js";
import { othersOf } from "../../src/renderer/layout/tabMenu.js";

const restored = (tabId: string) => ({ tabId, live: false, kind: "restored" as const });

describe("the preview tab", () => {
  it("is the past session opened last, replacing the one before", () => {
    expect(previewAfterOpen(undefined, restored("tab-1"), false)).toEqual({ preview: "tab-1", replaces: undefined });
    expect(previewAfterOpen("tab-1", restored("tab-2"), false)).toEqual({ preview: "tab-2", replaces: "tab-1" });
  });

  it("leaves a session that already had a tab where it was: kept stays kept, the preview stays the preview", () => {
    expect(previewAfterOpen("tab-2", restored("tab-1"), true)).toEqual({ preview: "tab-2", replaces: undefined });
    expect(previewAfterOpen("tab-2", restored("tab-2"), true)).toEqual({ preview: "tab-2", replaces: undefined });
    expect(previewAfterOpen(undefined, restored("tab-1"), true)).toEqual({ preview: undefined, replaces: undefined });
  });

  it("is never a live session", () => {
    expect(previewAfterOpen("tab-1", { tabId: "tab-2", live: true, kind: "live" }, false)).toEqual({ preview: "tab-1", replaces: undefined });
    expect(previewAfterOpen("tab-1", { tabId: "tab-1", live: false, kind: "live" }, true)).toEqual({ preview: undefined, replaces: undefined });
  });
});

/** An element whose closest() finds what `matches` says it is inside. */
const inside = (...matches: string[]) => ({ closest: (selector: string) => (matches.some((m) => selector.split(",").map((s) => s.trim()).includes(m)) ? {} : null) });

describe("acting in the preview tab", () => {
  it("is a click on something that does something, in its own panel", () => {
    expect(actsInPreview("tab-1", "session:tab-1", "tab-1", inside("button"))).toBe(true);
    expect(actsInPreview("tab-1", "session:tab-1", "tab-1", inside("summary"))).toBe(true);
    // Clicking empty space or scrolling is only looking.
    expect(actsInPreview("tab-1", "session:tab-1", "tab-1", inside())).toBe(false);
    expect(actsInPreview("tab-1", "session:tab-2", "tab-2", inside("button"))).toBe(false);
  });

  it("is a click in the Hierarchy, Inspector, Graph or Changes while it is in front, not in the Project list", () => {
    expect(actsInPreview("tab-1", "hierarchy", "tab-1", inside("[role=treeitem]"))).toBe(true);
    expect(actsInPreview("tab-1", "inspector", "tab-1", inside("button"))).toBe(true);
    expect(actsInPreview("tab-1", "hierarchy", "tab-2", inside("[role=treeitem]"))).toBe(false);
    expect(actsInPreview("tab-1", "project", "tab-1", inside("button"))).toBe(false);
  });

  it("is typing in a field, or Enter or Space on a control", () => {
    expect(actsInPreview("tab-1", "session:tab-1", "tab-1", inside("textarea"), "a")).toBe(true);
    expect(actsInPreview("tab-1", "session:tab-1", "tab-1", inside("textarea"), "input")).toBe(true);
    expect(actsInPreview("tab-1", "session:tab-1", "tab-1", inside("button"), "Enter")).toBe(true);
    expect(actsInPreview("tab-1", "session:tab-1", "tab-1", inside("button"), "ArrowDown")).toBe(false);
    expect(actsInPreview("tab-1", "session:tab-1", "tab-1", inside(), "PageDown")).toBe(false);
  });
});

describe("closing session tabs", () => {
  it("closes the others, or those after it", () => {
    expect(othersOf(["a", "b", "c", "d"], "b")).toEqual({ others: ["a", "c", "d"], right: ["c", "d"] });
    expect(othersOf(["a", "b"], "b")).toEqual({ others: ["a"], right: [] });
    expect(othersOf(["a"], "x")).toEqual({ others: ["a"], right: [] });
  });
});

describe("a narrow window", () => {
  it("hides docks wholly beside the sessions' group, never one above or below it", () => {
    const centre = { left: 300, right: 900 };
    expect(sideOf({ left: 0, right: 300 }, centre)).toBe("left");
    expect(sideOf({ left: 900, right: 1200 }, centre)).toBe("right");
    expect(sideOf({ left: 300, right: 900 }, centre)).toBeUndefined();
    expect(sideOf({ left: 0, right: 600 }, centre)).toBeUndefined();
  });
});

describe("the toolbar's overflow", () => {
  const items = [
    { key: "brand", width: 50, pinned: true },
    { key: "view", width: 40, pinned: true },
    { key: "new", width: 100 },
    { key: "model", width: 200 },
    { key: "spacer", width: 0, spacer: true },
    { key: "status", width: 80 },
    { key: "ctx", width: 60 },
  ];

  it("keeps everything when it fits", () => {
    expect(overflowing(items, 600, 8)).toEqual(new Set());
  });

  it("moves items from the end, leaving room for the … button", () => {
    // 50+40+100+200+80+60 + 5 gaps of 8 = 570: at 560 the last goes (470 + 4 gaps + 36 = 538 fits).
    expect(overflowing(items, 560, 8)).toEqual(new Set(["ctx"]));
    expect(overflowing(items, 450, 8)).toEqual(new Set(["ctx", "status"]));
  });

  it("never moves a pinned item", () => {
    expect(overflowing(items, 10, 8)).toEqual(new Set(["ctx", "status", "model", "new"]));
  });
});

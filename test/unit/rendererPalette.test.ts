// The command palette's filter and ranking, and what it offers from the registry and the app state.
import { describe, expect, it } from "vitest";
import type { SessionSummary, TabInfo } from "../../src/shared/api.js";
import { emptyTab } from "../../src/renderer/state/appState.js";
import { registerCommands } from "../../src/renderer/palette/commands.js";
import { allCommands } from "../../src/renderer/palette/commands.js";
import { itemText, paletteItems } from "../../src/renderer/palette/paletteItems.js";
import { matchText, rankItems } from "../../src/renderer/palette/rank.js";

const titles = (query: string, texts: readonly string[]) => rankItems(query, texts, (t) => t, 10).map((r) => r.item);

describe("the palette's filter", () => {
  it("an empty query keeps every item in the given order", () => {
    expect(titles("", ["b", "a", "c"])).toEqual(["b", "a", "c"]);
    expect(titles("   ", ["b", "a"])).toEqual(["b", "a"]);
  });

  it("ranks a word start above a run inside a word above letters scattered in order, and drops what lacks a letter", () => {
    const texts = ["Reset layout", "Show Graph", "Show Hierarchy", "Interrupt the session", "Use the light theme"];
    expect(titles("hier", texts)).toEqual(["Show Hierarchy"]);
    expect(titles("ra", texts)).toEqual(["Show Graph", "Show Hierarchy", "Reset layout"]);
    expect(titles("sh", texts)).toEqual(["Show Graph", "Show Hierarchy", "Use the light theme"]);
    expect(titles("shhi", texts)).toEqual(["Show Hierarchy"]);
    expect(titles("zz", texts)).toEqual([]);
  });

  it("every word of the query must match, in any order; case does not matter", () => {
    const texts = ["Fix the login bug · ~/code/app", "Fix the build · ~/code/site", "Login page · ~/code/site"];
    expect(titles("login SITE", texts)).toEqual(["Login page · ~/code/site"]);
    expect(titles("site fix", texts)).toEqual(["Fix the build · ~/code/site"]);
  });

  it("marks the characters it matched, for the highlight", () => {
    expect(matchText("hier", "Show Hierarchy")?.marks).toEqual([5, 6, 7, 8]);
    expect(matchText("shhi", "Show Hierarchy")?.marks).toEqual([0, 1, 5, 6]);
    // A scattered letter prefers a word start when the rest still fits after it.
    expect(matchText("sg", "Show Graph")?.marks).toEqual([0, 5]);
    // Outside the Basic Multilingual Plane, both halves of a character are marked.
    expect(matchText("🙂x", "a🙂 b x")?.marks).toEqual([1, 2, 6]);
  });

  it("keeps at most the limit, best first", () => {
    const many = Array.from({ length: 100 }, (_, i) => `Session ${i}`);
    const ranked = rankItems("session", many, (t) => t, 50);
    expect(ranked).toHaveLength(50);
    expect(ranked[0]!.item).toBe("Session 0");
  });
});

describe("what the palette offers", () => {
  const tab = (tabId: string, title: string, sessionId: string): TabInfo => ({ tabId, title, sessionId, live: false }) as TabInfo;
  const session = (sessionId: string, title: string, cwd: string, lastTimestamp: string): SessionSummary => ({ sessionId, projectDir: "-home-user-code-x", path: `/home/user/.claude/projects/x/${sessionId}.jsonl`, title, cwd, lastTimestamp, sizeBytes: 10 });

  it("lists commands that can run now with their keys, then open tabs, then past sessions not open in a tab", () => {
    const undo = registerCommands([
      { id: "t.show", title: "Show Thing", group: "Panels", keys: "Mod+7", run: () => {} },
      { id: "t.never", title: "Never now", group: "Window", enabled: () => false, run: () => {} },
    ]);
    try {
      const items = paletteItems(
        allCommands(),
        {
          tabOrder: ["t1"],
          tabs: { t1: emptyTab(tab("t1", "/review", "s1")) },
          sessions: [session("s1", "Already open", "/home/user/code/x", "2026-01-02T10:00:00Z"), session("s2", "Fix the login bug", "/home/user/code/x", "2026-01-03T10:00:00Z")],
        },
        false,
      );
      const shown = items.map((i) => [i.kind, i.title, i.detail, i.keys]);
      expect(shown).toContainEqual(["Panels", "Show Thing", undefined, "Ctrl+7"]);
      expect(shown.some(([, title]) => title === "Never now")).toBe(false);
      expect(shown.filter(([kind]) => kind === "Tab")).toEqual([["Tab", "/review", undefined, undefined]]);
      expect(shown.filter(([kind]) => kind === "Session")).toEqual([["Session", "Fix the login bug", "/home/user/code/x · 2026-01-03", undefined]]);
      expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
      const session2 = items.find((i) => i.kind === "Session")!;
      expect(itemText(session2)).toBe("Fix the login bug /home/user/code/x · 2026-01-03");
    } finally {
      undo();
    }
  });
});

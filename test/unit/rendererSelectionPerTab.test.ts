// Each tab keeps its own selection (issue 34): the Inspector shows the selection of the tab in
// front (appState's `selection`) or nothing; switching tabs brings a tab's selection back, and a
// closed tab's selection goes with it. A search result line says where its hit is, and a card's
// step list draws back to a find's hit among older steps.
import { beforeEach, describe, expect, it } from "vitest";
import type { SearchHit, TabInfo } from "../../src/shared/api.js";
import { select, setActiveTab, setTabs, useApp } from "../../src/renderer/state/appState.js";
import { hitDate, hitProject, hitWhere } from "../../src/renderer/panels/hitWhere.js";
import { stepsToShow, stepWindow, StepPage } from "../../src/renderer/util/stepWindow.js";

const tab = (tabId: string): TabInfo => ({ tabId, title: tabId, live: false });
const selected = () => useApp.getState().selection;
const selectedIn = (tabId: string) => useApp.getState().selectedByTab[tabId];

beforeEach(() => {
  useApp.setState({ tabs: {}, tabOrder: [], activeTabId: undefined, selection: undefined, selectedByTab: {} });
});

describe("selection per tab", () => {
  it("follows the tab in front, each tab keeping its own", () => {
    setTabs([tab("a")]);
    select("a", "agent-a", false);
    expect(selected()).toEqual({ tabId: "a", blockId: "agent-a" });
    setTabs([tab("a"), tab("b")]); // a new tab comes to the front, with nothing selected
    expect(useApp.getState().activeTabId).toBe("b");
    expect(selected()).toBeUndefined();
    select("b", "agent-b", false);
    expect(selected()).toEqual({ tabId: "b", blockId: "agent-b" });
    setActiveTab("a");
    expect(selected()).toEqual({ tabId: "a", blockId: "agent-a" });
    setActiveTab("b");
    expect(selected()).toEqual({ tabId: "b", blockId: "agent-b" });
  });

  it("a selection made in a tab behind stays there until that tab comes to the front", () => {
    setTabs([tab("a"), tab("b")]);
    setActiveTab("a");
    select("b", "agent-b", false);
    expect(selected()).toBeUndefined();
    expect(selectedIn("b")).toBe("agent-b");
    setActiveTab("b");
    expect(selected()).toEqual({ tabId: "b", blockId: "agent-b" });
  });

  it("closing the tab in front shows the next tab's selection; closing the last shows nothing", () => {
    setTabs([tab("a"), tab("b")]);
    setActiveTab("a");
    select("a", "agent-a", false);
    setActiveTab("b");
    select("b", "agent-b", false);
    setTabs([tab("a")]);
    expect(useApp.getState().activeTabId).toBe("a");
    expect(selected()).toEqual({ tabId: "a", blockId: "agent-a" });
    expect(selectedIn("b")).toBeUndefined();
    setTabs([]);
    expect(selected()).toBeUndefined();
    expect(useApp.getState().selectedByTab).toEqual({});
  });
});

describe("a search result line", () => {
  const hit = (extra: Partial<SearchHit>): SearchHit => ({ sessionId: "s", sessionTitle: "T", kind: "text", snippet: "", ...extra });

  it("says where the hit is: the part of the session and the agent it is in", () => {
    expect(hitWhere(hit({ kind: "prompt" }))).toBe("prompt");
    expect(hitWhere(hit({ kind: "text" }))).toBe("answer");
    expect(hitWhere(hit({ kind: "thinking" }))).toBe("thinking");
    expect(hitWhere(hit({ kind: "tool_output", tool: "Bash", agentId: "a1", subagentDescription: "Middle agent" }))).toBe("Bash output · in agent “Middle agent”");
    expect(hitWhere(hit({ kind: "tool_input", tool: "Read" }))).toBe("Read input");
    expect(hitWhere(hit({ kind: "tool_input", tool: "Agent", toolDescription: "Fix the tests" }))).toBe("agent call “Fix the tests”");
    expect(hitWhere(hit({ kind: "tool_output", tool: "Task", toolDescription: "Fix the tests" }))).toBe("report of agent “Fix the tests”");
    expect(hitWhere(hit({ kind: "tool_output" }))).toBe("tool output");
    expect(hitWhere(hit({ kind: "prompt", agentId: "a1", subagentType: "general-purpose" }))).toBe("agent's prompt · in agent “general-purpose”");
    expect(hitWhere(hit({ kind: "title" }))).toBe("session title");
  });

  it("names the project by its working folder's last part, else its folder, and the date to the minute", () => {
    expect(hitProject(hit({ cwd: "/home/user/code/deep-nesting/", project: "-home-user-code-deep-nesting" }))).toBe("deep-nesting");
    expect(hitProject(hit({ cwd: "C:\\code\\app" }))).toBe("app");
    expect(hitProject(hit({ project: "-home-user-code-x" }))).toBe("-home-user-code-x");
    expect(hitDate(hit({ timestamp: "2026-12-01T21:51:50.119Z" }))).toBe("2026-12-01 21:51");
    expect(hitDate(hit({ timestamp: "yesterday" }))).toBeUndefined();
  });
});

describe("a card's steps and a find's hit", () => {
  it("draws back to the oldest of the ids that must show; the newest page otherwise", () => {
    const ids = Array.from({ length: 500 }, (_, i) => `s${i}`);
    expect(stepsToShow(ids, undefined)).toBe(0);
    expect(stepsToShow(ids, ["elsewhere"])).toBe(0);
    const shown = stepsToShow(ids, ["s10", "s40"]);
    expect(stepWindow(ids, Math.max(StepPage, shown)).visible[0]).toBe("s10");
    expect(stepWindow(ids, Math.max(StepPage, stepsToShow(ids, ["s450"]))).visible).toHaveLength(StepPage);
  });
});

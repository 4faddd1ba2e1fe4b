// The "Needs you" queue (issue 35): what waits across tabs, oldest first, with the session, the
// agent that asked and one line saying what it asks.
import { describe, expect, it } from "vitest";
import type { PendingPermission, TabInfo } from "../../src/shared/api.js";
import { applyDelta, emptyTranscriptState } from "../../src/shared/delta/index.js";
import type { Escalation } from "../../src/shared/escalation.js";
import type { Block } from "../../src/shared/transcript.js";
import { emptyTab, type TabState } from "../../src/renderer/state/appState.js";
import { nextItem, oneLine, SummaryMax, waitingItems } from "../../src/renderer/state/needsYou.js";
import { agentBlock } from "../support/blocks.js";

function tab(tabId: string, title: string, blocks: readonly Block[], pending: readonly PendingPermission[]): TabState {
  const info: TabInfo = { tabId, title, live: true };
  const transcript = applyDelta(emptyTranscriptState(), { tabId, upserts: blocks, children: { "": blocks.map((b) => b.id) }, pending });
  return { ...emptyTab(info), transcript };
}

function bash(requestId: string, command: string, askedAt: string | undefined, agentId?: string): PendingPermission {
  return {
    requestId,
    toolName: "Bash",
    toolUseId: `tu_${requestId}`,
    input: { command },
    ...(agentId !== undefined ? { agentId } : {}),
    ...(askedAt !== undefined ? { askedAt } : {}),
  };
}

function question(id: string, openedAt: string, routedTo: Escalation["routedTo"], state: Escalation["state"] = "open"): Escalation {
  return { id, kind: "question", openedAt, question: "Which branch?\nmain or dev", state, routedTo, routeReason: "background agent" };
}

describe("waitingItems", () => {
  it("lists requests and escalations of every tab, oldest first, naming session and agent", () => {
    const explorer = agentBlock("card_A", { taskId: "agent_a", subagentType: "Explore", description: "scan the repo" });
    const planner = agentBlock("card_B", {
      taskId: "agent_b",
      subagentType: "Plan",
      description: "plan it",
      escalations: [question("esc_1", "2026-01-01T10:00:02Z", "person"), question("esc_2", "2026-01-01T10:00:00Z", "conductor"), question("esc_3", "2026-01-01T09:00:00Z", "person", "answered")],
    });
    const tabs = {
      t1: tab("t1", "First", [explorer], [bash("r1", "touch b.txt", "2026-01-01T10:00:03Z", "agent_a")]),
      t2: tab("t2", "Second", [planner], [bash("r2", "touch a.txt", "2026-01-01T10:00:01Z")]),
    };
    const items = waitingItems({ tabOrder: ["t1", "t2"], tabs });
    expect(items.map((i) => [i.sessionTitle, i.agent, i.kind, i.summary])).toEqual([
      ["Second", "Main agent", "permission", "Bash touch a.txt"],
      ["Second", "Plan: plan it", "agent-question", "Question: Which branch?"],
      ["First", "Explore: scan the repo", "permission", "Bash touch b.txt"],
    ]);
    // A subagent's request is brought forward on its card; the main agent's on its call when drawn.
    expect(items[0]?.blockId).toBeUndefined();
    expect(items[1]?.blockId).toBe("card_B");
    expect(items[2]?.blockId).toBe("card_A");
  });

  it("keeps tab order for requests of unknown age, after the dated ones", () => {
    const tabs = {
      a: tab("a", "A", [], [bash("ra", "ls", undefined)]),
      b: tab("b", "B", [], [bash("rb", "pwd", undefined), bash("rc", "id", "2026-01-01T00:00:00Z")]),
    };
    expect(waitingItems({ tabOrder: ["b", "a"], tabs }).map((i) => i.request?.requestId)).toEqual(["rc", "rb", "ra"]);
  });

  it("says what a question, a plan review and an unknown subagent ask", () => {
    const ask: PendingPermission = { requestId: "q", toolName: "AskUserQuestion", toolUseId: "tq", input: { questions: [{ question: "Tabs or spaces?", options: [] }] } };
    const plan: PendingPermission = { requestId: "p", toolName: "ExitPlanMode", toolUseId: "tp", input: {}, planFromFile: "# Plan\n1. do it" };
    const stray = bash("s", "make", undefined, "agent_gone");
    const items = waitingItems({ tabOrder: ["t"], tabs: { t: tab("t", "", [], [ask, plan, stray]) } });
    expect(items.map((i) => [i.sessionTitle, i.agent, i.kind, i.summary])).toEqual([
      ["Session", "Main agent", "question", "Question: Tabs or spaces?"],
      ["Session", "Main agent", "plan", "Plan review: # Plan"],
      ["Session", "Subagent", "permission", "Bash make"],
    ]);
  });

  it("is empty when nothing waits on the person", () => {
    const card = agentBlock("c", { escalations: [question("e", "2026-01-01T00:00:00Z", "conductor")] });
    expect(waitingItems({ tabOrder: ["t"], tabs: { t: tab("t", "T", [card], []) } })).toEqual([]);
  });
});

describe("oneLine and nextItem", () => {
  it("keeps the first line, folded and cut", () => {
    expect(oneLine("  a\tb  c \nsecond")).toBe("a b c");
    const long = oneLine("x".repeat(500));
    expect(long).toHaveLength(SummaryMax);
    expect(long.endsWith("…")).toBe(true);
  });

  it("walks the queue from the oldest, wrapping, and starts over when the current one is gone", () => {
    const items = waitingItems({ tabOrder: ["t"], tabs: { t: tab("t", "T", [], [bash("1", "a", "2026-01-01T00:00:01Z"), bash("2", "b", "2026-01-01T00:00:02Z")]) } });
    expect(nextItem(items, undefined)?.request?.requestId).toBe("1");
    expect(nextItem(items, items[0]!.key)?.request?.requestId).toBe("2");
    expect(nextItem(items, items[1]!.key)?.request?.requestId).toBe("1");
    expect(nextItem(items, "gone")?.request?.requestId).toBe("1");
    expect(nextItem([], undefined)).toBeUndefined();
  });
});

// What a subagent card shows of the fields CLI 2.1.332 added, rendered to static HTML: the retry
// of a running agent, why a failed one died, the tools a finished one used, and the summary alone.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Block, SubagentRecord } from "../../src/shared/transcript.js";
import { retryText, SubagentCard } from "../../src/renderer/transcript/SubagentCard.js";

const record = (fields: Partial<SubagentRecord>): SubagentRecord => ({
  toolUseId: "toolu_A",
  taskId: "a1",
  subagentType: "general-purpose",
  description: "Helper",
  prompt: "do it",
  background: false,
  status: "running",
  blocks: [],
  droppedBlockCount: 0,
  ...fields,
});
const card = (r: SubagentRecord): string => {
  const block: Block = { kind: "tool", id: r.toolUseId, call: { toolUseId: r.toolUseId, name: "Agent", input: {}, status: r.status === "running" ? "running" : "completed", subagent: r } };
  return renderToStaticMarkup(createElement(SubagentCard, { tabId: "tab-1", block }));
};

describe("a subagent card's 2.1.332 fields", () => {
  it("a retrying agent says which attempt of how many, and why", () => {
    expect(retryText({ attempt: 2, maxRetries: 3, reason: "overloaded" })).toBe("retrying (2/3, overloaded)");
    expect(retryText({ attempt: 1, reason: "529" })).toBe("retrying (attempt 1, 529)");
    expect(card(record({ retry: { attempt: 2, maxRetries: 3, reason: "overloaded" } }))).toContain("retrying (2/3, overloaded)");
    expect(card(record({}))).not.toContain("retrying");
  });

  it("a failed agent says why it died", () => {
    const html = card(record({ status: "failed", error: "Agent terminated early due to an API error: API Error: 400" }));
    expect(html).toContain("Agent terminated early due to an API error: API Error: 400");
  });

  it("a finished agent lists the tools it used under its summary", () => {
    const html = card(record({ status: "completed", summaryMarkdown: "Both commands ran.", toolsUsed: ["Bash", "Read"] }));
    expect(html).toContain("Both commands ran.");
    expect(html).toMatch(/aria-label="Tools used"[^>]*>used Bash, Read</);
  });
});

// The renderer's app state: deltas batched per frame, per-block identity kept for untouched blocks (so
// a progress tick re-renders one card), expansion kept across updates, lazily loaded steps.
import { beforeEach, describe, expect, it } from "vitest";
import type { TranscriptDelta } from "../../src/shared/api.js";
import type { Block } from "../../src/shared/transcript.js";
import { insertNested, setExpanded, setTabs, useApp } from "../../src/renderer/state/appState.js";
import { enqueueDelta, flushDeltas } from "../../src/renderer/state/deltaQueue.js";
import { ancestorsOf } from "../../src/renderer/transcript/ancestors.js";
import { hasHome } from "../../src/renderer/transcript/OrphanPermissions.js";
import { agentBlock } from "../support/blocks.js";

const agent = (id: string, progressLine: string, taskId = "a1"): Block => agentBlock(id, { taskId, progressLine });
const text = (id: string): Block => ({ kind: "text", id, text: id });

beforeEach(() => {
  useApp.setState({ tabs: {}, tabOrder: [], activeTabId: undefined, expanded: {} });
  setTabs([{ tabId: "t1", title: "One", live: true }]);
});

function transcript() {
  return useApp.getState().tabs["t1"]!.transcript;
}

describe("the renderer's app state", () => {
  it("applies queued deltas in one flush and keeps untouched blocks identical", () => {
    const reset: TranscriptDelta = { tabId: "t1", reset: true, upserts: [text("x"), agent("s", "one")], children: { "": ["x", "s"] } };
    enqueueDelta(reset);
    expect(transcript().blocksById.size).toBe(0);
    flushDeltas();
    const before = transcript();
    enqueueDelta({ tabId: "t1", upserts: [agent("s", "two")], children: {} });
    enqueueDelta({ tabId: "t1", upserts: [agent("s", "three")], children: {} });
    flushDeltas();
    const after = transcript();
    expect(after.blocksById.get("x")).toBe(before.blocksById.get("x"));
    expect(after.blocksById.get("s")?.call?.subagent?.progressLine).toBe("three");
    expect(after.children.get("")).toBe(before.children.get(""));
  });

  it("keeps a card's expanded state across progress ticks and new nested blocks", () => {
    enqueueDelta({ tabId: "t1", reset: true, upserts: [agent("s", "one")], children: { "": ["s"] } });
    flushDeltas();
    setExpanded("s", true);
    enqueueDelta({ tabId: "t1", upserts: [agent("s", "two"), text("n1")], children: { s: ["n1"] } });
    flushDeltas();
    expect(useApp.getState().expanded["s"]).toBe(true);
    expect(transcript().children.get("s")).toEqual(["n1"]);
  });

  it("puts lazily loaded sidechain steps under their card, nested agents included", () => {
    enqueueDelta({ tabId: "t1", reset: true, upserts: [agent("s", "one")], children: { "": ["s"] } });
    flushDeltas();
    const inner = agent("inner", "x", "a2");
    const innerWithBlocks: Block = { ...inner, call: { ...inner.call!, subagent: { ...inner.call!.subagent!, blocks: [text("deep")] } } };
    insertNested("t1", "s", [text("n1"), innerWithBlocks]);
    expect(transcript().children.get("s")).toEqual(["n1", "inner"]);
    expect(transcript().children.get("inner")).toEqual(["deep"]);
    expect(ancestorsOf(transcript(), "deep")).toEqual(["s", "inner", "deep"]);
  });

  it("knows whether a waiting request has a card to show it on", () => {
    enqueueDelta({ tabId: "t1", reset: true, upserts: [agent("s", "one", "a1")], children: { "": ["s"] } });
    flushDeltas();
    const t = transcript();
    expect(hasHome(t, { requestId: "r", toolName: "Bash", toolUseId: "u", agentId: "a1", input: {} })).toBe(true);
    expect(hasHome(t, { requestId: "r", toolName: "Bash", toolUseId: "u", agentId: "zz", input: {} })).toBe(false);
    expect(hasHome(t, { requestId: "r", toolName: "Bash", toolUseId: "s", input: {} })).toBe(true);
  });
});

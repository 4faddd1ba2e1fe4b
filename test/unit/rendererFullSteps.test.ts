// A capped subagent card after "Show earlier steps": the loaded list plus every step the live
// window adds, each once, with steps the window dropped still drawable from kept copies.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Block } from "../../src/shared/transcript.js";
import { setTabs, useApp } from "../../src/renderer/state/appState.js";
import { enqueueDelta, flushDeltas } from "../../src/renderer/state/deltaQueue.js";
import { mergeStepIds, showAllSteps, startFullSteps, useFullSteps } from "../../src/renderer/state/fullSteps.js";
import { agentBlock } from "../support/blocks.js";

const step = (id: string, status: "running" | "completed" = "completed"): Block => ({
  kind: "tool",
  id,
  call: { toolUseId: id, name: "Bash", input: { command: `echo ${id}` }, status },
});
const card: Block = agentBlock("card", { taskId: "a1", droppedBlockCount: 2 });

/** The live window under the card: these steps (the hub's capped list). */
function window(...steps: Block[]): void {
  enqueueDelta({ tabId: "t1", upserts: steps, children: { card: steps.map((s) => s.id) } });
  flushDeltas();
}
const ids = () => useFullSteps.getState().tabs["t1"]?.cards["card"]?.ids;
const kept = (id: string) => useFullSteps.getState().tabs["t1"]?.blocks.get(id);

let stop: (() => void) | undefined;
beforeEach(() => {
  useApp.setState({ tabs: {}, tabOrder: [], activeTabId: undefined, expanded: {} });
  useFullSteps.setState({ tabs: {} });
  setTabs([{ tabId: "t1", title: "One", live: true }]);
  enqueueDelta({ tabId: "t1", reset: true, upserts: [card], children: { "": ["card"] } });
  flushDeltas();
  stop = startFullSteps();
});
afterEach(() => stop?.());

describe("mergeStepIds", () => {
  it("appends only ids it does not have, keeping the list when nothing is new", () => {
    const known = ["a", "b", "c"];
    expect(mergeStepIds(known, ["b", "c", "d"])).toEqual(["a", "b", "c", "d"]);
    expect(mergeStepIds(known, ["b", "c"])).toBe(known);
    expect(mergeStepIds([], ["x"])).toEqual(["x"]);
  });
});

describe("full step lists", () => {
  it("shows the loaded list, then adds live steps once each, keeping steps the window drops", () => {
    window(step("s3"), step("s4", "running"));
    showAllSteps("t1", "card", [step("s1"), step("s2"), step("s3"), step("s4", "running")]);
    expect(ids()).toEqual(["s1", "s2", "s3", "s4"]);

    // The window moves on: s3 and s4 leave it (the transcript state forgets them), s5 and s6 arrive.
    window(step("s4", "completed"), step("s5"));
    window(step("s5"), step("s6"));
    expect(useApp.getState().tabs["t1"]!.transcript.blocksById.has("s4")).toBe(false);
    expect(ids()).toEqual(["s1", "s2", "s3", "s4", "s5", "s6"]);
    // The copy of a dropped step is its last live version.
    expect(kept("s4")?.call?.status).toBe("completed");
    expect(kept("s1")?.call?.input["command"]).toBe("echo s1");
  });

  it("takes steps the file did not have yet from the live window", () => {
    window(step("s2"), step("s3"));
    showAllSteps("t1", "card", [step("s1"), step("s2")]);
    expect(ids()).toEqual(["s1", "s2", "s3"]);
  });

  it("forgets a tab's steps when the tab closes", () => {
    window(step("s2"));
    showAllSteps("t1", "card", [step("s1"), step("s2")]);
    setTabs([]);
    expect(useFullSteps.getState().tabs["t1"]).toBeUndefined();
  });
});

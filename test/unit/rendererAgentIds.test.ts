import { describe, expect, it } from "vitest";
import { agentIds } from "../../src/renderer/util/agentIds.js";

describe("agent ids of a list", () => {
  const agents = new Set(["a1", "a2", "a3"]);
  const looked: string[] = [];
  const isAgent = (id: string): boolean => (looked.push(id), agents.has(id));

  it("looks only at the ids a growing or capped list gained, and gives the same answer as a full look", () => {
    let state = agentIds(undefined, ["t0", "a1", "t1"], 0, isAgent);
    expect(state.agents).toEqual(["a1"]);
    looked.length = 0;
    state = agentIds(state, ["t0", "a1", "t1", "a2", "t2"], 0, isAgent);
    expect(looked).toEqual(["a2", "t2"]);
    expect(state.joined).toBe("a1\na2");
    looked.length = 0;
    state = agentIds(state, ["t1", "a2", "t2", "t3"], 0, isAgent); // the cap dropped two, one came
    expect(looked).toEqual(["t3"]);
    expect(state.agents).toEqual(["a2"]);
    expect(agentIds(state, state.ids, 0, isAgent)).toBe(state);
  });

  it("stays right after a reorder, and looks at every id again when a listed block became an agent", () => {
    let state = agentIds(undefined, ["t0", "a3", "t4"], 0, isAgent);
    state = agentIds(state, ["t4", "a3", "t0"], 0, isAgent);
    expect(state.agents).toEqual(["a3"]);
    looked.length = 0;
    agents.add("t0");
    state = agentIds(state, state.ids, 1, isAgent);
    expect(looked).toEqual(["t4", "a3", "t0"]);
    expect(state.joined).toBe("a3\nt0");
  });
});

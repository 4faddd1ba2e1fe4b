// The session graph's pure parts: Transcript (and the renderer's normalised transcript state) → nodes and
// spawn edges, and their layout.
import { describe, expect, it } from "vitest";
import { applyDelta, emptyTranscriptState, fullDelta } from "../../src/shared/delta/index.js";
import {
  ConductorNodeId,
  orchestrationOf,
  sessionGraph,
  sessionGraphOfState,
  structureKey,
  toneOf,
  type GraphNode,
  type SessionGraph,
} from "../../src/shared/sessionGraph.js";
import { GraphNodeHeight, GraphNodeWidth, layoutSessionGraph } from "../../src/shared/sessionGraphLayout.js";
import type { Block, SubagentRecord, Transcript } from "../../src/shared/transcript.js";
import { agentBlock } from "../support/blocks.js";

function text(id: string, body: string): Block {
  return { kind: "text", id, text: body };
}

function agent(id: string, record: Partial<SubagentRecord>, nested: readonly Block[] = []): Block {
  return agentBlock(id, { taskId: `a-${id}`, ...record, blocks: nested });
}

function transcript(blocks: readonly Block[], status: Transcript["status"] = "idle"): Transcript {
  return { sessionId: "s1", status, blocks, title: "Build the thing" };
}

function node(graph: SessionGraph, id: string): GraphNode {
  const found = graph.nodes.find((n) => n.id === id);
  if (found === undefined) throw new Error(`no node ${id}`);
  return found;
}

/** conductor → top → middle → deepest, with prose and tools between, as a restored 3-level session holds it. */
const threeLevels = transcript([
  { kind: "user", id: "u:0", text: "nest three agents" },
  agent("toolu_top", { description: "Top agent", status: "completed" }, [
    text("t:0", "Delegating."),
    agent("toolu_mid", { description: "Middle agent", status: "completed", spawnDepth: 2 }, [
      { kind: "tool", id: "toolu_bash", call: { toolUseId: "toolu_bash", name: "Bash", input: { command: "ls" }, status: "completed" } },
      agent("toolu_deep", { description: "Deepest agent", subagentType: "Explore", status: "failed", spawnDepth: 3 }),
    ]),
  ]),
  text("x:0", "Three levels finished."),
]);

describe("sessionGraph", () => {
  it("puts each agent under its caller at three levels, the conductor first", () => {
    const graph = sessionGraph(threeLevels);
    expect(graph.nodes.map((n) => [n.id, n.parentId, n.depth])).toEqual([
      [ConductorNodeId, undefined, 0],
      ["toolu_top", ConductorNodeId, 1],
      ["toolu_mid", "toolu_top", 2],
      ["toolu_deep", "toolu_mid", 3],
    ]);
    expect(graph.edges.map((e) => `${e.source}→${e.target}`)).toEqual([`${ConductorNodeId}→toolu_top`, "toolu_top→toolu_mid", "toolu_mid→toolu_deep"]);
    expect(node(graph, ConductorNodeId)).toMatchObject({ kind: "conductor", label: "Conductor", status: "idle", description: "Build the thing" });
    expect(node(graph, "toolu_deep")).toMatchObject({ kind: "agent", label: "Agent Explore: Deepest agent", subagentType: "Explore", description: "Deepest agent" });
  });

  it("gives parallel agents one caller each and keeps their order", () => {
    const graph = sessionGraph(
      transcript([
        agent("toolu_a", { description: "first" }),
        agent("toolu_b", { description: "second" }, [agent("toolu_b1", { description: "b's one" }), agent("toolu_b2", { description: "b's two" })]),
        agent("toolu_c", { description: "third" }),
      ]),
    );
    const children = (id: string) => graph.edges.filter((e) => e.source === id).map((e) => e.target);
    expect(children(ConductorNodeId)).toEqual(["toolu_a", "toolu_b", "toolu_c"]);
    expect(children("toolu_b")).toEqual(["toolu_b1", "toolu_b2"]);
    expect(graph.nodes.map((n) => n.id)).toEqual([ConductorNodeId, "toolu_a", "toolu_b", "toolu_b1", "toolu_b2", "toolu_c"]);
  });

  it("shows background agents, still running after the conductor's turn ended", () => {
    const graph = sessionGraph(
      transcript([agent("toolu_bg", { description: "watch the logs", background: true, status: "running" }), text("x:0", "Started it.")], "running"),
    );
    expect(node(graph, "toolu_bg")).toMatchObject({ background: true, status: "running", tone: "running", parentId: ConductorNodeId });
    expect(node(graph, ConductorNodeId)).toMatchObject({ status: "running", tone: "running" });
  });

  it("maps every status to its tone and keeps the record's own word", () => {
    expect(
      (["running", "completed", "failed", "stopped", "idle", "error"] as const).map((s) => [s, toneOf(s)]),
    ).toEqual([
      ["running", "running"],
      ["completed", "done"],
      ["failed", "failed"],
      ["stopped", "stopped"],
      ["idle", "idle"],
      ["error", "failed"],
    ]);
    const graph = sessionGraph(transcript([agent("toolu_s", { status: "stopped" }), agent("toolu_f", { status: "failed" })]));
    expect([node(graph, "toolu_s").status, node(graph, "toolu_f").status]).toEqual(["stopped", "failed"]);
  });

  it("keeps a hostile description as plain text in its fields and label", () => {
    const hostile = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;
    const graph = sessionGraph(transcript([agent("toolu_x", { description: hostile, subagentType: "<b>coder</b>" })]));
    const n = node(graph, "toolu_x");
    expect(n.description).toBe(hostile);
    expect(n.label).toBe(`Agent <b>coder</b>: ${hostile}`);
    expect(JSON.stringify(graph)).not.toContain("&lt;");
  });

  it("puts a record that names its caller under it when the stream left it at the top level", () => {
    const graph = sessionGraph(
      transcript([
        agent("toolu_top", { description: "Top", taskId: "a111" }),
        agent("toolu_orphan", { description: "placed by progress", parentTaskId: "a111", spawnDepth: 2 }),
        // A caller that cannot be found leaves the record with the conductor.
        agent("toolu_lost", { description: "caller unknown", parentTaskId: "a999", spawnDepth: 2 }),
      ]),
    );
    expect(node(graph, "toolu_orphan")).toMatchObject({ parentId: "toolu_top", depth: 2 });
    expect(node(graph, "toolu_lost")).toMatchObject({ parentId: ConductorNodeId, depth: 1 });
  });

  it("never makes a cycle out of records that name each other", () => {
    const graph = sessionGraph(
      transcript([agent("toolu_p", { taskId: "ap", parentTaskId: "aq" }, [agent("toolu_q", { taskId: "aq", parentTaskId: "ap" })])]),
    );
    expect(graph.nodes.map((n) => [n.id, n.parentId])).toEqual([
      [ConductorNodeId, undefined],
      ["toolu_p", ConductorNodeId],
      ["toolu_q", "toolu_p"],
    ]);
  });

  it("shows no phase or badges for today's records, and both once a record carries them", () => {
    expect(node(sessionGraph(threeLevels), "toolu_top").phase).toBeUndefined();
    expect(node(sessionGraph(threeLevels), "toolu_top").badges).toBeUndefined();
    const open = (kind: string, state = "open") => ({ id: `toolu_${kind}_${state}`, kind, state, openedAt: "2026-01-01T00:00:00Z", routedTo: "conductor", routeReason: "background agent" });
    const later = { ...agentBlock("toolu_c").call!.subagent!, phase: "review", escalations: [open("question"), open("question", "answered"), open("plan"), open("plan", "rejected")] } as SubagentRecord;
    expect(orchestrationOf(later)).toEqual({ phase: "review", badges: { openQuestions: 1, plansInReview: 1 } });
    const settled = { ...later, phase: "executing", escalations: [open("question", "answered"), open("plan", "approved")] } as SubagentRecord;
    expect(orchestrationOf(settled)).toEqual({ phase: "executing" });
    expect(orchestrationOf({ ...later, phase: "<script>", escalations: "two" } as unknown as SubagentRecord)).toEqual({});
    expect(node(sessionGraph(transcript([{ ...agentBlock("toolu_c"), call: { ...agentBlock("toolu_c").call!, subagent: later } }])), "toolu_c")).toMatchObject({ phase: "review", badges: { openQuestions: 1, plansInReview: 1 } });
  });

  it("builds the same graph from the renderer's normalised transcript state as from the Transcript", () => {
    // The transcript state as the window holds it after the publisher's first (full) delta.
    const state = applyDelta(emptyTranscriptState(), fullDelta("t", threeLevels, []));
    expect(sessionGraphOfState(state)).toEqual(sessionGraph(threeLevels));
  });

  it("keeps the structure key when only statuses change, and changes it when an agent is added", () => {
    const before = structureKey(sessionGraph(threeLevels));
    const statusOnly = transcript([agent("toolu_top", { description: "Top agent", status: "running" }, [agent("toolu_mid", { status: "running" }, [agent("toolu_deep", {})])])]);
    expect(structureKey(sessionGraph(statusOnly))).toBe(before);
    const grown = transcript([...threeLevels.blocks, agent("toolu_new", {})]);
    expect(structureKey(sessionGraph(grown))).not.toBe(before);
  });
});

describe("layoutSessionGraph", () => {
  it("places every agent below its caller without overlaps", () => {
    const graph = sessionGraph(
      transcript([
        agent("toolu_a", {}, [agent("toolu_a1", {}), agent("toolu_a2", {}, [agent("toolu_a21", {})])]),
        agent("toolu_b", {}),
        agent("toolu_c", { background: true }),
      ]),
    );
    const { positions } = layoutSessionGraph(graph);
    for (const n of graph.nodes) {
      if (n.parentId === undefined) continue;
      expect(positions.get(n.id)!.y).toBeGreaterThan(positions.get(n.parentId)!.y + GraphNodeHeight);
    }
    const boxes = [...positions.values()];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [p, q] = [boxes[i]!, boxes[j]!];
        const apart = Math.abs(p.x - q.x) >= GraphNodeWidth || Math.abs(p.y - q.y) >= GraphNodeHeight;
        expect(apart).toBe(true);
      }
    }
  });

  it("packs a wide fan of leaves into a grid under its caller, each reached along the gutter above it", () => {
    const workers = Array.from({ length: 40 }, (_, i) => agent(`toolu_w${i}`, { description: `worker ${i}` }));
    const graph = sessionGraph(transcript([agent("toolu_lead", {}, [...workers, agent("toolu_sub", {}, [agent("toolu_subsub", {})])])]));
    const { positions, packed, width, height } = layoutSessionGraph(graph);
    // The 40 leaves are packed; the agent that started one of its own is not.
    expect([...packed.keys()].sort()).toEqual(workers.map((w) => w.id).sort());
    expect(packed.has("toolu_sub")).toBe(false);
    const lead = positions.get("toolu_lead")!;
    const rows = new Set(workers.map((w) => positions.get(w.id)!.y));
    expect(rows.size).toBeGreaterThan(1);
    for (const w of workers) {
      const at = positions.get(w.id)!;
      expect(at.y).toBeGreaterThan(lead.y + GraphNodeHeight);
      // The comb's line runs between the caller and the grid's first row.
      expect(packed.get(w.id)!.busY).toBeGreaterThan(lead.y + GraphNodeHeight);
      expect(packed.get(w.id)!.busY).toBeLessThan(Math.min(...rows));
    }
    // Far wider than tall no more: one row of 40 would be 40 node widths.
    expect(width).toBeLessThan(20 * GraphNodeWidth);
    expect(width / height).toBeLessThan(8);
    const boxes = [...positions.values()];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [p, q] = [boxes[i]!, boxes[j]!];
        expect(Math.abs(p.x - q.x) >= GraphNodeWidth || Math.abs(p.y - q.y) >= GraphNodeHeight).toBe(true);
      }
    }
  });

  it("leaves a small fan in one row", () => {
    const graph = sessionGraph(transcript(Array.from({ length: 5 }, (_, i) => agent(`toolu_${i}`, {}))));
    const { positions, packed } = layoutSessionGraph(graph);
    expect(packed.size).toBe(0);
    expect(new Set(graph.nodes.slice(1).map((n) => positions.get(n.id)!.y)).size).toBe(1);
  });

  it("puts agents of one depth on one row, siblings left to right in the order they started", () => {
    const graph = sessionGraph(transcript([agent("toolu_a", {}, [agent("toolu_a1", {}), agent("toolu_a2", {})]), agent("toolu_b", {}), agent("toolu_c", {}, [agent("toolu_c1", {})])]));
    const { positions } = layoutSessionGraph(graph);
    const at = (id: string) => positions.get(id)!;
    expect(at("toolu_a").y).toBe(at("toolu_b").y);
    expect(at("toolu_a").x).toBeLessThan(at("toolu_b").x);
    expect(at("toolu_b").x).toBeLessThan(at("toolu_c").x);
    expect(at("toolu_a1").x).toBeLessThan(at("toolu_a2").x);
    expect(at("toolu_a2").x).toBeLessThan(at("toolu_c1").x);
  });
});

// Transcript deltas: for any sequence of transcripts (random edits that share unchanged subtrees
// like the hub does, and every recorded CLI run replayed through the hub), applying the deltas —
// one per step or coalesced with mergeDeltaList, in one pass or pairwise — rebuilds exactly the transcript at every step.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PendingPermission, TranscriptDelta } from "../../src/shared/api.js";
import { applyDelta, denormalize, diffTranscript, emptyTranscriptState, mergeDeltaList, type TranscriptState } from "../../src/shared/delta/index.js";
import type { Block, SubagentRecord, Transcript } from "../../src/shared/transcript.js";
import { SessionModel } from "../../src/main/hub/index.js";
import { listRecordings, warnIfNoRecordings } from "../support/recordings.js";
import { replayRecording } from "./hubTestKit.js";

// ---- a small transcript editor with structural sharing ------------------------------------------

type Op =
  | { kind: "add"; parent: number; at: number; tool: boolean; agent: boolean }
  | { kind: "edit"; target: number; text: string }
  | { kind: "status"; target: number }
  | { kind: "remove"; target: number }
  | { kind: "meta"; title: string }
  | { kind: "pending"; count: number }
  | { kind: "none" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("add" as const), parent: fc.nat(), at: fc.nat(), tool: fc.boolean(), agent: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("edit" as const), target: fc.nat(), text: fc.string({ maxLength: 6 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("status" as const), target: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("remove" as const), target: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("meta" as const), title: fc.string({ maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("pending" as const), count: fc.nat({ max: 3 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
);

interface World {
  readonly transcript: Transcript;
  readonly pending: readonly PendingPermission[];
  readonly nextId: number;
}

/** Every block with a subagent record, by id: the possible parents (plus the top level). */
function parents(blocks: readonly Block[], out: string[] = [""]): string[] {
  for (const b of blocks) {
    if (b.call?.subagent !== undefined) {
      out.push(b.id);
      parents(b.call.subagent.blocks, out);
    }
  }
  return out;
}
function allIds(blocks: readonly Block[], out: string[] = []): string[] {
  for (const b of blocks) {
    out.push(b.id);
    if (b.call?.subagent !== undefined) allIds(b.call.subagent.blocks, out);
  }
  return out;
}

/** Rewrites the list holding `parentId` ("" = top) with `edit`, copying only the path to it. */
function editList(blocks: readonly Block[], parentId: string, edit: (list: readonly Block[]) => readonly Block[]): readonly Block[] {
  if (parentId === "") return edit(blocks);
  let changed = false;
  const out = blocks.map((b) => {
    const record = b.call?.subagent;
    if (b.call === undefined || record === undefined) return b;
    const nested = b.id === parentId ? edit(record.blocks) : editList(record.blocks, parentId, edit);
    if (nested === record.blocks) return b;
    changed = true;
    return { ...b, call: { ...b.call, subagent: { ...record, blocks: nested } } };
  });
  return changed ? out : blocks;
}
/** Replaces block `id` wherever it is. */
function editBlock(blocks: readonly Block[], id: string, edit: (b: Block) => Block | undefined): readonly Block[] {
  let changed = false;
  const out: Block[] = [];
  for (const b of blocks) {
    if (b.id === id) {
      changed = true;
      const next = edit(b);
      if (next !== undefined) out.push(next);
      continue;
    }
    const record = b.call?.subagent;
    if (b.call !== undefined && record !== undefined) {
      const nested = editBlock(record.blocks, id, edit);
      if (nested !== record.blocks) {
        changed = true;
        out.push({ ...b, call: { ...b.call, subagent: { ...record, blocks: nested } } });
        continue;
      }
    }
    out.push(b);
  }
  return changed ? out : blocks;
}

function newBlock(id: string, tool: boolean, agent: boolean): Block {
  if (!tool) return { kind: "text", id, text: `text ${id}` };
  const subagent: SubagentRecord | undefined = agent
    ? { toolUseId: id, taskId: "", subagentType: "general-purpose", description: `agent ${id}`, prompt: "p", background: false, status: "running", blocks: [], droppedBlockCount: 0 }
    : undefined;
  return { kind: "tool", id, call: { toolUseId: id, name: agent ? "Agent" : "Bash", input: { n: id }, status: "running", ...(subagent ? { subagent } : {}) } };
}

function step(world: World, op: Op): World {
  const t = world.transcript;
  const ids = allIds(t.blocks);
  const pick = (n: number) => ids[n % Math.max(ids.length, 1)];
  switch (op.kind) {
    case "add": {
      const ps = parents(t.blocks);
      const parent = ps[op.parent % ps.length]!;
      const block = newBlock(`b${world.nextId}`, op.tool, op.agent);
      const blocks = editList(t.blocks, parent, (list) => {
        const at = op.at % (list.length + 1);
        return [...list.slice(0, at), block, ...list.slice(at)];
      });
      return { ...world, transcript: { ...t, blocks }, nextId: world.nextId + 1 };
    }
    case "edit": {
      const id = pick(op.target);
      if (id === undefined) return world;
      return { ...world, transcript: { ...t, blocks: editBlock(t.blocks, id, (b) => ({ ...b, text: op.text })) } };
    }
    case "status": {
      const id = pick(op.target);
      if (id === undefined) return world;
      const blocks = editBlock(t.blocks, id, (b) =>
        b.call === undefined
          ? { ...b, streaming: !b.streaming }
          : { ...b, call: { ...b.call, status: "completed", ...(b.call.subagent ? { subagent: { ...b.call.subagent, status: "completed" } } : {}) } },
      );
      return { ...world, transcript: { ...t, blocks } };
    }
    case "remove": {
      const id = pick(op.target);
      if (id === undefined) return world;
      return { ...world, transcript: { ...t, blocks: editBlock(t.blocks, id, () => undefined) } };
    }
    case "meta":
      return { ...world, transcript: { ...t, title: op.title, status: t.status === "idle" ? "running" : "idle" } };
    case "pending": {
      const pending = Array.from({ length: op.count }, (_, i) => ({ requestId: `r${world.nextId}-${i}`, toolName: "Bash", toolUseId: `u${i}`, input: {} }));
      return { ...world, pending, nextId: world.nextId + 1 };
    }
    case "none":
      return world;
  }
}

/** Applies the deltas of a sequence, coalescing consecutive ones into groups of `groupSizes`. */
function replayDeltas(
  tabId: string,
  steps: readonly { transcript: Transcript; pending: readonly PendingPermission[] }[],
  groupSizes: readonly number[],
  check: (state: TranscriptState, expected: Transcript, pending: readonly PendingPermission[]) => void,
): void {
  let state = emptyTranscriptState();
  let prev: (typeof steps)[number] | undefined;
  let batch: TranscriptDelta[] = [];
  let inBatch = 0;
  let group = 0;
  for (const current of steps) {
    const delta = diffTranscript(tabId, prev?.transcript, current.transcript, prev?.pending, current.pending);
    prev = current;
    if (delta !== undefined) batch.push(delta);
    inBatch++;
    if (inBatch >= (groupSizes[group % Math.max(groupSizes.length, 1)] ?? 1)) {
      // Both ways of coalescing: in one pass (the renderer's), and folded pairwise.
      if (batch.length > 0) state = applyDelta(state, group % 2 === 0 ? mergeDeltaList(batch) : batch.reduce((a, b) => mergeDeltaList([a, b])));
      batch = [];
      inBatch = 0;
      group++;
      check(state, current.transcript, current.pending);
    }
  }
}

function expectStateMatches(state: TranscriptState, expected: Transcript, pending: readonly PendingPermission[]): void {
  expect(denormalize(state)).toEqual(expected);
  expect(state.pending).toEqual(pending);
  // Nothing unreachable stays behind.
  expect(state.blocksById.size).toBe(allIds(expected.blocks).length);
}

describe("diffTranscript / applyDelta", () => {
  const start: World = { transcript: { sessionId: "s", status: "idle", blocks: [] }, pending: [], nextId: 0 };

  it("reproduces every random transcript, one delta per step", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const worlds: World[] = [start];
        for (const op of ops) worlds.push(step(worlds.at(-1)!, op));
        replayDeltas("t", worlds, [1], expectStateMatches);
      }),
      { numRuns: 300 },
    );
  });

  it("reproduces every random transcript when deltas are coalesced", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }), (ops, groups) => {
        const worlds: World[] = [start];
        for (const op of ops) worlds.push(step(worlds.at(-1)!, op));
        replayDeltas("t", worlds, groups, expectStateMatches);
      }),
      {
        numRuns: 300,
        examples: [
          // A card added, given a step and removed within one coalesced delta: its list arrives orphaned.
          [
            [
              { kind: "add", parent: 0, at: 0, tool: true, agent: true },
              { kind: "add", parent: 153090135, at: 0, tool: false, agent: false },
              { kind: "remove", target: 0 },
            ] as Op[],
            [4],
          ],
        ],
      },
    );
  });

  it("sends nothing when nothing changed, and only the changed nested block when one did", () => {
    let w = start;
    for (const op of [
      { kind: "add", parent: 0, at: 0, tool: true, agent: true },
      { kind: "add", parent: 1, at: 0, tool: true, agent: false },
      { kind: "add", parent: 1, at: 1, tool: false, agent: false },
    ] as const)
      w = step(w, op);
    expect(diffTranscript("t", w.transcript, w.transcript, w.pending, w.pending)).toBeUndefined();
    const next = step(w, { kind: "edit", target: 2, text: "changed" });
    const delta = diffTranscript("t", w.transcript, next.transcript, w.pending, next.pending);
    expect(delta?.upserts.map((b) => b.id)).toEqual(["b2"]);
    expect(delta?.children).toEqual({});
    expect(delta?.meta).toBeUndefined();
  });

  it("a first delta is a reset that replaces whatever the receiver had", () => {
    const a = step(start, { kind: "add", parent: 0, at: 0, tool: false, agent: false });
    let state = applyDelta(emptyTranscriptState(), diffTranscript("t", undefined, a.transcript)!);
    const other: Transcript = { sessionId: "other", status: "running", blocks: [{ kind: "text", id: "x", text: "x" }] };
    state = applyDelta(state, diffTranscript("t", undefined, other)!);
    expect(denormalize(state)).toEqual(other);
    expect([...state.blocksById.keys()]).toEqual(["x"]);
  });

  it("a reset inside a coalesced batch drops what came before it, and keeps what comes after", () => {
    const a = step(start, { kind: "add", parent: 0, at: 0, tool: false, agent: false });
    const other: Transcript = { sessionId: "other", status: "running", blocks: [{ kind: "text", id: "x", text: "x" }] };
    const after: Transcript = { ...other, title: "later", blocks: [...other.blocks, { kind: "text", id: "y", text: "y" }] };
    const batch = [diffTranscript("t", undefined, a.transcript)!, diffTranscript("t", undefined, other)!, diffTranscript("t", other, after)!];
    const state = applyDelta(emptyTranscriptState(), mergeDeltaList(batch));
    expect(denormalize(state)).toEqual(after);
    expect([...state.blocksById.keys()].sort()).toEqual(["x", "y"]);
  });

  it("counts the deltas that turn a listed block into a subagent call, not ticks or new cards", () => {
    const call = (subagent: boolean, progress = ""): Transcript => ({
      sessionId: "s",
      status: "running",
      blocks: [
        {
          kind: "tool",
          id: "t1",
          call: {
            toolUseId: "t1",
            name: "Spawn",
            input: {},
            status: "running",
            ...(subagent
              ? { subagent: { toolUseId: "t1", taskId: "a1", subagentType: "x", description: "d", prompt: "p", background: false, status: "running", progressLine: progress, blocks: [], droppedBlockCount: 0 } }
              : {}),
          },
        },
      ],
    });
    const plain = applyDelta(emptyTranscriptState(), diffTranscript("t", undefined, call(false))!);
    const agent = applyDelta(plain, diffTranscript("t", call(false), call(true))!);
    const ticked = applyDelta(agent, diffTranscript("t", call(true), call(true, "step 2"))!);
    expect([plain.agentEpoch, agent.agentEpoch, ticked.agentEpoch]).toEqual([0, 1, 1]);
    expect(applyDelta(emptyTranscriptState(), diffTranscript("t", undefined, call(true))!).agentEpoch).toBe(0);
  });

  it("keeps the Maps of parts a delta did not touch", () => {
    let w = step(start, { kind: "add", parent: 0, at: 0, tool: false, agent: false });
    let state = applyDelta(emptyTranscriptState(), diffTranscript("t", undefined, w.transcript)!);
    const before = state;
    const next = step(w, { kind: "edit", target: 0, text: "new" });
    state = applyDelta(state, diffTranscript("t", w.transcript, next.transcript)!);
    expect(state.children).toBe(before.children);
    expect(state.blocksById).not.toBe(before.blocksById);
    w = next;
    const meta = step(w, { kind: "meta", title: "T" });
    const afterMeta = applyDelta(state, diffTranscript("t", w.transcript, meta.transcript)!);
    expect(afterMeta.blocksById).toBe(state.blocksById);
    expect(afterMeta.children).toBe(state.children);
  });
});

const skip = warnIfNoRecordings("deltaProperties");
const runs = skip ? [] : listRecordings().flatMap(replayRecording);

describe.skipIf(skip)("deltas over recorded runs replayed through the hub", () => {
  it.each(runs.map((r) => [r.label, r] as const))("%s: every step, and random coalescing, rebuild the model's transcript", (_label, r) => {
    const steps: { transcript: Transcript; pending: readonly PendingPermission[] }[] = [];
    // One model applying event after event: each transcript taken stays as it was (the deltas read them all at the end).
    const model = new SessionModel();
    for (const event of r.events) {
      model.apply([event]);
      steps.push({ transcript: model.transcript(), pending: [] });
    }
    replayDeltas(r.label, steps, [1], expectStateMatches);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }), (groups) => {
        replayDeltas(r.label, steps, groups, expectStateMatches);
      }),
      { numRuns: 20 },
    );
  });
});

// The hub's storage: one mutable store shared by all states of a session, a journal of its writes,
// and rerooting when an older state is read or reduced again. From the outside every state must
// still behave as an immutable value, whatever order states are read and reduced in.

import fc from "fast-check";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import { MaxNestedBlocks } from "../../src/shared/transcript.js";
import { createSessionState, findToolCall, reduce, reduceAll, toTranscript, type SessionState } from "../../src/main/hub/index.js";
import { redoRange, undoRange, UndoLog, write, writeMap } from "../../src/main/hub/undoLog.js";
import { ev, freshJson, recordOf, twoAgents } from "./hubTestKit.js";

describe("undo log", () => {
  it("undoing a range puts object and map values back, newest first, and redoing it writes them again", () => {
    const target = { a: 1, b: "x" };
    const map = new Map<string, number>([["k", 1]]);
    const log = new UndoLog(3);
    write(log, target, "a", 2);
    write(log, target, "a", 3);
    write(log, target, "b", "y");
    writeMap(log, map, "k", undefined);
    writeMap(log, map, "n", 5);
    undoRange(log, 0, log.length);
    expect(target).toEqual({ a: 1, b: "x" });
    expect([...map]).toEqual([["k", 1]]);
    redoRange(log, 0, log.length);
    expect(target).toEqual({ a: 3, b: "y" });
    expect(Object.fromEntries(map)).toEqual({ n: 5 });
    // Part of the range: only the last two writes (the map's) go back.
    undoRange(log, 9, log.length);
    expect(target).toEqual({ a: 3, b: "y" });
    expect([...map]).toEqual([["k", 1]]);
    undoRange(log, 0, 9);
    expect(target).toEqual({ a: 1, b: "x" });
  });
});

describe("states sharing one store", () => {
  it("every state of a long chain, read in any order, shows exactly its own prefix", () => {
    const events = twoAgents(MaxNestedBlocks * 2 + 10); // past the cap, and past list compaction
    const states: SessionState[] = [createSessionState()];
    for (const e of events) states.push(reduce(states.at(-1) as SessionState, e));
    const picks = [events.length, 3, Math.floor(events.length / 2), 40, events.length - 1, 0, 700, events.length];
    for (const n of picks) expect(JSON.stringify(toTranscript(states[n] as SessionState)), `state ${n}`).toBe(freshJson(events.slice(0, n)));
    expect(findToolCall(states[5] as SessionState, "toolu_A_s0")).toBeUndefined();
    expect(findToolCall(states[200] as SessionState, "toolu_A_s0")?.status).toBe("completed");
    expect(findToolCall(states[events.length] as SessionState, "toolu_A_s0")).toBeUndefined(); // dropped by the cap
  });

  it("ids dropped by the cap stay known in every later state, also after reading older ones", () => {
    const events = twoAgents(MaxNestedBlocks + 20);
    const early = reduceAll(createSessionState(), events.slice(0, 30));
    const late = reduceAll(early, events.slice(30));
    toTranscript(early);
    // A second copy of a dropped call (the same line fed again from history) is ignored.
    const again = reduce(late, ev.use("toolu_A_s0", "Bash", { command: "step 0" }, "toolu_A"));
    const record = recordOf(toTranscript(again), "toolu_A");
    expect(record?.blocks.some((b) => b.id === "toolu_A_s0")).toBe(false);
    expect(record?.droppedBlockCount).toBe(recordOf(toTranscript(late), "toolu_A")?.droppedBlockCount);
  });

  it("branches from one state never see each other, in any interleaving of reads and steps", () => {
    const events = twoAgents(12);
    fc.assert(
      fc.property(fc.nat(events.length), fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 60 }), (at, script) => {
        const base = reduceAll(createSessionState(), events.slice(0, at));
        const rest = events.slice(at);
        // Branch a replays the session; branch b gets the same events with different texts.
        const other = rest.map((e) => (e.kind === "assistant_block" && e.block.type === "text" ? { ...e, block: { ...e.block, text: `other ${e.block.text}` } } : e));
        let a = base;
        let b = base;
        let i = 0;
        let j = 0;
        for (const [stepA, read] of script) {
          if (stepA && i < rest.length) a = reduce(a, rest[i++] as ClientEvent);
          if (!stepA && j < other.length) b = reduce(b, other[j++] as ClientEvent);
          if (read) toTranscript(stepA ? b : a);
        }
        expect(JSON.stringify(toTranscript(a))).toBe(freshJson([...events.slice(0, at), ...rest.slice(0, i)]));
        expect(JSON.stringify(toTranscript(b))).toBe(freshJson([...events.slice(0, at), ...other.slice(0, j)]));
        expect(JSON.stringify(toTranscript(base))).toBe(freshJson(events.slice(0, at)));
      }),
      { numRuns: 40 },
    );
  });

  it("states far apart in a long session, forked and read in any order, each show their own prefix", () => {
    // Long enough for the journal to span many pages, so forks and reads cross page boundaries.
    const events = twoAgents(MaxNestedBlocks * 4);
    const states: SessionState[] = [createSessionState()];
    for (const e of events) states.push(reduce(states.at(-1) as SessionState, e));
    const other = (e: ClientEvent): ClientEvent => (e.kind === "assistant_block" && e.block.type === "text" ? { ...e, block: { ...e.block, text: `other ${e.block.text}` } } : e);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(events.length), fc.nat(40)), { minLength: 1, maxLength: 6 }), (forks) => {
        // Each fork goes `length` events down another path from state `at`; then all are read back, newest fork first.
        const made = forks.map(([at, length]) => {
          const rest = events.slice(at, at + length).map(other);
          return { at, rest, state: rest.reduce(reduce, states[at] as SessionState) };
        });
        for (const { at, rest, state } of made.reverse()) {
          expect(JSON.stringify(toTranscript(state))).toBe(freshJson([...events.slice(0, at), ...rest]));
          expect(JSON.stringify(toTranscript(states[at] as SessionState))).toBe(freshJson(events.slice(0, at)));
        }
      }),
      { numRuns: 8 },
    );
    expect(JSON.stringify(toTranscript(states.at(-1) as SessionState))).toBe(freshJson(events));
  });

  it("a step that throws leaves its state as it was, and the session goes on", () => {
    const events = twoAgents(20);
    const state = reduceAll(createSessionState(), events.slice(0, 60));
    const before = JSON.stringify(toTranscript(state));
    // A tool_use line half written by the reducer before it fails on the malformed block.
    const broken = { ...ev.use("toolu_A_x", "Bash", {}, "toolu_A"), block: { type: "tool_use", id: "toolu_A_x", name: "Bash", get input(): never { throw new Error("bad input"); } } } as unknown as ClientEvent;
    const use = events.findIndex((e, i) => i >= 60 && e.kind === "assistant_block" && e.block.type === "tool_use");
    expect(() => reduce(state, broken)).toThrow("bad input");
    expect(() => reduceAll(state, [...events.slice(60, use + 1), broken])).toThrow("bad input");
    expect(JSON.stringify(toTranscript(state))).toBe(before);
    // The store itself is back: a step from the state shows none of the failed batch's calls.
    const aside = ev.text("u_aside", "An aside.");
    expect(JSON.stringify(toTranscript(reduce(state, aside)))).toBe(freshJson([...events.slice(0, 60), aside]));
    expect(JSON.stringify(toTranscript(reduceAll(state, events.slice(60))))).toBe(freshJson(events));
  });

  it("lets go of what the cap dropped: a long session's memory follows what it shows", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    // Built in a scope of its own, so nothing but the hub can hold the first call's input.
    const { state, firstInput } = ((): { state: SessionState; firstInput: WeakRef<object> } => {
      const events = twoAgents(MaxNestedBlocks * 2 - 20);
      const first = events.find((e) => e.kind === "assistant_block" && e.block.type === "tool_use" && e.block.id === "toolu_A_s0");
      const input = first?.kind === "assistant_block" && first.block.type === "tool_use" ? first.block.input : undefined;
      if (input === undefined) throw new Error("no first call");
      return { state: events.reduce(reduce, createSessionState()), firstInput: new WeakRef(input) };
    })();
    expect(recordOf(toTranscript(state), "toolu_A")?.droppedBlockCount).toBeGreaterThan(0);
    await new Promise((resolve) => setImmediate(resolve)); // a WeakRef keeps its target until the job ends
    gc();
    expect(firstInput.deref()).toBeUndefined();
  });

  it("reduceAll gives what reducing one event at a time gives, and leaves its input alone", () => {
    const events = twoAgents(30);
    const base = reduceAll(createSessionState(), events.slice(0, 50));
    const before = JSON.stringify(toTranscript(base));
    const batched = reduceAll(base, events.slice(50));
    const stepped = events.slice(50).reduce(reduce, base);
    expect(toTranscript(batched)).toEqual(toTranscript(stepped));
    expect(JSON.stringify(toTranscript(base))).toBe(before);
    expect(reduceAll(base, [])).toBe(base);
  });

  it("between consecutive states, only the changed card and the top-level list are new objects", () => {
    const events = twoAgents(MaxNestedBlocks + 5);
    let state = reduceAll(createSessionState(), events.slice(0, 40));
    let previous = toTranscript(state);
    for (const e of events.slice(40, 300)) {
      state = reduce(state, e);
      const next = toTranscript(state);
      const changed = next.blocks.filter((b, i) => b !== previous.blocks[i]);
      expect(changed.length).toBeLessThanOrEqual(1);
      for (const card of changed) {
        const before = previous.blocks.find((b) => b.id === card.id)?.call?.subagent?.blocks ?? [];
        const after = card.call?.subagent?.blocks ?? [];
        const fresh = after.filter((b) => !before.includes(b));
        expect(fresh.length).toBeLessThanOrEqual(1); // the appended or updated nested block
      }
      previous = next;
    }
  });
});

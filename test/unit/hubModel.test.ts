// The hub's session model: it applies events in place, and every Transcript it builds is a value
// that never changes afterwards (the renderer holds on to them), sharing every block that did not
// change. A batch of events builds what the same events one at a time build; an event that throws
// stops its batch, and the model goes on with the next one. Memory follows what the session shows.

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import { MaxNestedBlocks, type Transcript } from "../../src/shared/transcript.js";
import { modelOf, SessionModel } from "../../src/main/hub/index.js";
import { ev, freshJson, recordOf, twoAgents } from "./hubTestKit.js";

const json = (value: unknown): string => JSON.stringify(value);

describe("the session model", () => {
  it("every transcript taken along a long session, read in any order afterwards, shows exactly its own prefix", () => {
    const events = twoAgents(MaxNestedBlocks * 2 + 10); // past the cap, and past list compaction
    const model = new SessionModel();
    const taken: Transcript[] = [model.transcript()];
    for (const [i, e] of events.entries()) {
      model.apply([e]);
      taken.push(model.transcript());
      if (i + 1 === 5) expect(model.findToolCall("toolu_A_s0")).toBeUndefined();
      if (i + 1 === 200) expect(model.findToolCall("toolu_A_s0")?.status).toBe("completed");
    }
    const picks = [events.length, 3, Math.floor(events.length / 2), 40, events.length - 1, 0, 700, events.length];
    for (const n of picks) expect(json(taken[n]), `transcript ${n}`).toBe(freshJson(events.slice(0, n)));
    expect(model.findToolCall("toolu_A_s0")).toBeUndefined(); // dropped by the cap
  });

  it("applied in batches and read after each, it shows what a new model of the same events shows", () => {
    const events = twoAgents(150);
    const model = new SessionModel();
    for (let at = 0; at < events.length; at += 37) {
      const read = events.slice(at, at + 37);
      model.apply(read);
      expect(json(model.transcript())).toBe(freshJson(events.slice(0, at + read.length)));
    }
  });

  it("ids dropped by the cap stay known in every later apply, also after reading an earlier transcript", () => {
    const events = twoAgents(MaxNestedBlocks + 20);
    const model = modelOf(events.slice(0, 30));
    const early = model.transcript();
    model.apply(events.slice(30));
    const late = model.transcript();
    json(early);
    // A second copy of a dropped call (the same line fed again from history) is ignored.
    model.apply([ev.use("toolu_A_s0", "Bash", { command: "step 0" }, "toolu_A")]);
    const record = recordOf(model.transcript(), "toolu_A");
    expect(record?.blocks.some((b) => b.id === "toolu_A_s0")).toBe(false);
    expect(record?.droppedBlockCount).toBe(recordOf(late, "toolu_A")?.droppedBlockCount);
  });

  it("an event that throws stops its apply with its error: the events before it stay applied, and the model goes on", () => {
    const events = twoAgents(20);
    const model = modelOf(events.slice(0, 60));
    const shown = model.transcript();
    const before = json(shown);
    // A tool_use line half written by the model before it fails on the malformed block.
    const broken = { ...ev.use("toolu_A_x", "Bash", {}, "toolu_A"), block: { type: "tool_use", id: "toolu_A_x", name: "Bash", get input(): never { throw new Error("bad input"); } } } as unknown as ClientEvent;
    const use = events.findIndex((e, i) => i >= 60 && e.kind === "assistant_block" && e.block.type === "tool_use");
    const called = events[use] as ClientEvent & { block: { id: string } };
    const result = events[use + 1] as ClientEvent & { isError: boolean };
    expect(result).toMatchObject({ kind: "tool_result", toolUseId: called.block.id });
    expect(() => model.apply([...events.slice(60, use + 1), broken, ...events.slice(use + 1)])).toThrow("bad input");
    // The events before the broken one are applied; the ones after it are not.
    expect(model.findToolCall(called.block.id)?.status).toBe("running");
    // A transcript taken before the failed apply still shows what it showed.
    expect(json(shown)).toBe(before);
    // The model goes on: the rest of the session, then the next turn, show.
    model.apply(events.slice(use + 1));
    expect(model.findToolCall(called.block.id)?.status).toBe(result.isError ? "failed" : "completed");
    expect(recordOf(model.transcript(), "toolu_A")?.status).toBe("completed");
    model.apply([ev.init(), ev.prompt("next"), ev.text("u_next", "The next turn.")]);
    const t = model.transcript();
    expect(t.status).toBe("running");
    expect(t.blocks.slice(-2).map((b) => [b.kind, b.text])).toEqual([
      ["user", "next"],
      ["text", "The next turn."],
    ]);
    expect(json(shown)).toBe(before);
  });

  it("lets go of what the cap dropped: a long session's memory follows what it shows", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    // Built in a scope of its own, so nothing but the hub can hold the first call's input.
    const { model, firstInput } = ((): { model: SessionModel; firstInput: WeakRef<object> } => {
      const events = twoAgents(MaxNestedBlocks * 2 - 20);
      const first = events.find((e) => e.kind === "assistant_block" && e.block.type === "tool_use" && e.block.id === "toolu_A_s0");
      const input = first?.kind === "assistant_block" && first.block.type === "tool_use" ? first.block.input : undefined;
      if (input === undefined) throw new Error("no first call");
      const m = new SessionModel();
      for (const e of events) m.apply([e]);
      return { model: m, firstInput: new WeakRef(input) };
    })();
    expect(recordOf(model.transcript(), "toolu_A")?.droppedBlockCount).toBeGreaterThan(0);
    await new Promise((resolve) => setImmediate(resolve)); // a WeakRef keeps its target until the job ends
    gc();
    expect(firstInput.deref()).toBeUndefined();
  });

  it("applying a batch gives what applying one event at a time gives; a transcript taken before stays as it was", () => {
    const events = twoAgents(30);
    const batched = modelOf(events.slice(0, 50));
    const stepped = modelOf(events.slice(0, 50));
    const base = batched.transcript();
    const before = json(base);
    batched.apply(events.slice(50));
    for (const e of events.slice(50)) stepped.apply([e]);
    expect(batched.transcript()).toEqual(stepped.transcript());
    expect(json(base)).toBe(before);
    // An empty batch changes nothing: the next transcript shares the whole block list.
    const last = batched.transcript();
    batched.apply([]);
    expect(batched.transcript()).toEqual(last);
    expect(batched.transcript().blocks).toBe(last.blocks);
  });

  it("the transcript is the same object until the next apply, and the version goes up with each apply", () => {
    const model = modelOf([ev.init(), ev.prompt("go")]);
    const t = model.transcript();
    const version = model.version;
    expect(model.transcript()).toBe(t);
    model.apply([ev.text("u1", "Hello.")]);
    expect(model.version).toBeGreaterThan(version);
    expect(model.transcript()).not.toBe(t);
    expect(t.blocks.map((b) => b.kind)).toEqual(["user"]);
  });

  it("between consecutive applies, only the changed card and the top-level list are new objects", () => {
    const events = twoAgents(MaxNestedBlocks + 5);
    const model = modelOf(events.slice(0, 40));
    let previous = model.transcript();
    for (const e of events.slice(40, 300)) {
      model.apply([e]);
      const next = model.transcript();
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

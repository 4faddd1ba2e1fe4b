// reduceAllConsuming: the step a live tab takes. It must build exactly what reduceAll builds, use up
// the states before it (a clear error, never a wrong transcript), and leave them whole when the
// step fails or when another timeline still needs their journal.
// reduceAllInSteps: the same steps over a whole list, for replay and one-shot reads.

import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import { createSessionState, reduce, reduceAll, reduceAllConsuming, reduceAllInSteps, toTranscript } from "../../src/main/hub/index.js";
import { ev, freshJson, twoAgents } from "./hubTestKit.js";

const json = (value: unknown): string => JSON.stringify(value);
/** An event the reducer throws on: an assistant line without its block. */
const broken = { kind: "assistant_block", messageId: "msg_broken", parentToolUseId: null } as unknown as ClientEvent;

describe("reduceAllConsuming", () => {
  it("builds the same transcript as reduceAll, read by read, and each state shows its own prefix while it is the newest", () => {
    const events = twoAgents(150);
    let state = createSessionState();
    for (let at = 0; at < events.length; at += 37) {
      const read = events.slice(at, at + 37);
      state = reduceAllConsuming(state, read);
      expect(json(toTranscript(state))).toBe(freshJson(events.slice(0, at + read.length)));
    }
  });

  it("uses up the states before it: reading or reducing one throws, and a transcript read before stays as it was", () => {
    const events = twoAgents(4);
    const first = reduceAll(createSessionState(), events.slice(0, 10));
    const shown = json(toTranscript(first));
    const unread = reduceAll(first, events.slice(10, 12));
    const next = reduceAllConsuming(unread, events.slice(12));
    expect(json(toTranscript(next))).toBe(freshJson(events));
    expect(() => toTranscript(unread)).toThrow(/used up by reduceAllConsuming/);
    expect(() => reduce(unread, ev.prompt("again"))).toThrow(/used up/);
    expect(() => reduceAll(first, [ev.prompt("again")])).toThrow(/used up/);
    // Transcripts are values: one read before the step still shows its state.
    expect(json(toTranscript(first))).toBe(shown);
  });

  it("leaves the state whole when the step throws, so the events can go again one by one", () => {
    const events = twoAgents(3);
    const from = reduceAll(createSessionState(), events.slice(0, 8));
    const before = freshJson(events.slice(0, 8));
    expect(() => reduceAllConsuming(from, [...events.slice(8, 12), broken])).toThrow();
    let state = from;
    for (const event of events.slice(8)) state = reduce(state, event);
    expect(json(toTranscript(state))).toBe(freshJson(events));
    expect(json(toTranscript(from))).toBe(before);
  });

  it("keeps the journal when the session forked: every state stays readable", () => {
    const events = twoAgents(3);
    const base = reduceAll(createSessionState(), events.slice(0, 8));
    const one = reduceAll(base, events.slice(8, 12));
    const other = reduce(base, ev.prompt("a different turn")); // a second successor: a fork
    const later = reduceAllConsuming(other, events.slice(8, 12));
    expect(json(toTranscript(one))).toBe(freshJson(events.slice(0, 12)));
    expect(json(toTranscript(base))).toBe(freshJson(events.slice(0, 8)));
    expect(json(toTranscript(later))).toBe(freshJson([...events.slice(0, 8), ev.prompt("a different turn"), ...events.slice(8, 12)]));
    expect(() => toTranscript(other)).not.toThrow();
  });
});

describe("reduceAllInSteps", () => {
  it("builds what reduceAll builds over a list of several steps, and uses up the state it started from", () => {
    const events = twoAgents(400);
    expect(events.length).toBeGreaterThan(3 * 512);
    const start = createSessionState();
    const end = reduceAllInSteps(start, events);
    expect(json(toTranscript(end))).toBe(freshJson(events));
    expect(() => toTranscript(start)).toThrow(/used up/);
  });
});

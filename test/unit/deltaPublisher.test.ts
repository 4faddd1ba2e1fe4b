// The publisher between the hub and the windows: a burst of changes goes out as one delta, the
// first change after a quiet spell goes out without waiting for the interval, a steady stream is
// sent at most once per interval, and whatever a subscriber applies adds up to the transcript.

import { afterEach, describe, expect, it, vi } from "vitest";
import type { TranscriptDelta } from "../../src/shared/api.js";
import { applyDelta, denormalize, emptyTranscriptState, type TranscriptState } from "../../src/shared/delta/index.js";
import type { Transcript } from "../../src/shared/transcript.js";
import { DeltaPublisher } from "../../src/main/core/deltaPublisher.js";

function transcriptWith(count: number): Transcript {
  return {
    sessionId: "s",
    status: "running",
    blocks: Array.from({ length: count }, (_, i) => ({ kind: "text" as const, id: `b${i}`, text: `line ${i}` })),
  };
}

/** A tab whose transcript grows by one block per `grow()`, with a subscriber that applies every delta. */
function tab(intervalMs: number) {
  let current = transcriptWith(0);
  const publisher = new DeltaPublisher({ transcript: () => current, pending: () => [] }, intervalMs);
  const received: { delta: TranscriptDelta; at: number }[] = [];
  let state: TranscriptState = emptyTranscriptState();
  publisher.subscribe("t", (delta) => {
    received.push({ delta, at: performance.now() });
    state = applyDelta(state, delta);
  });
  return {
    publisher,
    received,
    shown: () => denormalize(state),
    grow() {
      current = transcriptWith(current.blocks.length + 1);
      publisher.markDirty("t");
    },
    current: () => current,
  };
}

let open: DeltaPublisher | undefined;
afterEach(() => open?.close());

describe("DeltaPublisher", () => {
  it("sends a burst of changes as one delta, at once after a quiet spell", async () => {
    const t = tab(60_000); // an interval no test waits for: only the leading edge can send
    open = t.publisher;
    expect(t.received.map((r) => r.delta.reset)).toEqual([true]);
    for (let i = 0; i < 100; i++) t.grow();
    await vi.waitFor(() => expect(t.received).toHaveLength(2), { timeout: 5000 });
    expect(t.shown()).toEqual(t.current());
    expect(t.received[1]!.delta.upserts).toHaveLength(100);
  });

  it("sends a steady stream at most once per interval, ending with the latest transcript", async () => {
    const intervalMs = 40;
    const t = tab(intervalMs);
    open = t.publisher;
    const streamMs = 400;
    const start = performance.now();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        t.grow();
        if (performance.now() - start >= streamMs) {
          clearInterval(timer);
          resolve();
        }
      }, 2);
    });
    await vi.waitFor(() => expect(t.shown()).toEqual(t.current()), { timeout: 5000 });
    const deltas = t.received.slice(1);
    const gaps = deltas.slice(1).map((r, i) => r.at - deltas[i]!.at);
    // Timers fire late, never early; a delta is timed after its diff, which a GC pause may stretch.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(intervalMs - 10);
    expect(deltas.length).toBeLessThanOrEqual(Math.ceil((performance.now() - start) / intervalMs) + 1);
  });
});

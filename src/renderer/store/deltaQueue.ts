// Deltas arrive as fast as the main process sends them; the store takes them on an animation
// frame, at most once per MinFlushGapMs, so a burst of progress ticks costs one React commit and
// one layout. A busy session (ten subagents at 2,000 lines/s) changes a dozen cards every frame;
// redrawing them 20 times a second instead of 60 looks the same and halves the page's work. The
// first delta after a quiet spell is drawn on the next frame.

import type { TranscriptDelta } from "../../shared/api.js";
import { applyDelta, mergeDeltaList } from "../../shared/delta/index.js";
import { useApp, type TabState } from "./appStore.js";

const MinFlushGapMs = 50;

let queue: TranscriptDelta[] = [];
let scheduled = false;
let lastFlush = Number.NEGATIVE_INFINITY;
const listeners = new Set<(deltas: readonly TranscriptDelta[]) => void>();

export function enqueueDelta(delta: TranscriptDelta): void {
  queue.push(delta);
  if (scheduled) return;
  scheduled = true;
  // rAF stops in hidden tabs; a timeout keeps the store current for notifications.
  const hidden = typeof document === "undefined" || document.visibilityState === "hidden";
  if (hidden || typeof requestAnimationFrame === "undefined") {
    setTimeout(flushDeltas, MinFlushGapMs);
    return;
  }
  const wait = lastFlush + MinFlushGapMs - performance.now();
  if (wait <= 0) requestAnimationFrame(flushDeltas);
  else setTimeout(() => requestAnimationFrame(flushDeltas), wait);
}

/** Applies every queued delta in one store update. Exported for tests and benches. */
export function flushDeltas(): void {
  scheduled = false;
  if (queue.length === 0) return;
  lastFlush = performance.now();
  const batch = queue;
  queue = [];
  // One merged delta per tab: a frame's worth of ticks costs one copy of the maps, not one each.
  const byTab = new Map<string, TranscriptDelta[]>();
  for (const delta of batch) {
    const list = byTab.get(delta.tabId);
    if (list === undefined) byTab.set(delta.tabId, [delta]);
    else list.push(delta);
  }
  useApp.setState((s) => {
    const tabs: Record<string, TabState> = { ...s.tabs };
    for (const [tabId, deltas] of byTab) {
      const tab = tabs[tabId];
      if (tab === undefined) continue;
      tabs[tabId] = { ...tab, transcript: applyDelta(tab.transcript, mergeDeltaList(deltas)) };
    }
    return { tabs };
  });
  for (const listener of listeners) listener(batch);
}

/** Called after each flush with the deltas it applied (notifications). */
export function onDeltasApplied(listener: (deltas: readonly TranscriptDelta[]) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

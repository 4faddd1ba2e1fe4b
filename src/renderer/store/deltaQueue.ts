// Deltas arrive as fast as the main process sends them; the store takes them once per animation
// frame, so a burst of progress ticks costs one React commit.

import type { TranscriptDelta } from "../../shared/api.js";
import { applyDelta, mergeDeltas } from "../../shared/delta/index.js";
import { useApp, type TabState } from "./appStore.js";

let queue: TranscriptDelta[] = [];
let scheduled = false;
const listeners = new Set<(deltas: readonly TranscriptDelta[]) => void>();

export function enqueueDelta(delta: TranscriptDelta): void {
  queue.push(delta);
  if (scheduled) return;
  scheduled = true;
  // rAF stops in hidden tabs; a timeout keeps the store current for notifications.
  const hidden = typeof document === "undefined" || document.visibilityState === "hidden";
  if (hidden || typeof requestAnimationFrame === "undefined") setTimeout(flushDeltas, 50);
  else requestAnimationFrame(flushDeltas);
}

/** Applies every queued delta in one store update. Exported for tests and benches. */
export function flushDeltas(): void {
  scheduled = false;
  if (queue.length === 0) return;
  const batch = queue;
  queue = [];
  // One merged delta per tab: a frame's worth of ticks costs one copy of the maps, not one each.
  const byTab = new Map<string, TranscriptDelta>();
  for (const delta of batch) {
    const before = byTab.get(delta.tabId);
    byTab.set(delta.tabId, before === undefined ? delta : mergeDeltas(before, delta));
  }
  useApp.setState((s) => {
    const tabs: Record<string, TabState> = { ...s.tabs };
    for (const [tabId, delta] of byTab) {
      const tab = tabs[tabId];
      if (tab === undefined) continue;
      tabs[tabId] = { ...tab, transcript: applyDelta(tab.transcript, delta) };
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

// Deltas arrive at most one per tab every 50 ms (the main side paces them, DeltaPublisher); the
// app state takes whatever has arrived in one update, so deltas of several tabs cost one React commit.
//
// The app state is updated in a task of its own, not in an animation-frame callback: React's render
// and commit then run in one task and the browser's style, layout and paint in the next, instead
// of all in one that keeps input waiting (ten cards appearing at once took 50-60 ms together).

import type { TranscriptDelta } from "../../shared/api.js";
import { applyDelta, mergeDeltaList } from "../../shared/delta/index.js";
import { useApp, type TabState } from "./appState.js";

let queue: TranscriptDelta[] = [];
let scheduled = false;
const listeners = new Set<(deltas: readonly TranscriptDelta[]) => void>();

export function enqueueDelta(delta: TranscriptDelta): void {
  queue.push(delta);
  if (scheduled) return;
  scheduled = true;
  setTimeout(flushDeltas, 0);
}

/** Applies every queued delta in one update of the app state. Exported for tests and benches. */
export function flushDeltas(): void {
  scheduled = false;
  if (queue.length === 0) return;
  const batch = queue;
  queue = [];
  // One merged delta per tab: a burst of deltas costs one copy of the maps, not one each.
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

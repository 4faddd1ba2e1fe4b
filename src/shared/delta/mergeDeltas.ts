// Coalescing: deltas of one tab, in order, become one that has the same effect as applying them all.

import type { NormalizedBlock, PendingPermission, TranscriptDelta } from "../api.js";
import type { Transcript } from "../transcript.js";

/**
 * The deltas of one tab merged in one pass (folding them pairwise would copy the growing upserts
 * once per delta).
 */
export function mergeDeltaList(deltas: readonly TranscriptDelta[]): TranscriptDelta {
  const first = deltas[0];
  if (first === undefined) throw new Error("no deltas to merge");
  if (deltas.length === 1) return first;
  // A reset drops whatever came before it.
  let start = 0;
  for (let i = deltas.length - 1; i > 0; i--) {
    if (deltas[i]!.reset === true) {
      start = i;
      break;
    }
  }
  const upserts = new Map<string, NormalizedBlock>();
  const children: Record<string, readonly string[]> = {};
  let meta: Omit<Transcript, "blocks"> | undefined;
  let pending: readonly PendingPermission[] | undefined;
  for (let i = start; i < deltas.length; i++) {
    const delta = deltas[i]!;
    if (delta.tabId !== first.tabId) throw new Error(`cannot merge deltas of different tabs (${first.tabId}, ${delta.tabId})`);
    // Re-inserting keeps the newest version; order among upserts carries no meaning.
    for (const block of delta.upserts) {
      upserts.delete(block.id);
      upserts.set(block.id, block);
    }
    Object.assign(children, delta.children);
    meta = delta.meta ?? meta;
    pending = delta.pending ?? pending;
  }
  return {
    tabId: first.tabId,
    ...(deltas[start]!.reset === true ? { reset: true } : {}),
    ...(meta !== undefined ? { meta } : {}),
    upserts: [...upserts.values()],
    children,
    ...(pending !== undefined ? { pending } : {}),
  };
}

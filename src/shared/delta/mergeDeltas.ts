// Coalescing: two deltas of one tab in order become one that has the same effect as applying both.

import type { NormalizedBlock, TranscriptDelta } from "../api.js";

export function mergeDeltas(a: TranscriptDelta, b: TranscriptDelta): TranscriptDelta {
  if (a.tabId !== b.tabId) throw new Error(`cannot merge deltas of different tabs (${a.tabId}, ${b.tabId})`);
  if (b.reset === true) return b;
  const upserts = new Map<string, NormalizedBlock>();
  for (const block of a.upserts) upserts.set(block.id, block);
  for (const block of b.upserts) {
    // Re-inserting keeps the newest version; order among upserts carries no meaning.
    upserts.delete(block.id);
    upserts.set(block.id, block);
  }
  const meta = b.meta ?? a.meta;
  const pending = b.pending ?? a.pending;
  return {
    tabId: a.tabId,
    ...(a.reset === true ? { reset: true } : {}),
    ...(meta !== undefined ? { meta } : {}),
    upserts: [...upserts.values()],
    children: { ...a.children, ...b.children },
    ...(pending !== undefined ? { pending } : {}),
  };
}

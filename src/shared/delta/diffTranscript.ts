// The delta between two transcripts of one tab. The hub shares every unchanged subtree between
// states, so the walk compares object identity and descends only where something changed: a tick
// that updates one nested tool call costs one pass over the top-level list plus that one card.

import type { NormalizedBlock, PendingPermission, TranscriptDelta } from "../api.js";
import type { Block, Transcript } from "../transcript.js";
import { metaOf, nestedBlocks, normalizeBlock, sameExceptNested, sameMeta, shallowEqual, TopLevel } from "./normalize.js";

interface Collector {
  readonly upserts: NormalizedBlock[];
  readonly children: Record<string, readonly string[]>;
}

const NoPending: readonly PendingPermission[] = Object.freeze([]);

/**
 * What changed from `prev` to `next`, or undefined when nothing did. Without `prev` the delta is
 * a full `reset`. `pending` is compared by identity, then element by element.
 */
export function diffTranscript(
  tabId: string,
  prev: Transcript | undefined,
  next: Transcript,
  prevPending?: readonly PendingPermission[],
  nextPending?: readonly PendingPermission[],
): TranscriptDelta | undefined {
  if (prev === undefined) return fullDelta(tabId, next, nextPending ?? NoPending);
  const out: Collector = { upserts: [], children: {} };
  if (prev.blocks !== next.blocks) walkList(TopLevel, prev.blocks, next.blocks, out);
  const metaChanged = !sameMeta(prev, next);
  const pendingChanged = !samePending(prevPending ?? NoPending, nextPending ?? NoPending);
  if (!metaChanged && !pendingChanged && out.upserts.length === 0 && Object.keys(out.children).length === 0) return undefined;
  return {
    tabId,
    ...(metaChanged ? { meta: metaOf(next) } : {}),
    upserts: out.upserts,
    children: out.children,
    ...(pendingChanged ? { pending: nextPending ?? NoPending } : {}),
  };
}

/** Everything, for a new subscriber or after the tab's transcript was replaced. */
export function fullDelta(tabId: string, transcript: Transcript, pending: readonly PendingPermission[]): TranscriptDelta {
  const out: Collector = { upserts: [], children: {} };
  addAll(TopLevel, transcript.blocks, out);
  return { tabId, reset: true, meta: metaOf(transcript), upserts: out.upserts, children: out.children, pending };
}

function addAll(parentId: string, blocks: readonly Block[], out: Collector): void {
  out.children[parentId] = blocks.map((b) => b.id);
  for (const block of blocks) {
    out.upserts.push(normalizeBlock(block));
    const nested = nestedBlocks(block);
    if (nested !== undefined) addAll(block.id, nested, out);
  }
}

function walkList(parentId: string, prev: readonly Block[], next: readonly Block[], out: Collector): void {
  if (!sameIds(prev, next)) out.children[parentId] = next.map((b) => b.id);
  // Blocks usually keep their position; look the old one up by index first, by id otherwise.
  let byId: Map<string, Block> | undefined;
  for (let i = 0; i < next.length; i++) {
    const block = next[i]!;
    let old = prev[i];
    if (old === block) continue;
    if (old === undefined || old.id !== block.id) {
      byId ??= new Map(prev.map((b) => [b.id, b]));
      old = byId.get(block.id);
    }
    if (old === block) continue;
    if (old === undefined) {
      out.upserts.push(normalizeBlock(block));
      const nested = nestedBlocks(block);
      if (nested !== undefined) addAll(block.id, nested, out);
      continue;
    }
    walkBlock(old, block, out);
  }
}

function walkBlock(old: Block, block: Block, out: Collector): void {
  if (!sameExceptNested(old, block)) out.upserts.push(normalizeBlock(block));
  const before = nestedBlocks(old);
  const after = nestedBlocks(block);
  if (after === undefined) {
    // The record went away: drop its nested list so the receiver forgets those blocks.
    if (before !== undefined && before.length > 0) out.children[block.id] = [];
    return;
  }
  if (before === undefined) addAll(block.id, after, out);
  else if (before !== after) walkList(block.id, before, after, out);
}

function sameIds(a: readonly Block[], b: readonly Block[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.id !== b[i]!.id) return false;
  return true;
}

function samePending(a: readonly PendingPermission[], b: readonly PendingPermission[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!shallowEqual(a[i]!, b[i]!)) return false;
  return true;
}

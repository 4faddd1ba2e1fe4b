// Blocks travel normalised: a subagent's nested blocks are sent once, by id, under
// `children[parentBlockId]`, so a progress tick on one nested block does not resend the card.

import type { NormalizedBlock } from "../api.js";
import type { Block, Transcript } from "../transcript.js";

export type TranscriptMeta = Omit<Transcript, "blocks">;

/** The top level's key in `children`. */
export const TopLevel = "";

const EmptyBlocks: readonly Block[] = Object.freeze([]);

/** The block with `call.subagent.blocks` emptied (the nested ids travel in `children`). */
export function normalizeBlock(block: Block): NormalizedBlock {
  const record = block.call?.subagent;
  if (block.call === undefined || record === undefined || record.blocks.length === 0) return block;
  return { ...block, call: { ...block.call, subagent: { ...record, blocks: EmptyBlocks } } };
}

/** The nested blocks of a block, or undefined when it has no subagent record. */
export function nestedBlocks(block: Block): readonly Block[] | undefined {
  return block.call?.subagent?.blocks;
}

/** True when the two blocks are equal apart from their nested blocks (compared by identity, field by field). */
export function sameExceptNested(a: Block, b: Block): boolean {
  if (a === b) return true;
  if (!shallowEqual(a, b, "call")) return false;
  const ca = a.call;
  const cb = b.call;
  if (ca === cb) return true;
  if (ca === undefined || cb === undefined) return false;
  if (!shallowEqual(ca, cb, "subagent")) return false;
  const ra = ca.subagent;
  const rb = cb.subagent;
  if (ra === rb) return true;
  if (ra === undefined || rb === undefined) return false;
  return shallowEqual(ra, rb, "blocks");
}

/** Transcript fields other than `blocks`. */
export function metaOf(transcript: Transcript): TranscriptMeta {
  const { blocks: _blocks, ...meta } = transcript;
  return meta;
}

export function sameMeta(a: Transcript, b: Transcript): boolean {
  return shallowEqual(a, b, "blocks");
}

/** Same own keys with identical values, ignoring `skip` and keys whose value is undefined. */
export function shallowEqual(a: object, b: object, skip?: string): boolean {
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let count = 0;
  for (const key in ra) {
    if (key === skip || ra[key] === undefined) continue;
    if (ra[key] !== rb[key]) return false;
    count++;
  }
  for (const key in rb) {
    if (key === skip || rb[key] === undefined) continue;
    count--;
  }
  return count === 0;
}

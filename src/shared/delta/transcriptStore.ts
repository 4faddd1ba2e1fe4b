// The renderer's normalised copy of one tab's transcript, and how a delta changes it. Updates are
// copy-on-write: a delta makes new Maps only for the parts it changed, so a selector that reads one
// block by id sees a new object exactly when that block changed.

import type { NormalizedBlock, PendingPermission, TranscriptDelta } from "../api.js";
import type { Block, Transcript } from "../transcript.js";
import { TopLevel, type TranscriptMeta } from "./normalize.js";

export interface TranscriptStore {
  readonly meta?: TranscriptMeta;
  readonly blocksById: ReadonlyMap<string, NormalizedBlock>;
  /** Ordered child ids by parent block id; "" is the top level. */
  readonly children: ReadonlyMap<string, readonly string[]>;
  readonly pending: readonly PendingPermission[];
}

const NoIds: readonly string[] = Object.freeze([]);

export function emptyTranscriptStore(): TranscriptStore {
  return { blocksById: new Map(), children: new Map(), pending: [] };
}

export function applyDelta(store: TranscriptStore, delta: TranscriptDelta): TranscriptStore {
  const base = delta.reset === true ? emptyTranscriptStore() : store;
  const childEntries = Object.entries(delta.children);
  let blocks: Map<string, NormalizedBlock> | undefined;
  for (const block of delta.upserts) {
    // A block nobody lists is dropped; only a list change can make a new block reachable.
    if (childEntries.length === 0 && !base.blocksById.has(block.id)) continue;
    blocks ??= new Map(base.blocksById);
    blocks.set(block.id, block);
  }
  let children: Map<string, readonly string[]> | undefined;
  if (childEntries.length > 0) {
    children = new Map(base.children);
    for (const [parentId, ids] of childEntries) children.set(parentId, ids);
    blocks = sweep(blocks ?? base.blocksById, children, base.blocksById);
  }
  return {
    ...(delta.meta !== undefined ? { meta: delta.meta } : base.meta !== undefined ? { meta: base.meta } : {}),
    blocksById: blocks ?? base.blocksById,
    children: children ?? base.children,
    pending: delta.pending ?? base.pending,
  };
}

/**
 * Forgets blocks (and nested lists) no longer reachable from the top level. Edits `children` in
 * place (it is already a fresh copy); returns a fresh blocks map only when something went.
 */
function sweep(
  blocks: ReadonlyMap<string, NormalizedBlock>,
  children: Map<string, readonly string[]>,
  original: ReadonlyMap<string, NormalizedBlock>,
): Map<string, NormalizedBlock> | undefined {
  const reachable = new Set<string>();
  const stack = [TopLevel];
  while (stack.length > 0) {
    const parentId = stack.pop()!;
    for (const id of children.get(parentId) ?? NoIds) {
      if (reachable.has(id) || !blocks.has(id)) continue;
      reachable.add(id);
      if (children.has(id)) stack.push(id);
    }
  }
  for (const parentId of children.keys()) {
    if (parentId !== TopLevel && !reachable.has(parentId)) children.delete(parentId);
  }
  const changed = blocks !== original;
  if (reachable.size === blocks.size) return changed ? (blocks as Map<string, NormalizedBlock>) : undefined;
  const kept = new Map<string, NormalizedBlock>();
  for (const [id, block] of blocks) if (reachable.has(id)) kept.set(id, block);
  return kept;
}

/** The store as a Transcript again (tests, export from the renderer). */
export function denormalize(store: TranscriptStore): Transcript {
  const meta = store.meta ?? { sessionId: "", status: "idle" as const };
  return { ...meta, blocks: blocksUnder(store, TopLevel) };
}

/** The blocks under `parentId`, with nested records filled in. */
export function blocksUnder(store: TranscriptStore, parentId: string): readonly Block[] {
  const out: Block[] = [];
  for (const id of store.children.get(parentId) ?? NoIds) {
    const block = store.blocksById.get(id);
    if (block === undefined) continue;
    const call = block.call;
    const record = call?.subagent;
    if (call === undefined || record === undefined) {
      out.push(block);
      continue;
    }
    out.push({ ...block, call: { ...call, subagent: { ...record, blocks: blocksUnder(store, id) } } });
  }
  return out;
}

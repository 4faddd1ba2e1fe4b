// The renderer's normalised copy of one tab's transcript, and how a delta changes it. Updates are
// copy-on-write: a delta makes new Maps only for the parts it changed, so a selector that reads one
// block by id sees a new object exactly when that block changed.

import type { NormalizedBlock, PendingPermission, TranscriptDelta } from "../api.js";
import type { Block, Transcript } from "../transcript.js";
import { listShift } from "./listShift.js";
import { TopLevel, type TranscriptMeta } from "./normalize.js";

export interface TranscriptState {
  readonly meta?: TranscriptMeta;
  readonly blocksById: ReadonlyMap<string, NormalizedBlock>;
  /** Ordered child ids by parent block id; "" is the top level. */
  readonly children: ReadonlyMap<string, readonly string[]>;
  readonly pending: readonly PendingPermission[];
  /**
   * Counts the deltas that turned a block already listed into a subagent call (a task_started for
   * a call seen before). A list of ids and this number together fix which of them are subagents,
   * so a view of the agent tree can skip re-reading blocks on every progress tick.
   */
  readonly agentEpoch: number;
}

const NoIds: readonly string[] = Object.freeze([]);

export function emptyTranscriptState(): TranscriptState {
  return { blocksById: new Map(), children: new Map(), pending: [], agentEpoch: 0 };
}

export function applyDelta(state: TranscriptState, delta: TranscriptDelta): TranscriptState {
  const base = delta.reset === true ? emptyTranscriptState() : state;
  const lists = Object.entries(delta.children);
  let children: Map<string, readonly string[]> | undefined;
  const added = new Set<string>();
  const lost: string[] = [];
  if (lists.length > 0) {
    children = new Map(base.children);
    for (const [parentId, ids] of lists) {
      compareLists(base.children.get(parentId) ?? NoIds, ids, added, lost);
      children.set(parentId, ids);
    }
  }
  let blocks: Map<string, NormalizedBlock> | undefined;
  let becameAgent = false;
  for (const block of delta.upserts) {
    const before = base.blocksById.get(block.id);
    // A block nobody lists is dropped; only a list change can make a new block reachable.
    if (before === undefined && !added.has(block.id)) continue;
    if (before !== undefined && before.call?.subagent === undefined && block.call?.subagent !== undefined) becameAgent = true;
    blocks ??= new Map(base.blocksById);
    blocks.set(block.id, block);
  }
  const gone = lost.filter((id) => !added.has(id)); // an id may move from one list to another
  if (gone.length > 0 && children !== undefined) {
    blocks ??= new Map(base.blocksById);
    forget(gone, blocks, children);
  }
  // A list whose owner is not there (a card added and removed within one coalesced delta) makes
  // its blocks unreachable: then, and only then, walk the whole tree.
  const shown = blocks ?? base.blocksById;
  if (children !== undefined && lists.some(([parentId]) => parentId !== TopLevel && !shown.has(parentId))) {
    blocks = sweep(shown, children, base.blocksById) ?? blocks;
  }
  return {
    ...(delta.meta !== undefined ? { meta: delta.meta } : base.meta !== undefined ? { meta: base.meta } : {}),
    blocksById: blocks ?? base.blocksById,
    children: children ?? base.children,
    pending: delta.pending ?? base.pending,
    agentEpoch: base.agentEpoch + (becameAgent ? 1 : 0),
  };
}

/**
 * Adds to `added` the ids of `next` not in `previous` and to `lost` those gone from it; the common
 * shifts (see listShift) cost what changed, not the size of the transcript.
 */
function compareLists(previous: readonly string[], next: readonly string[], added: Set<string>, lost: string[]): void {
  const shift = listShift(previous, next);
  if (shift !== undefined) {
    for (let i = 0; i < shift.head; i++) lost.push(previous[i] as string);
    for (let i = shift.kept; i < next.length; i++) added.add(next[i] as string);
    return;
  }
  const before = new Set(previous);
  const after = new Set(next);
  for (const id of previous) if (!after.has(id)) lost.push(id);
  for (const id of next) if (!before.has(id)) added.add(id);
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
    const parentId = stack.pop() as string;
    for (const id of children.get(parentId) ?? NoIds) {
      if (reachable.has(id) || !blocks.has(id)) continue;
      reachable.add(id);
      if (children.has(id)) stack.push(id);
    }
  }
  for (const parentId of children.keys()) {
    if (parentId !== TopLevel && !reachable.has(parentId)) children.delete(parentId);
  }
  if (reachable.size === blocks.size) return blocks !== original ? (blocks as Map<string, NormalizedBlock>) : undefined;
  const kept = new Map<string, NormalizedBlock>();
  for (const [id, block] of blocks) if (reachable.has(id)) kept.set(id, block);
  return kept;
}

/** Removes the blocks `ids` and everything nested under them (their lists go too). */
function forget(ids: readonly string[], blocks: Map<string, NormalizedBlock>, children: Map<string, readonly string[]>): void {
  const stack = [...ids];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    blocks.delete(id);
    const nested = children.get(id);
    if (nested === undefined) continue;
    children.delete(id);
    stack.push(...nested);
  }
}

/** The state as a Transcript again (tests, export from the renderer). */
export function denormalize(state: TranscriptState): Transcript {
  const meta = state.meta ?? { sessionId: "", status: "idle" as const };
  return { ...meta, blocks: blocksUnder(state, TopLevel) };
}

/** The blocks under `parentId`, with nested records filled in. */
export function blocksUnder(state: TranscriptState, parentId: string): readonly Block[] {
  const out: Block[] = [];
  for (const id of state.children.get(parentId) ?? NoIds) {
    const block = state.blocksById.get(id);
    if (block === undefined) continue;
    const call = block.call;
    const record = call?.subagent;
    if (call === undefined || record === undefined) {
      out.push(block);
      continue;
    }
    out.push({ ...block, call: { ...call, subagent: { ...record, blocks: blocksUnder(state, id) } } });
  }
  return out;
}

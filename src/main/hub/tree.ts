// Edits of the block tree in the store, each logged. Appending to a record's list drops its oldest
// blocks past MaxNestedBlocks. A change marks the built blocks of the node and of every enclosing
// card stale, so toTranscript rebuilds only those and shares everything else.

import { MaxNestedBlocks } from "../../shared/transcript.js";
import type { Draft } from "./draft.js";
import { idOf, listOf, type BlockList, type Node, type Store } from "./store.js";
import { write, writeMap } from "./undoLog.js";

/** Drop the dead prefix of a list's items array once it is this long. */
const CompactAfter = 2 * MaxNestedBlocks;

/** The node's own content changed (its call, or its block for text-like blocks). */
export function changed(d: Draft, node: Node): void {
  if (node.call !== undefined) node.block = undefined;
  stale(d.store, node.owner);
}

/**
 * Marks the list of `owner` (undefined = top level) and every enclosing card as needing a rebuild.
 * A built ancestor implies built descendants, so the walk stops at the first stale one. These
 * writes are not logged: rerooting clears every cache instead (see `clearBuilt`).
 */
export function stale(store: Store, owner: Node | undefined): void {
  let list = listOf(store, owner);
  while (list.built !== undefined) {
    list.built = undefined;
    if (owner === undefined) return;
    owner.block = undefined;
    owner = owner.owner;
    list = listOf(store, owner);
  }
}

/** Forgets every built block of the tree as `store` now stands (after a reroot). */
export function clearBuilt(list: BlockList): void {
  list.built = undefined;
  for (let seq = list.dropped; seq < list.count; seq++) {
    const node = list.items[seq - list.offset];
    if (node === undefined || node.call === undefined) continue;
    node.block = undefined;
    if (node.list !== undefined) clearBuilt(node.list);
  }
}

/** Appends `node` to `list`, its owner's list (the top level when it has none), dropping blocks past the cap. */
export function append(d: Draft, list: BlockList, node: Node): void {
  // Logged by hand, not with write(): these run for every block, and write()'s computed keys over
  // many shapes make every access in it megamorphic.
  const at = list.count - list.offset;
  d.log.note(list.items, at, list.items[at]);
  list.items[at] = node;
  d.log.note(list, "count", list.count);
  list.count++;
  if (node.owner !== undefined) cap(d, list);
  stale(d.store, node.owner);
}

function cap(d: Draft, list: BlockList): void {
  const keep = list.count - MaxNestedBlocks;
  const from = list.dropped;
  if (from >= keep) return;
  d.log.note(list, "dropped", from);
  list.dropped = keep;
  const items = list.items;
  for (let seq = from; seq < keep; seq++) {
    const gone = items[seq - list.offset];
    if (gone === undefined) continue;
    // Let go of it now (what it holds is what the cap is for), not when the array is compacted.
    d.log.note(items, seq - list.offset, gone);
    items[seq - list.offset] = undefined;
    // Only a block that holds a record is in a store-wide index. Most lists never held one, and
    // then the dropped node is not even read: it is 120 steps old, and reading it was a cache miss.
    if (list.hasRecords && gone.list !== undefined) bury(d, gone, idOf(gone));
  }
  if (list.dropped - list.offset >= CompactAfter) {
    write(d.log, list, "items", list.items.slice(list.dropped - list.offset));
    write(d.log, list, "offset", list.dropped);
  }
}

/**
 * A dropped block, and whatever its record held, leaves the store-wide indexes; a dropped record
 * is remembered as gone. (The lists inside a dropped record are unreachable, so their own
 * indexes need no edit.)
 */
function bury(d: Draft, node: Node, id: string): void {
  if (node.open) writeMap(d.log, d.store.open, id, undefined);
  const list = node.list;
  if (list === undefined) return;
  writeMap(d.log, d.store.agents, id, undefined);
  writeMap(d.log, d.store.droppedRecords, id, true);
  for (let seq = list.dropped; seq < list.count; seq++) {
    const inner = list.items[seq - list.offset];
    if (inner?.list !== undefined) bury(d, inner, idOf(inner)); // only records are indexed store-wide
  }
}

/** The text of the newest text block of a list, if it still holds one: a subagent's latest answer. */
export function latestText(list: BlockList): string | undefined {
  for (let seq = list.count - 1; seq >= list.dropped; seq--) {
    const block = list.items[seq - list.offset]?.block;
    if (block?.kind === "text") return block.text;
  }
  return undefined;
}

/** Nesting depth: 1 at the top level. */
export function depthOf(node: Node | undefined): number {
  let depth = 0;
  for (let n = node; n !== undefined; n = n.owner) depth++;
  return depth;
}

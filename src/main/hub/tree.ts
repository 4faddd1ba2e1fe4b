// Appending to the block tree and marking what changed. Appending to a record's list drops its
// oldest blocks past MaxNestedBlocks. A change marks the built blocks of the node and of every
// enclosing card stale, so the next transcript rebuilds only those and shares everything else.

import { MaxNestedBlocks } from "../../shared/transcript.js";
import type { SessionModel } from "./session.js";
import { idOf, listOf, type BlockList, type BlockTree, type Node } from "./blockTree.js";

/** Drop the dead prefix of a list's items array once it is this long. */
const CompactAfter = 2 * MaxNestedBlocks;

/** The node's own content changed (its call, or its block for text-like blocks). */
export function changed(s: SessionModel, node: Node): void {
  if (node.call !== undefined) node.block = undefined;
  stale(s.tree, node.owner);
}

/**
 * Marks the list of `owner` (undefined = top level) and every enclosing card as needing a rebuild.
 * A built ancestor implies built descendants, so the walk stops at the first stale one.
 */
export function stale(tree: BlockTree, owner: Node | undefined): void {
  let list = listOf(tree, owner);
  while (list.built !== undefined) {
    list.built = undefined;
    if (owner === undefined) return;
    owner.block = undefined;
    owner = owner.owner;
    list = listOf(tree, owner);
  }
}

/** Appends `node` to `list`, its owner's list (the top level when it has none), dropping blocks past the cap. */
export function append(s: SessionModel, list: BlockList, node: Node): void {
  list.items[list.count - list.offset] = node;
  list.count++;
  if (node.owner !== undefined) cap(s, list);
  stale(s.tree, node.owner);
}

function cap(s: SessionModel, list: BlockList): void {
  const keep = list.count - MaxNestedBlocks;
  const from = list.dropped;
  if (from >= keep) return;
  list.dropped = keep;
  const items = list.items;
  for (let seq = from; seq < keep; seq++) {
    const gone = items[seq - list.offset];
    if (gone === undefined) continue;
    // Let go of it now (what it holds is what the cap is for), not when the array is compacted.
    items[seq - list.offset] = undefined;
    // Only a block that holds a record is in a tree-wide index. Most lists never held one, and
    // then the dropped node is not even read: it is 120 steps old, and reading it was a cache miss.
    if (list.hasRecords && gone.list !== undefined) bury(s, gone, idOf(gone));
  }
  if (list.dropped - list.offset >= CompactAfter) {
    list.items = list.items.slice(list.dropped - list.offset);
    list.offset = list.dropped;
  }
}

/**
 * A dropped block, and whatever its record held, leaves the tree-wide indexes; a dropped record
 * is remembered as gone. (The lists inside a dropped record are unreachable, so their own
 * indexes need no edit.)
 */
function bury(s: SessionModel, node: Node, id: string): void {
  if (node.open) s.tree.open.delete(id);
  const list = node.list;
  if (list === undefined) return;
  s.tree.agents.delete(id);
  s.tree.droppedRecords.set(id, true);
  for (let seq = list.dropped; seq < list.count; seq++) {
    const inner = list.items[seq - list.offset];
    if (inner?.list !== undefined) bury(s, inner, idOf(inner)); // only records are indexed tree-wide
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

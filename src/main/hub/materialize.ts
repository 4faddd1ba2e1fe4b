// Builds the Transcript's blocks from the store on demand. Built blocks and lists are cached on
// their nodes until a change marks them stale (tree.ts), so a block that did not change is the
// same object in every transcript that shows it.

import type { Block } from "../../shared/transcript.js";
import { withProgress } from "./progress.js";
import { callWithSubagent, recordWithBlocks } from "./shapes.js";
import type { BlockList, Node } from "./store.js";

export function blocksOf(list: BlockList): readonly Block[] {
  if (list.built !== undefined) return list.built;
  const out: Block[] = [];
  for (let seq = list.dropped; seq < list.count; seq++) {
    const node = list.items[seq - list.offset];
    if (node !== undefined) out.push(blockOf(node));
  }
  list.built = out;
  return out;
}

export function blockOf(node: Node): Block {
  if (node.block !== undefined) return node.block;
  const call = node.call;
  if (call === undefined) throw new Error("hub: a block node without block or call");
  const record = call.subagent === undefined || node.progress === undefined ? call.subagent : withProgress(call.subagent, node.progress);
  const list = node.list;
  const full = record === undefined || list === undefined ? call : callWithSubagent(call, recordWithBlocks(record, blocksOf(list), list.dropped));
  const block: Block = {
    kind: "tool",
    id: call.toolUseId,
    text: undefined,
    call: full,
    level: undefined,
    streaming: undefined,
    images: undefined,
    timestamp: undefined,
  };
  node.block = block;
  return block;
}

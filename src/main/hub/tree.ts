// Path-copying edits of the transcript tree. A path is the top-level index followed by each nested
// block's sequence number inside its subagent record (sequence = index + droppedBlockCount, so a
// path stays valid when old blocks are dropped from the front).

import { MaxNestedBlocks, type Block, type SubagentRecord, type ToolCallRecord } from "../../shared/transcript.js";
import type { PersistentVector } from "./persistentVector.js";
import { blockWithCall, callWithSubagent, recordWithBlocks } from "./shapes.js";
import type { Path } from "./state.js";

type Top = PersistentVector<Block>;

export function getBlock(top: Top, path: Path): Block | undefined {
  let block = top.get(path[0] ?? -1);
  for (let i = 1; i < path.length && block !== undefined; i++) {
    const record = block.call?.subagent;
    if (record === undefined) return undefined;
    block = record.blocks[(path[i] ?? 0) - record.droppedBlockCount];
  }
  return block;
}

export function updateBlock(top: Top, path: Path, fn: (block: Block) => Block): Top {
  const first = path[0] ?? -1;
  const block = top.get(first);
  if (block === undefined) return top;
  const next = updateIn(block, path, 1, fn);
  return next === block ? top : top.set(first, next);
}

function updateIn(block: Block, path: Path, depth: number, fn: (block: Block) => Block): Block {
  if (depth === path.length) return fn(block);
  const record = block.call?.subagent;
  if (record === undefined) return block;
  const index = (path[depth] ?? 0) - record.droppedBlockCount;
  const child = record.blocks[index];
  if (child === undefined) return block;
  const next = updateIn(child, path, depth + 1, fn);
  if (next === child) return block;
  const blocks = record.blocks.slice();
  blocks[index] = next;
  return withRecord(block, recordWithBlocks(record, blocks, record.droppedBlockCount));
}

export function withRecord(block: Block, record: SubagentRecord): Block {
  const call = block.call;
  return call === undefined ? block : blockWithCall(block, callWithSubagent(call, record));
}

export function updateCall(top: Top, path: Path, fn: (call: ToolCallRecord) => ToolCallRecord): Top {
  return updateBlock(top, path, (block) => {
    if (block.call === undefined) return block;
    const call = fn(block.call);
    return call === block.call ? block : blockWithCall(block, call);
  });
}

export function updateRecord(top: Top, path: Path, fn: (record: SubagentRecord) => SubagentRecord): Top {
  return updateBlock(top, path, (block) => {
    const record = block.call?.subagent;
    if (record === undefined) return block;
    const next = fn(record);
    return next === record ? block : withRecord(block, next);
  });
}

/** Appends to the top level (`parent` undefined) or to the record at `parent`, capping its blocks. */
export function appendBlock(top: Top, parent: Path | undefined, block: Block): { top: Top; path: Path } | undefined {
  if (parent === undefined) return { top: top.push(block), path: [top.size] };
  let path: Path | undefined;
  const next = updateRecord(top, parent, (record) => {
    path = [...parent, record.droppedBlockCount + record.blocks.length];
    return appendCapped(record, block);
  });
  return path === undefined ? undefined : { top: next, path };
}

function appendCapped(record: SubagentRecord, block: Block): SubagentRecord {
  const over = record.blocks.length + 1 - MaxNestedBlocks;
  if (over <= 0) {
    const blocks = record.blocks.slice();
    blocks.push(block);
    return recordWithBlocks(record, blocks, record.droppedBlockCount);
  }
  const blocks = record.blocks.slice(over);
  blocks.push(block);
  return recordWithBlocks(record, blocks, record.droppedBlockCount + over);
}

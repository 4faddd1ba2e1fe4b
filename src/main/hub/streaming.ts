// Partial messages (`--include-partial-messages`): text and thinking deltas build a streaming
// top-level block, which the block's complete `assistant` line (emitted before content_block_stop,
// PROTOCOL.md §2.5) replaces in place. Deltas that name a parent never touch the top level.

import type { StreamDeltaEvent } from "../../shared/events.js";
import type { Block } from "../../shared/transcript.js";
import { addBlock, replaceBlock, type Draft } from "./draft.js";
import { makeBlock } from "./shapes.js";
import type { StreamingMessage } from "./state.js";
import { writeMap } from "./undoLog.js";

export function onStreamDelta(d: Draft, ev: StreamDeltaEvent): void {
  if (ev.parentToolUseId !== null) return;
  const e = ev.event;
  switch (e.type) {
    case "message_start":
      finishStreaming(d);
      d.streaming = { messageId: e.message.id, blocks: [] };
      return;
    case "content_block_start": {
      const s = d.streaming;
      const kind = e.content_block.type;
      if (s === undefined || (kind !== "text" && kind !== "thinking")) return;
      const block: Block = makeBlock({ kind, id: `${s.messageId}:stream:${e.index}`, text: "", streaming: true });
      const node = addBlock(d, undefined, block);
      d.streaming = { ...s, blocks: [...s.blocks, { index: e.index, node, kind, done: false }] };
      return;
    }
    case "content_block_delta": {
      const text = e.delta.type === "text_delta" ? e.delta.text : e.delta.type === "thinking_delta" ? e.delta.thinking : undefined;
      const open = d.streaming?.blocks.find((b) => b.index === e.index && !b.done);
      if (typeof text !== "string" || open === undefined) return; // the parser checks a delta's type, not its text
      const current = open.node.block;
      if (current !== undefined) replaceBlock(d, open.node, { ...current, text: (current.text ?? "") + text });
      return;
    }
    case "message_stop":
      finishStreaming(d);
      return;
    default:
      return;
  }
}

/** Replaces the oldest unfinished streaming block of this message and kind; false if none. */
export function replaceStreamingBlock(d: Draft, messageId: string, block: Block): boolean {
  const s = d.streaming;
  if (s === undefined || s.messageId !== messageId) return false;
  const open = s.blocks.find((b) => !b.done && b.kind === block.kind);
  if (open === undefined) return false;
  replaceBlock(d, open.node, block);
  writeMap(d.log, d.store.top.index, block.id, open.node.seq);
  d.streaming = { ...s, blocks: s.blocks.map((b) => (b === open ? { ...b, done: true } : b)) };
  return true;
}

/** A stream that ended without its assistant line (interrupt): keep the text, stop the spinner. */
export function finishStreaming(d: Draft): void {
  const s: StreamingMessage | undefined = d.streaming;
  if (s === undefined) return;
  for (const b of s.blocks) {
    if (b.done) continue;
    const current = b.node.block;
    if (current?.streaming === true) replaceBlock(d, b.node, { ...current, streaming: false });
  }
  d.streaming = undefined;
}

// Partial messages (`--include-partial-messages`): text and thinking deltas build a streaming
// top-level block, which the block's complete `assistant` line (the CLI writes it before the
// block's content_block_stop) replaces in place. Deltas that name a parent never touch the top level.

import type { StreamDeltaEvent } from "../../shared/events.js";
import type { Block } from "../../shared/transcript.js";
import { addBlock, replaceBlock } from "./edits.js";
import type { SessionModel } from "./session.js";
import { makeBlock } from "./shapes.js";
import type { StreamingMessage } from "./session.js";

export function onStreamDelta(s: SessionModel, ev: StreamDeltaEvent): void {
  if (ev.parentToolUseId !== null) return;
  const e = ev.event;
  switch (e.type) {
    case "message_start":
      finishStreaming(s);
      s.streaming = { messageId: e.message.id, blocks: [] };
      return;
    case "content_block_start": {
      const msg = s.streaming;
      const kind = e.content_block.type;
      if (msg === undefined || (kind !== "text" && kind !== "thinking")) return;
      const block: Block = makeBlock({ kind, id: `${msg.messageId}:stream:${e.index}`, text: "", streaming: true });
      const node = addBlock(s, undefined, block);
      s.streaming = { ...msg, blocks: [...msg.blocks, { index: e.index, node, kind, done: false }] };
      return;
    }
    case "content_block_delta": {
      const text = e.delta.type === "text_delta" ? e.delta.text : e.delta.type === "thinking_delta" ? e.delta.thinking : undefined;
      const open = s.streaming?.blocks.find((b) => b.index === e.index && !b.done);
      if (typeof text !== "string" || open === undefined) return; // the parser checks a delta'msg type, not its text
      const current = open.node.block;
      if (current !== undefined) replaceBlock(s, open.node, { ...current, text: (current.text ?? "") + text });
      return;
    }
    case "message_stop":
      finishStreaming(s);
      return;
    default:
      return;
  }
}

/** Replaces the oldest unfinished streaming block of this message and kind; false if none. */
export function replaceStreamingBlock(s: SessionModel, messageId: string, block: Block): boolean {
  const msg = s.streaming;
  if (msg === undefined || msg.messageId !== messageId) return false;
  const open = msg.blocks.find((b) => !b.done && b.kind === block.kind);
  if (open === undefined) return false;
  replaceBlock(s, open.node, block);
  s.tree.top.index.set(block.id, open.node.seq);
  s.streaming = { ...msg, blocks: msg.blocks.map((b) => (b === open ? { ...b, done: true } : b)) };
  return true;
}

/** A stream that ended without its assistant line (interrupt): keep the text, stop the spinner. */
export function finishStreaming(s: SessionModel): void {
  const msg: StreamingMessage | undefined = s.streaming;
  if (msg === undefined) return;
  for (const b of msg.blocks) {
    if (b.done) continue;
    const current = b.node.block;
    if (current?.streaming === true) replaceBlock(s, b.node, { ...current, streaming: false });
  }
  s.streaming = undefined;
}

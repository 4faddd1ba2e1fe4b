// Every block of a transcript with the record it sits in, for tests that compare placements.

import type { Block, Transcript } from "../../src/shared/transcript.js";

export interface Placed {
  readonly block: Block;
  /** The Agent tool_use id of the record the block sits in; "top" for the conductor. */
  readonly owner: string;
}

export function placedBlocks(t: Transcript): Placed[] {
  const out: Placed[] = [];
  const go = (blocks: readonly Block[], owner: string): void => {
    for (const block of blocks) {
      out.push({ block, owner });
      if (block.call?.subagent !== undefined) go(block.call.subagent.blocks, block.call.toolUseId);
    }
  };
  go(t.blocks, "top");
  return out;
}

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

/** What a live/restored comparison checks of each block (notices exist only live, so none). */
export interface BlockShape {
  readonly kind: string;
  readonly owner: string;
  readonly name?: string;
  readonly status?: string;
  readonly subagent?: string;
  readonly permission?: string;
}

/** Block id → its shape; `withPermission` adds the permission state and who decided it. */
export function blockShapes(t: Transcript, withPermission = false): Map<string, BlockShape> {
  const out = new Map<string, BlockShape>();
  for (const { block, owner } of placedBlocks(t)) {
    if (block.kind === "notice") continue; // turn-end and retry notices exist only live
    const c = block.call;
    const p = withPermission ? c?.permission : undefined;
    out.set(block.id, {
      kind: block.kind,
      owner,
      ...(c !== undefined ? { name: c.name, status: c.status } : {}),
      ...(c?.subagent !== undefined ? { subagent: c.subagent.status } : {}),
      ...(p !== undefined ? { permission: `${p.requestId} ${p.state} by ${p.decidedBy ?? "-"}: ${p.message ?? ""}` } : {}),
    });
  }
  return out;
}


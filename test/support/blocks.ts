// Hand-made blocks for renderer tests.
import type { Block, SubagentRecord } from "../../src/shared/transcript.js";

/** A running Agent call whose record is empty unless `record` says otherwise. */
export function agentBlock(id: string, record: Partial<SubagentRecord> = {}): Block {
  return {
    kind: "tool",
    id,
    call: {
      toolUseId: id,
      name: "Agent",
      input: {},
      status: "running",
      subagent: { toolUseId: id, taskId: "", subagentType: "general-purpose", description: "d", prompt: "p", background: false, status: "running", blocks: [], droppedBlockCount: 0, ...record },
    },
  };
}

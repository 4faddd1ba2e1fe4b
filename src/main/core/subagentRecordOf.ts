// A subagent's record found by its agent (task) id, through nested records: the transcript walk
// for callers that have no index to ask (an agent the task events never linked to its call).

import type { Block, SubagentRecord, Transcript } from "../../shared/transcript.js";

export function agentRecordOf(transcript: Transcript, agentId: string): SubagentRecord | undefined {
  const search = (blocks: readonly Block[]): SubagentRecord | undefined => {
    for (const b of blocks) {
      const record = b.call?.subagent;
      if (record === undefined) continue;
      if (record.taskId === agentId) return record;
      const inner = search(record.blocks);
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  return search(transcript.blocks);
}

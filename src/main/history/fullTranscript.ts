// The transcript with every loaded subagent's complete block list in place of the record's
// capped one (export prints everything; the live model keeps at most MaxNestedBlocks per card).

import type { Block, SubagentRecord, Transcript } from "../../shared/transcript.js";
import type { HistorySession } from "./historySession.js";
import { annotatedTranscript } from "./sidechainPaths.js";

export function fullTranscript(session: HistorySession): Transcript {
  const transcript = annotatedTranscript(session);
  return { ...transcript, blocks: expand(session, transcript.blocks) };
}

function expand(session: HistorySession, blocks: readonly Block[]): readonly Block[] {
  return blocks.map((block) => {
    const record = block.call?.subagent;
    if (block.call === undefined || record === undefined) return block;
    return { ...block, call: { ...block.call, subagent: expandRecord(session, record) } };
  });
}

function expandRecord(session: HistorySession, record: SubagentRecord): SubagentRecord {
  // Records inside a full list were rebuilt on their own; the session's copy knows more.
  const known = session.model.findToolCall(record.toolUseId)?.subagent ?? record;
  const agentId = session.links.get(record.toolUseId)?.agentId;
  const base = known.taskId === "" && agentId !== undefined ? { ...known, taskId: agentId } : known;
  const full = session.loaded.get(record.toolUseId);
  if (full === undefined || full.length === 0) return { ...base, blocks: expand(session, base.blocks) };
  return { ...base, blocks: expand(session, full), droppedBlockCount: 0 };
}

// Constructors that give every Block, ToolCallRecord and SubagentRecord the same keys in the same
// order (absent optional fields are present as undefined, which JSON drops). One hidden class per
// type keeps the hub's copies and reads monomorphic: conditional spreads made it several
// times slower.

import type { Block, SubagentRecord, ToolCallRecord } from "../../shared/transcript.js";

export function makeBlock(b: Block): Block {
  return {
    kind: b.kind,
    id: b.id,
    text: b.text,
    call: b.call,
    level: b.level,
    streaming: b.streaming,
    images: b.images,
    timestamp: b.timestamp,
    queued: b.queued,
    rewound: b.rewound,
  };
}

export function makeCall(c: ToolCallRecord): ToolCallRecord {
  return callWith(c, c.status, c.result, c.permission, c.subagent, c.endedAt);
}

export function makeRecord(r: SubagentRecord): SubagentRecord {
  return recordWith(r, r.status, r.progressLine, r.lastToolName, r.totalTokens, r.toolUses, r.durationMs, r.blocks, r.droppedBlockCount);
}

// Hot-path copies, written out field by field: an object spread costs ~15× as much here.

export function callWithSubagent(c: ToolCallRecord, subagent: SubagentRecord): ToolCallRecord {
  return callWith(c, c.status, c.result, c.permission, subagent, c.endedAt);
}

export function callWith(
  c: ToolCallRecord,
  status: ToolCallRecord["status"],
  result: ToolCallRecord["result"],
  permission: ToolCallRecord["permission"],
  subagent: ToolCallRecord["subagent"],
  endedAt: string | undefined,
): ToolCallRecord {
  return { toolUseId: c.toolUseId, name: c.name, input: c.input, status, result, permission, subagent, startedAt: c.startedAt, endedAt };
}

export function recordWithBlocks(r: SubagentRecord, blocks: readonly Block[], droppedBlockCount: number): SubagentRecord {
  return recordWith(r, r.status, r.progressLine, r.lastToolName, r.totalTokens, r.toolUses, r.durationMs, blocks, droppedBlockCount);
}

export function recordWith(
  r: SubagentRecord,
  status: SubagentRecord["status"],
  progressLine: string | undefined,
  lastToolName: string | undefined,
  totalTokens: number | undefined,
  toolUses: number | undefined,
  durationMs: number | undefined,
  blocks: readonly Block[],
  droppedBlockCount: number,
): SubagentRecord {
  return {
    toolUseId: r.toolUseId,
    taskId: r.taskId,
    subagentType: r.subagentType,
    description: r.description,
    prompt: r.prompt,
    background: r.background,
    status,
    progressLine,
    lastToolName,
    totalTokens,
    toolUses,
    durationMs,
    inputTokens: r.inputTokens,
    model: r.model,
    summaryMarkdown: r.summaryMarkdown,
    blocks,
    droppedBlockCount,
    sidechainPath: r.sidechainPath,
    spawnDepth: r.spawnDepth,
    parentTaskId: r.parentTaskId,
    runId: r.runId,
    toolsUsed: r.toolsUsed,
    error: r.error,
    retry: r.retry,
    phase: r.phase,
    phaseHistory: r.phaseHistory,
    escalations: r.escalations,
    worktree: r.worktree,
    permissionHistory: r.permissionHistory,
  };
}

// Builds the Transcript from the model on demand. Built blocks and lists are cached on their nodes
// until a change marks them stale (tree.ts), so a block that did not change is the same object in
// every transcript that shows it, and a transcript built earlier never changes.

import type { Block, Transcript } from "../../shared/transcript.js";
import { withProgress } from "./progress.js";
import type { SessionModel } from "./session.js";
import { sessionInputTokens } from "./tokenShares.js";
import { callWithSubagent, recordWithBlocks } from "./shapes.js";
import type { BlockList, Node } from "./blockTree.js";

export function transcriptOf(s: SessionModel): Transcript {
  const m = s.meta;
  const cost = s.cost.total;
  const inputTokens = sessionInputTokens(s);
  return {
    sessionId: m.sessionId,
    ...(m.cwd === undefined ? {} : { cwd: m.cwd }),
    ...(m.model === undefined ? {} : { model: m.model }),
    ...(m.title === undefined ? {} : { title: m.title }),
    ...(m.permissionMode === undefined ? {} : { permissionMode: m.permissionMode }),
    status: m.status,
    blocks: blocksOf(s.tree.top),
    ...(m.usage === undefined ? {} : { usage: m.usage }),
    ...(m.contextUsage === undefined ? {} : { contextUsage: m.contextUsage }),
    ...(m.contextWindow === undefined ? {} : { contextWindow: m.contextWindow }),
    ...(m.subagentStats === undefined ? {} : { subagentStats: m.subagentStats }),
    ...(m.backgroundAgents === undefined ? {} : { backgroundAgents: m.backgroundAgents }),
    ...(m.planLimits === undefined ? {} : { planLimits: m.planLimits }),
    ...(inputTokens === undefined ? {} : { sessionInputTokens: inputTokens }),
    ...(s.cost.seen ? { costUsd: cost } : {}),
  };
}

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

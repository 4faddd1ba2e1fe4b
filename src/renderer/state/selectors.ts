// Hooks that read one thing from the app state, so a component re-renders only when that thing changes.

import type { PendingPermission } from "../../shared/api.js";
import type { Block, SubagentRecord } from "../../shared/transcript.js";
import type { TranscriptState } from "../../shared/delta/index.js";
import { useApp, type TabState } from "./appState.js";

const NoIds: readonly string[] = Object.freeze([]);
const NoPending: readonly PendingPermission[] = Object.freeze([]);

export function useActiveTab(): TabState | undefined {
  return useApp((s) => (s.activeTabId !== undefined ? s.tabs[s.activeTabId] : undefined));
}

export function useBlock(tabId: string, blockId: string): Block | undefined {
  return useApp((s) => s.tabs[tabId]?.transcript.blocksById.get(blockId));
}

export function useChildren(tabId: string, parentId: string): readonly string[] {
  return useApp((s) => s.tabs[tabId]?.transcript.children.get(parentId) ?? NoIds);
}

export function usePending(tabId: string): readonly PendingPermission[] {
  return useApp((s) => s.tabs[tabId]?.transcript.pending ?? NoPending);
}

export function useExpanded(key: string): boolean {
  return useApp((s) => s.expanded[key] === true);
}

/** The pending request for one tool call of the main agent, if it waits. */
export function usePendingForTool(tabId: string, toolUseId: string): PendingPermission | undefined {
  return useApp((s) => s.tabs[tabId]?.transcript.pending.find((p) => p.toolUseId === toolUseId && p.agentId === undefined));
}

/** Requests a subagent made (matched by its task id), shown on its card. */
export function usePendingForAgent(tabId: string, taskId: string): readonly PendingPermission[] {
  const pending = usePending(tabId);
  if (taskId === "") return NoPending;
  const mine = pending.filter((p) => p.agentId === taskId);
  return mine.length === 0 ? NoPending : mine;
}

/** The description of the subagent whose agent (task) id is `agentId`, if this tab holds its card: what a SendMessage names. */
export function useAgentName(tabId: string, agentId: string): string | undefined {
  return useApp((s) => {
    const transcript = agentId === "" ? undefined : s.tabs[tabId]?.transcript;
    return (transcript === undefined ? undefined : recordOfAgent(transcript, agentId)?.description) || undefined;
  });
}

/** The block id of the card of the agent with agent (task) id `agentId`, at any depth, if the tab's transcript holds it. */
export function agentBlockId(transcript: TranscriptState, agentId: string): string | undefined {
  for (const [id, block] of transcript.blocksById) if (block.call?.subagent?.taskId === agentId) return id;
  return undefined;
}

/** The subagent record with agent (task) id `agentId`, at any depth, if the tab's transcript holds its card. */
export function recordOfAgent(transcript: TranscriptState, agentId: string): SubagentRecord | undefined {
  const id = agentBlockId(transcript, agentId);
  return id === undefined ? undefined : transcript.blocksById.get(id)?.call?.subagent;
}

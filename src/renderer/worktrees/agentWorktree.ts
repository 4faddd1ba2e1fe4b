// Worktrees and agent cards, each found from the other. Which listed worktree an agent ran in:
// git's listing is the truth (the path an agent's result named is history text), so the agent is
// found there by the id its meta.json or folder name gives, and by the named path only when
// neither does. Which card an agent of the listing has: by its agent id, else its Agent call's id.
import type { TranscriptState } from "../../shared/delta/index.js";
import type { WorktreeAgent, WorktreeInfo } from "../../shared/worktrees.js";
import { agentBlockId } from "../state/selectors.js";

export function agentWorktree(worktrees: readonly WorktreeInfo[], agentId: string, path: string | undefined): WorktreeInfo | undefined {
  const byId = agentId === "" ? undefined : (worktrees.find((w) => w.agent?.agentId === agentId) ?? worktrees.find((w) => w.agentIdFromName === agentId));
  return byId ?? (path === undefined ? undefined : worktrees.find((w) => !w.isMain && w.path === path));
}

export function agentCardId(transcript: TranscriptState, agent: WorktreeAgent): string | undefined {
  return agentBlockId(transcript, agent.agentId) ?? (agent.toolUseId !== undefined && transcript.blocksById.has(agent.toolUseId) ? agent.toolUseId : undefined);
}

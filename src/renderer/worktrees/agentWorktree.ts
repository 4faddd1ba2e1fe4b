// Which listed worktree an agent ran in: git's listing is the truth (the path an agent's result
// named is history text), so the agent is found there by the id its meta.json or folder name gives,
// and by the named path only when neither does.
import type { WorktreeInfo } from "../../shared/worktrees.js";

export function agentWorktree(worktrees: readonly WorktreeInfo[], agentId: string, path: string | undefined): WorktreeInfo | undefined {
  const byId = agentId === "" ? undefined : (worktrees.find((w) => w.agent?.agentId === agentId) ?? worktrees.find((w) => w.agentIdFromName === agentId));
  return byId ?? (path === undefined ? undefined : worktrees.find((w) => !w.isMain && w.path === path));
}

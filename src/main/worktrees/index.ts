// Agent and hand-made git worktrees (issue 25): list, diff, merge, remove without losing a change.
export { listWorktrees, type ListOptions } from "./listWorktrees.js";
export { removeWorktree, rescueBranchName, type RemoveOptions } from "./remove.js";
export { mergeWorktree } from "./merge.js";
export { diffWorktree } from "./diff.js";
export { openWorktree } from "./openWorktree.js";
export { WorktreeActionError } from "./repository.js";
export { attributeWorktree, type AgentWorktreeFact, type LiveFacts } from "./attribution.js";
export { createSessionWorktree, discardSessionWorktree, linkedWorktreeOf, repositoryRoot, type SessionWorktree } from "./sessionWorktree.js";
export { WorktreeLocks } from "./sessionLock.js";

// Where an agent that runs in a worktree of its own works (issue 31): the CLI makes it at
// `<repo>/.claude/worktrees/agent-<agentId>` and runs the agent's commands there
// (docs/protocol-notes.md, "Agent worktrees"), and the PreToolUse hook's `cwd` says so. That
// worktree is then the agent's only write root, for the policy and the OS sandbox alike.

import fs from "node:fs";
import path from "node:path";

/** The agent's own worktree, when `agentCwd` (the hook's) lies in it and it is a real folder; else undefined. */
export function agentWorktree(agentId: string | undefined, agentCwd: string | undefined, isFolder: (p: string) => boolean = realFolder): string | undefined {
  if (agentId === undefined || agentCwd === undefined || !path.isAbsolute(agentCwd) || !/^[A-Za-z0-9_-]+$/.test(agentId)) return undefined;
  const marker = `${path.sep}.claude${path.sep}worktrees${path.sep}agent-${agentId}`;
  const at = agentCwd.indexOf(marker);
  if (at < 0) return undefined;
  const end = at + marker.length;
  if (end < agentCwd.length && agentCwd[end] !== path.sep) return undefined;
  const worktree = agentCwd.slice(0, end);
  return isFolder(worktree) ? worktree : undefined;
}

/** A folder, not a link that leads elsewhere. */
function realFolder(p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

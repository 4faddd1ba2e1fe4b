// Which agent made a worktree, and whether it is orphaned: a pure mapping from what the history
// and the process table say (gathered by agentHistory.ts) to each worktree.
import path from "node:path";
import type { OrphanReason, WorktreeAgent } from "../../shared/worktrees.js";
import { agentIdFromName, parseClaudeLock } from "./porcelain.js";

/** One sidechain's meta.json that names a worktree (`worktreePath` / `worktreeBranch`). */
export interface AgentWorktreeFact {
  readonly sessionId: string;
  readonly agentId: string;
  readonly worktreePath?: string;
  readonly worktreeBranch?: string;
  readonly toolUseId?: string;
  readonly agentType?: string;
  readonly description?: string;
}

export interface LiveFacts {
  /** Sessions still running (Baton's live tabs, the CLI's `sessions/<pid>.json` whose pid runs). */
  readonly sessionIds: ReadonlySet<string>;
  /** Of the processes Claude Code's worktree locks name, those still running (`lockHolderKey`). */
  readonly lockHoldersAlive: ReadonlySet<string>;
}

export interface WorktreeFacts {
  readonly path: string;
  readonly branch?: string;
  readonly isMain: boolean;
  readonly lockReason?: string;
  readonly locked: boolean;
  readonly prunable: boolean;
}

export interface Attribution {
  readonly agent?: WorktreeAgent;
  readonly agentIdFromName?: string;
  readonly orphaned?: OrphanReason;
}

function findFact(w: WorktreeFacts, history: readonly AgentWorktreeFact[], nameId: string | undefined): AgentWorktreeFact | undefined {
  const byPath = history.find((f) => f.worktreePath !== undefined && path.resolve(f.worktreePath) === path.resolve(w.path));
  if (byPath !== undefined) return byPath;
  if (w.branch !== undefined) {
    const byBranch = history.find((f) => f.worktreeBranch === w.branch);
    if (byBranch !== undefined) return byBranch;
  }
  return nameId === undefined ? undefined : history.find((f) => f.agentId === nameId);
}

export function attributeWorktree(w: WorktreeFacts, history: readonly AgentWorktreeFact[], live: LiveFacts): Attribution {
  if (w.isMain) return {};
  const nameId = agentIdFromName(path.basename(w.path)) ?? (w.branch === undefined ? undefined : agentIdFromName(w.branch));
  const fact = findFact(w, history, nameId);
  const agent: WorktreeAgent | undefined =
    fact === undefined
      ? undefined
      : {
          sessionId: fact.sessionId,
          agentId: fact.agentId,
          ...(fact.toolUseId !== undefined ? { toolUseId: fact.toolUseId } : {}),
          ...(fact.agentType !== undefined ? { agentType: fact.agentType } : {}),
          ...(fact.description !== undefined ? { description: fact.description } : {}),
          sessionLive: live.sessionIds.has(fact.sessionId),
        };
  const orphaned = orphanReason(w, agent, live);
  return {
    ...(agent !== undefined ? { agent } : nameId !== undefined ? { agentIdFromName: nameId } : {}),
    ...(orphaned !== undefined ? { orphaned } : {}),
  };
}

function orphanReason(w: WorktreeFacts, agent: WorktreeAgent | undefined, live: LiveFacts): OrphanReason | undefined {
  if (w.prunable) return "folder-gone";
  const lock = w.locked ? parseClaudeLock(w.lockReason) : undefined;
  if (lock !== undefined) return live.lockHoldersAlive.has(lockHolderKey(lock)) ? undefined : "lock-holder-gone";
  if (agent !== undefined && !agent.sessionLive) return "session-ended";
  return undefined;
}

export interface LockHolder {
  readonly pid: number;
  /** The process's start time as the CLI wrote it (Linux: /proc/<pid>/stat field 22), so a reused pid is not taken for it. */
  readonly start?: string;
}

export function lockHolderKey(holder: LockHolder): string {
  return `${holder.pid}:${holder.start ?? ""}`;
}

/** The processes named by Claude Code locks, for the caller to check. */
export function lockHolders(worktrees: readonly WorktreeFacts[]): LockHolder[] {
  return worktrees.flatMap((w) => {
    const lock = w.locked ? parseClaudeLock(w.lockReason) : undefined;
    return lock === undefined ? [] : [{ pid: lock.pid, ...(lock.start !== undefined ? { start: lock.start } : {}) }];
  });
}

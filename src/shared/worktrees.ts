// Git worktrees of a repository as Baton shows them (issue 25): the listing's objects and the
// results of its actions. Pure types; the git work is in src/main/worktrees/.

export interface WorktreeHead {
  readonly sha: string;
  readonly shortSha: string;
  readonly subject: string;
  /** Committer time, ms since the epoch. */
  readonly time: number;
}

/** One commit, as a person recognises it. */
export interface WorktreeCommit {
  readonly shortSha: string;
  readonly subject: string;
}

/** The most unmerged commits a listing or a refusal names (newest first); the count says the rest. */
export const MaxNamedCommits = 20;

export interface WorktreeChange {
  /** Two-letter `git status --porcelain` code, e.g. "M ", " M", "??", "R ". */
  readonly code: string;
  readonly path: string;
}

export interface WorktreeDirt {
  readonly staged: number;
  readonly unstaged: number;
  readonly untracked: number;
  readonly files: readonly WorktreeChange[];
}

export interface WorktreeAgent {
  readonly sessionId: string;
  readonly agentId: string;
  readonly toolUseId?: string;
  readonly agentType?: string;
  readonly description?: string;
  /** Whether the session that made it is still running. */
  readonly sessionLive: boolean;
}

export type OrphanReason =
  /** git says the folder is gone (`prunable` in the porcelain listing). */
  | "folder-gone"
  /** Its lock names a Claude Code process that no longer runs. */
  | "lock-holder-gone"
  /** An agent worktree whose session has ended. */
  | "session-ended"
  /** A folder in the CLI's `.claude/worktrees/` that git does not know as a worktree. */
  | "unregistered";

/**
 * Files git ignores in a worktree (`.env`, `node_modules/`, build output): git deletes them with
 * the worktree and keeps no copy, and a rescue does not commit them (a secret on a branch gets
 * pushed). So they are named before a removal instead. A folder ignored as a whole is one entry.
 */
export interface WorktreeIgnored {
  readonly count: number;
  /** The first MaxNamedIgnored. */
  readonly paths: readonly string[];
}

export const MaxNamedIgnored = 20;

export interface WorktreeInfo {
  readonly path: string;
  readonly isMain: boolean;
  /** Short branch name; undefined when detached. */
  readonly branch?: string;
  readonly head?: WorktreeHead;
  /** The branch it is measured and merged against. */
  readonly base?: string;
  readonly ahead?: number;
  readonly behind?: number;
  /** Commits on HEAD that neither its base nor its upstream holds: removal without rescue refuses them. */
  readonly unmerged?: number;
  /** Those commits, newest first, at most MaxNamedCommits. */
  readonly unmergedCommits?: readonly WorktreeCommit[];
  readonly dirt?: WorktreeDirt;
  readonly ignored?: WorktreeIgnored;
  readonly locked: boolean;
  readonly lockReason?: string;
  readonly prunable: boolean;
  readonly orphaned?: OrphanReason;
  /** Made by a Claude Code agent (`isolation: "worktree"`). */
  readonly agent?: WorktreeAgent;
  /** The agent's id when only the folder name says it (no history found). */
  readonly agentIdFromName?: string;
  /** A live Baton session runs in it (a session started "in a new worktree"): never removed meanwhile. */
  readonly sessionRunning?: boolean;
  /** Something could not be read (the rest is still listed). */
  readonly problem?: string;
}

export interface WorktreeListing {
  readonly repository: string;
  readonly worktrees: readonly WorktreeInfo[];
}

export type WorktreeRemoval =
  | { readonly kind: "removed"; readonly path: string }
  | { readonly kind: "rescued-and-removed"; readonly path: string; readonly rescueBranch: string; readonly rescueCommit: string; readonly files: readonly WorktreeChange[] };

export type WorktreeMerge =
  | { readonly kind: "up-to-date"; readonly base: string }
  | { readonly kind: "fast-forward"; readonly base: string; readonly from: string; readonly to: string }
  | { readonly kind: "merge-commit"; readonly base: string; readonly commit: string }
  | { readonly kind: "conflict"; readonly base: string; readonly files: readonly string[] };

/** Where a worktree opens: the system's file manager, or a terminal whose shell starts in it. */
export type WorktreeOpenTarget = "folder" | "terminal";

export interface WorktreeOpened {
  /** The program that was started, as found on PATH. */
  readonly program: string;
}

/** Why an action refused, for callers to branch on. */
export type WorktreeErrorCode =
  | "not-a-repository"
  /** The repository (its worktree's top, its .git) belongs to another user: Baton runs no git in it. */
  | "not-owned"
  | "not-a-worktree"
  | "main-worktree"
  | "dirty"
  | "unmerged"
  | "locked"
  /** A live Baton session runs in it. */
  | "session-running"
  | "folder-gone"
  | "no-base"
  | "base-dirty"
  | "base-not-checked-out"
  | "git-failed"
  | "open-failed";

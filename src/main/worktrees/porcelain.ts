// Parsers for git's machine-readable output (NUL-separated, so any path or name survives). Pure.
import type { WorktreeChange, WorktreeDirt } from "../../shared/worktrees.js";

export interface PorcelainWorktree {
  readonly path: string;
  readonly head?: string;
  /** Full ref, e.g. refs/heads/main. */
  readonly branchRef?: string;
  readonly detached: boolean;
  readonly bare: boolean;
  readonly locked: boolean;
  readonly lockReason?: string;
  readonly prunable: boolean;
  readonly prunableReason?: string;
}

/** `git worktree list --porcelain -z`: attributes end with NUL, records with an empty attribute. */
export function parseWorktreeList(output: string): PorcelainWorktree[] {
  const records: PorcelainWorktree[] = [];
  let current: Record<string, string | true> | undefined;
  const flush = (): void => {
    if (current === undefined || typeof current["worktree"] !== "string") return (current = undefined), undefined;
    const text = (key: string): string | undefined => (typeof current![key] === "string" && current![key] !== "" ? (current![key] as string) : undefined);
    const lockReason = text("locked");
    const prunableReason = text("prunable");
    const head = text("HEAD");
    const branchRef = text("branch");
    records.push({
      path: current["worktree"],
      ...(head !== undefined ? { head } : {}),
      ...(branchRef !== undefined ? { branchRef } : {}),
      detached: "detached" in current,
      bare: "bare" in current,
      locked: "locked" in current,
      ...(lockReason !== undefined ? { lockReason } : {}),
      prunable: "prunable" in current,
      ...(prunableReason !== undefined ? { prunableReason } : {}),
    });
    current = undefined;
  };
  for (const field of output.split("\0")) {
    if (field === "") {
      flush();
      continue;
    }
    const space = field.indexOf(" ");
    const key = space < 0 ? field : field.slice(0, space);
    const value = space < 0 ? true : field.slice(space + 1);
    if (key === "worktree") flush();
    current ??= {};
    current[key] = value;
  }
  flush();
  return records;
}

/** `git status --porcelain=v1 -z --untracked-files=all`: `XY path`, a rename or copy followed by its source. */
export function parseStatus(output: string): WorktreeDirt {
  const files: WorktreeChange[] = [];
  let staged = 0;
  let unstaged = 0;
  let untracked = 0;
  const fields = output.split("\0");
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    const code = field.slice(0, 2);
    const path = field.slice(3);
    const x = code[0]!;
    const y = code[1]!;
    if (x === "R" || x === "C") i++; // the source path
    files.push({ code, path });
    if (code === "??") {
      untracked++;
      continue;
    }
    if (x !== " " && x !== "!") staged++;
    if (y !== " " && y !== "!") unstaged++;
  }
  return { staged, unstaged, untracked, files };
}

/** `claude agent agent-<id> (pid <pid> start <procStart>)`: the lock the CLI holds while the agent runs. */
export function parseClaudeLock(reason: string | undefined): { readonly name: string; readonly pid: number; readonly start?: string } | undefined {
  if (reason === undefined) return undefined;
  const m = /^claude \S+ (\S+) \(pid (\d+)(?: start (\S+))?\)$/.exec(reason);
  if (m === null) return undefined;
  return { name: m[1]!, pid: Number(m[2]), ...(m[3] !== undefined ? { start: m[3] } : {}) };
}

/** The agent id in a CLI worktree's folder or branch name (`agent-<id>`, `worktree-agent-<id>`). */
export function agentIdFromName(name: string): string | undefined {
  return /^(?:worktree-)?agent-([0-9a-z]+)$/.exec(name)?.[1];
}

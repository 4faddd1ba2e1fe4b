// What git says about one worktree: HEAD, base, ahead/behind, commits no other ref holds, dirt.
import { MaxNamedCommits, MaxNamedIgnored, type WorktreeCommit, type WorktreeDirt, type WorktreeHead, type WorktreeIgnored } from "../../shared/worktrees.js";
import { git, gitRun } from "./git.js";
import { parseStatus } from "./porcelain.js";
import type { RegisteredWorktree, Repository } from "./repository.js";

export async function headOf(cwd: string, sha: string): Promise<WorktreeHead | undefined> {
  const r = await gitRun(["log", "-1", "--format=%H%x00%h%x00%s%x00%ct", sha, "--"], { cwd });
  if (r.code !== 0) return undefined;
  const [full, short, subject, ct] = r.stdout.replace(/\n$/, "").split("\0");
  if (full === undefined || short === undefined) return undefined;
  return { sha: full, shortSha: short, subject: subject ?? "", time: Number(ct ?? 0) * 1000 };
}

async function branchExists(cwd: string, name: string): Promise<boolean> {
  return (await gitRun(["show-ref", "--verify", "--quiet", `refs/heads/${name}`], { cwd })).code === 0;
}

/**
 * The branch a worktree's branch was made from: its reflog's `branch: Created from <name>` when
 * that names another local branch (`git worktree add -b x path main`), else the branch of the
 * main worktree (the CLI's agent worktrees start from its HEAD). None for the main worktree.
 */
export async function baseOf(repo: Repository, w: RegisteredWorktree): Promise<string | undefined> {
  if (w.isMain) return undefined;
  const cwd = repo.root;
  if (w.branchRef !== undefined) {
    const r = await gitRun(["reflog", "show", "--format=%gs", w.branchRef, "--"], { cwd });
    const first = r.code === 0 ? r.stdout.trimEnd().split("\n").at(-1) : undefined;
    const from = first === undefined ? undefined : /^branch: Created from (.+)$/.exec(first)?.[1];
    const name = from?.replace(/^refs\/heads\//, "");
    if (name !== undefined && name !== "HEAD" && name !== w.branch && !/^[0-9a-f]{40}/.test(name) && (await branchExists(cwd, name))) return name;
  }
  const main = repo.worktrees[0]?.branch;
  return main !== undefined && main !== w.branch ? main : undefined;
}

export async function aheadBehind(cwd: string, base: string, sha: string): Promise<{ ahead: number; behind: number } | undefined> {
  const r = await gitRun(["rev-list", "--left-right", "--count", `refs/heads/${base}...${sha}`, "--"], { cwd });
  if (r.code !== 0) return undefined;
  const [behind, ahead] = r.stdout.trim().split(/\s+/).map(Number);
  return { ahead: ahead ?? 0, behind: behind ?? 0 };
}

/** Commits on `sha` that no branch (but the worktree's own), tag or remote-tracking ref holds. */
export async function unmergedCount(cwd: string, sha: string, ownRef: string | undefined): Promise<number> {
  const out = await git(["rev-list", "--count", sha, "--not", ...excludeOwn(ownRef), "--branches", "--tags", "--remotes", "--"], { cwd });
  return Number(out.trim());
}

/** The worktree's own branch does not count as another branch holding its commits. */
function excludeOwn(ownRef: string | undefined): string[] {
  return ownRef === undefined ? [] : [`--exclude=${ownRef.replace(/^refs\/heads\//, "")}`];
}

/** The newest `limit` of those commits. */
export async function unmergedCommits(cwd: string, sha: string, ownRef: string | undefined, limit = MaxNamedCommits): Promise<WorktreeCommit[]> {
  const out = await git(["log", `-${limit}`, "--format=%h%x00%s", sha, "--not", ...excludeOwn(ownRef), "--branches", "--tags", "--remotes", "--"], { cwd });
  return out
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [shortSha = "", subject = ""] = line.split("\0");
      return { shortSha, subject };
    });
}

/** "abc1234 Add notes, def5678 Fix it and 3 more": the commits a refusal names. */
export function commitsText(commits: readonly WorktreeCommit[], count: number): string {
  const named = commits.map((c) => `${c.shortSha} ${c.subject}`).join(", ");
  return count > commits.length ? `${named} and ${count - commits.length} more` : named;
}

/** The ignored files a removal would delete; folders ignored as a whole count once (git's "traditional" mode). */
export async function ignoredOf(worktreePath: string): Promise<WorktreeIgnored> {
  const out = await git(["status", "--porcelain=v1", "-z", "--ignored=traditional", "--untracked-files=normal"], { cwd: worktreePath });
  const paths = out.split("\0").filter((field) => field.startsWith("!! ")).map((field) => field.slice(3));
  return { count: paths.length, paths: paths.slice(0, MaxNamedIgnored) };
}

export async function dirtOf(worktreePath: string): Promise<WorktreeDirt> {
  return parseStatus(await git(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=none"], { cwd: worktreePath }));
}

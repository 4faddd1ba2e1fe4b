// What git says about one worktree: HEAD, base, ahead/behind, commits no other ref holds, dirt.
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
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
  const out = await git(["status", "--porcelain=v1", "-z", "--ignored=traditional", "--untracked-files=normal", "--ignore-submodules=all"], { cwd: worktreePath });
  const paths = out.split("\0").filter((field) => field.startsWith("!! ")).map((field) => field.slice(3));
  return { count: paths.length, paths: paths.slice(0, MaxNamedIgnored) };
}

/**
 * Staged, unstaged and untracked changes, a submodule with changes inside it included (" M").
 * git status would look inside submodules itself by starting git in each, and that git would read
 * the submodule's own config, whose drivers Baton has not turned off; so status leaves their
 * insides alone (`--ignore-submodules=dirty`) and Baton looks with its own git (git.ts) instead.
 */
export async function dirtOf(worktreePath: string, depth = 0): Promise<WorktreeDirt> {
  const dirt = parseStatus(await git(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=dirty"], { cwd: worktreePath }));
  const listed = new Set(dirt.files.map((f) => f.path));
  const inside: string[] = [];
  for (const sub of depth < MaxSubmoduleDepth ? await checkedOutSubmodules(worktreePath) : []) {
    if (!listed.has(sub) && (await dirtOf(path.join(worktreePath, sub), depth + 1)).files.length > 0) inside.push(sub);
  }
  if (inside.length === 0) return dirt;
  return { ...dirt, unstaged: dirt.unstaged + inside.length, files: [...dirt.files, ...inside.map((p) => ({ code: " M", path: p }))] };
}

const MaxSubmoduleDepth = 8;

/**
 * The submodules .gitmodules names (read as data: `git config --file` follows no include) that are
 * checked out: a folder inside the worktree (no symlink on the way) holding a `.git`. A gitlink
 * .gitmodules does not name is not looked into.
 */
async function checkedOutSubmodules(worktreePath: string): Promise<string[]> {
  const file = await lstat(path.join(worktreePath, ".gitmodules")).catch(() => null);
  if (file === null || !file.isFile()) return [];
  const r = await gitRun(["config", "--null", "--file", ".gitmodules", "--get-regexp", "^submodule\\..*\\.path$"], { cwd: worktreePath });
  if (r.code !== 0) return [];
  const subs: string[] = [];
  for (const entry of r.stdout.split("\0")) {
    const newline = entry.indexOf("\n");
    if (newline < 0) continue;
    const where = path.resolve(worktreePath, entry.slice(newline + 1));
    if (!where.startsWith(worktreePath + path.sep) || (await realpath(where).catch(() => null)) !== where) continue;
    if ((await lstat(path.join(where, ".git")).catch(() => null)) !== null) subs.push(path.relative(worktreePath, where).split(path.sep).join("/"));
  }
  return subs;
}

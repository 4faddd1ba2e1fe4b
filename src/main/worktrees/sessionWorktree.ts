// A session's own worktree (issue 37): made by Baton with its hardened git before the CLI starts,
// where the CLI's `--worktree <name>` would make it (`<repo>/.claude/worktrees/<name>` on a new
// branch `worktree-<name>` from HEAD). Baton makes it rather than pass `--worktree`: then the CLI
// is started in the worktree, so the tab's folder, the policy's write root and a restart after
// the CLI exits (`--resume`, which finds the history by the folder it runs in) are all the
// worktree, and the repository's hooks do not run (hardenedGit.ts turns them off).
import { mkdir, readdir, realpath } from "node:fs/promises";
import path from "node:path";
import { sessionWorktreeName } from "../../shared/worktreeName.js";
import { git } from "./git.js";
import { AgentWorktreesFolder } from "./listWorktrees.js";
import { holdsAny } from "./liveFolders.js";
import { openRepository, worktreeAction, WorktreeActionError, type RegisteredWorktree, type Repository } from "./repository.js";
import { removeWorktree } from "./remove.js";

export interface SessionWorktree {
  /** The folder the session runs in: the worktree, or the same subfolder of it as the folder asked for. */
  readonly cwd: string;
  /** The worktree's own folder. */
  readonly path: string;
  readonly branch: string;
}

/** The main worktree of the repository `dir` is in; undefined when it is in none Baton may use. */
export async function repositoryRoot(dir: string): Promise<string | undefined> {
  try {
    return (await openRepository(dir)).root;
  } catch (error) {
    if (error instanceof WorktreeActionError) return undefined;
    throw error;
  }
}

/** The linked (not main) worktree `dir` is in, with its branch; undefined in a main checkout or outside git. */
export async function linkedWorktreeOf(dir: string): Promise<{ readonly path: string; readonly branch?: string } | undefined> {
  const repo = await openRepository(dir).catch(() => undefined);
  const real = await realpath(dir).catch(() => undefined);
  if (repo === undefined || real === undefined) return undefined;
  const w = checkoutHolding(repo, real);
  return w === undefined || w.isMain ? undefined : { path: w.realPath, ...(w.branch !== undefined ? { branch: w.branch } : {}) };
}

/** The worktree (main or linked) the real folder `real` is in: the deepest, as a worktree may sit inside another's folder (`.claude/worktrees/` is in the main one). */
function checkoutHolding(repo: Repository, real: string): RegisteredWorktree | undefined {
  return repo.worktrees.filter((w) => holdsAny(w.realPath, [real])).sort((a, b) => b.realPath.length - a.realPath.length)[0];
}

/**
 * One worktree is made at a time in this process: two `git worktree add` at once in a repository
 * can fail on git's locks (seen), and two sessions asked at once with one prompt must not pick one name.
 */
let making: Promise<unknown> = Promise.resolve();

/** Makes a new worktree of the repository `dir` is in, named from `hint` (the first prompt) or `shortId`. */
export function createSessionWorktree(dir: string, hint: string | undefined, shortId: string): Promise<SessionWorktree> {
  const made = making.then(() => create(dir, hint, shortId));
  making = made.catch(() => undefined);
  return made;
}

function create(dir: string, hint: string | undefined, shortId: string): Promise<SessionWorktree> {
  return worktreeAction(async () => {
    const repo = await openRepository(dir);
    // From the commit of the checkout `dir` is in: the main one for a new session, the origin's
    // own worktree for a fork of a session that ran in one (its branch, not the main checkout's).
    const real = await realpath(dir);
    const checkout = checkoutHolding(repo, real)?.realPath ?? repo.root;
    const head = await git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { cwd: checkout }).catch(() => "");
    if (head.trim() === "") throw new WorktreeActionError("no-base", `${checkout} has no commit yet: a worktree starts from one`);
    const folder = path.join(repo.root, AgentWorktreesFolder);
    const branches = await git(["for-each-ref", "--format=%(refname:short)", "refs/heads/"], { cwd: repo.root });
    // A folder left in .claude/worktrees that git no longer knows takes its name too.
    const left = await readdir(folder).catch(() => []);
    const taken = new Set([...branches.split("\n").filter((b) => b !== ""), ...repo.worktrees.map((w) => path.basename(w.realPath)), ...left]);
    const name = sessionWorktreeName(hint, shortId, taken);
    const branch = `worktree-${name}`;
    const target = path.join(folder, name);
    await mkdir(folder, { recursive: true });
    // `--` ends the options; the name is [a-z0-9-] only (worktreeName.ts), the branch is new (no -B).
    await git(["worktree", "add", "-b", branch, "--", target, head.trim()], { cwd: repo.root });
    const made = await realpath(target);
    return { cwd: await sameSubfolder(real, checkout, made), path: made, branch };
  });
}

/** A session asked for `<checkout>/sub` runs in `<worktree>/sub` when the worktree has it. */
async function sameSubfolder(real: string, checkout: string, worktree: string): Promise<string> {
  const relative = path.relative(checkout, real);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return worktree;
  return realpath(path.join(worktree, relative)).catch(() => worktree);
}

/**
 * Undoes a worktree made for a session whose CLI did not start: removed only while it is as made
 * (clean, its branch still at the commit it started from), then its branch; anything else is kept.
 */
export function discardSessionWorktree(made: SessionWorktree): Promise<boolean> {
  return worktreeAction(async () => {
    const repo = await openRepository(made.path);
    const w = repo.worktrees.find((x) => x.realPath === made.path && x.branch === made.branch);
    if (w === undefined || w.head === undefined) return false;
    // A change (dirty, a commit of its own) is refused, never rescued here: the worktree stays.
    const removed = await removeWorktree(repo.root, made.path).then(
      (r) => r.kind === "removed",
      (error: unknown) => (error instanceof WorktreeActionError ? false : Promise.reject(error)),
    );
    if (!removed) return false;
    // -d, not -D: git deletes the branch only while another branch holds its commit.
    await git(["branch", "-d", "--", made.branch], { cwd: repo.root });
    return true;
  });
}

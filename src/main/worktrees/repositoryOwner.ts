// Baton runs git only in a repository the person owns: the folder a history file's cwd names is
// listed when it is a git repository of the person's, never someone else's (git's own
// safe.directory rule, CVE-2022-24765: a .git planted above a shared folder would otherwise be
// found by walking up). Baton checks it itself, before any git command runs there, so the
// person's own `safe.directory=*` does not lower it (and Baton never passes safe.directory).
// Windows is skipped: it has no uid, and Git for Windows checks the owner's SID itself.
import { lstat, open, realpath, stat } from "node:fs/promises";
import type { Stats } from "node:fs";
import path from "node:path";

/** The repository git would use in a folder belongs to another user. */
export class RepositoryNotOwnedError extends Error {
  constructor(
    readonly path: string,
    readonly owner: number,
    readonly uid: number,
  ) {
    super(`${path} is owned by another user (uid ${owner}), not by you (uid ${uid}): Baton runs no git in a repository someone else owns (git's safe.directory rule)`);
    this.name = "RepositoryNotOwnedError";
  }
}

const MaxGitFileBytes = 4096;

async function statOrNull(p: string, follow: boolean): Promise<Stats | null> {
  try {
    return follow ? await stat(p) : await lstat(p);
  } catch {
    return null;
  }
}

/** The first line of a small file, or undefined. */
async function firstLine(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, "r");
    const buffer = Buffer.alloc(MaxGitFileBytes);
    const { bytesRead } = await handle.read(buffer, 0, MaxGitFileBytes, 0);
    return buffer.subarray(0, bytesRead).toString("utf8").split(/\r?\n/)[0];
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

function refuseForeign(p: string, info: Stats | null, uid: number): void {
  if (info !== null && info.uid !== uid) throw new RepositoryNotOwnedError(p, info.uid, uid);
}

/**
 * The folders of one repository git reads: the worktree's top, its `.git` (a folder, or a file and
 * the folder it names), and for a linked worktree the common folder holding the shared config.
 */
async function checkRepository(top: string, dotGit: string, uid: number): Promise<void> {
  refuseForeign(top, await statOrNull(top, false), uid);
  const entry = await statOrNull(dotGit, false);
  refuseForeign(dotGit, entry, uid);
  refuseForeign(dotGit, await statOrNull(dotGit, true), uid);
  if (entry === null || !entry.isFile()) return;
  const named = /^gitdir: (.+)$/.exec((await firstLine(dotGit)) ?? "")?.[1];
  if (named === undefined) return; // git refuses a .git file it cannot read
  const gitDir = path.resolve(top, named);
  refuseForeign(gitDir, await statOrNull(gitDir, true), uid);
  const common = await firstLine(path.join(gitDir, "commondir"));
  if (common === undefined || common.trim() === "") return;
  const commonDir = path.resolve(gitDir, common.trim());
  refuseForeign(commonDir, await statOrNull(commonDir, true), uid);
}

/**
 * The top folder of the repository git would find from `dir` (as git finds it: the nearest `.git`
 * above, not across a file system boundary), once checked to be the person's: a
 * RepositoryNotOwnedError otherwise. Undefined for a folder in no repository (git says so itself).
 */
export async function ownedRepositoryTop(dir: string): Promise<string | undefined> {
  const uid = process.platform === "win32" ? undefined : process.getuid?.();
  let current: string;
  try {
    current = await realpath(dir);
  } catch {
    return undefined; // a folder that does not exist: git fails to start in it
  }
  const device = (await stat(current)).dev;
  for (;;) {
    const dotGit = path.join(current, ".git");
    if ((await statOrNull(dotGit, false)) !== null) {
      if (uid !== undefined) await checkRepository(current, dotGit, uid);
      return current;
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    const info = await statOrNull(parent, true);
    if (info === null || info.dev !== device) return undefined;
    current = parent;
  }
}

// The folder Baton's hook socket and its secret live in: one only the person can enter. Under
// $XDG_RUNTIME_DIR/baton where the session has one (a tmpfs the login owns), else ~/.baton/run.
// An existing folder is used only when it is a real folder (not a symlink), the person's own, and
// closed to everyone else; anything else is refused rather than "fixed", because a folder someone
// else could enter may already hold their socket or read ours.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type RunFolderResult = { readonly ok: true; readonly folder: string } | { readonly ok: false; readonly error: string };

/** Where the folder is for this environment (no file system access). */
export function runFolderPath(env: NodeJS.ProcessEnv = process.env, home: string = env["HOME"] ?? os.homedir()): string {
  const runtime = env["XDG_RUNTIME_DIR"];
  if (runtime !== undefined && path.isAbsolute(runtime)) return path.join(runtime, "baton");
  return path.join(home, ".baton", "run");
}

/** Why `folder` may not hold Baton's socket, or undefined when it may (lstat: a symlink is not followed). */
export function folderProblem(folder: string, uid: number | undefined = process.getuid?.()): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(folder);
  } catch (error) {
    return `${folder} cannot be read: ${(error as Error).message}`;
  }
  if (stat.isSymbolicLink()) return `${folder} is a symbolic link; Baton uses only a real folder of its own`;
  if (!stat.isDirectory()) return `${folder} is not a folder`;
  if (uid !== undefined && stat.uid !== uid) return `${folder} belongs to user ${stat.uid}, not to you (${uid})`;
  if ((stat.mode & 0o077) !== 0) return `${folder} is open to others (mode ${(stat.mode & 0o777).toString(8)}; it must be 700)`;
  return undefined;
}

/** Creates the folder (0700, parents too) when missing, then checks it. */
export function ensureRunFolder(folder: string): RunFolderResult {
  try {
    // The parents Baton makes (~/.baton) are private too; an existing parent is left as it is.
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    return { ok: false, error: `cannot create ${folder}: ${(error as Error).message}` };
  }
  const problem = folderProblem(folder);
  return problem === undefined ? { ok: true, folder } : { ok: false, error: problem };
}

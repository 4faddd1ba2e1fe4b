// The folders Baton's live sessions run in, against a worktree: one that holds such a folder is
// in use (issue 37), listed as such and never removed.
import { realpath } from "node:fs/promises";
import path from "node:path";

/** The real paths of `folders` that exist. */
export async function realFolders(folders: readonly string[]): Promise<string[]> {
  const real: string[] = [];
  for (const f of folders) real.push(...(await realpath(f).then((r) => [r]).catch(() => [])));
  return real;
}

/** Whether one of `folders` (real paths) is `worktree` or inside it. */
export function holdsAny(worktree: string, folders: readonly string[]): boolean {
  return folders.some((f) => f === worktree || f.startsWith(worktree + path.sep));
}

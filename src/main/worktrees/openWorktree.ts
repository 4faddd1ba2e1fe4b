// Opens one of a repository's worktrees in the file manager or a terminal (issue 25). The path is
// checked against the repository's registered worktrees first, so only a worktree ever opens.
import { openInDesktop, type OpenInDesktopOptions, type Opened } from "../desktop/openInDesktop.js";
import type { DesktopTarget } from "../desktop/launchPlans.js";
import { asActionError, findWorktree, openRepository, WorktreeActionError } from "./repository.js";

export async function openWorktree(repoDir: string, target: string, where: DesktopTarget, options: OpenInDesktopOptions = {}): Promise<Opened> {
  try {
    const repo = await openRepository(repoDir);
    const w = await findWorktree(repo, target);
    if (!w.exists || w.prunable) throw new WorktreeActionError("folder-gone", `${w.realPath}: the folder is gone`);
    try {
      return await openInDesktop(where, w.realPath, options);
    } catch (error) {
      throw new WorktreeActionError("open-failed", error instanceof Error ? error.message : String(error));
    }
  } catch (error) {
    throw asActionError(error);
  }
}

// Opens one of a repository's worktrees in the file manager or a terminal (issue 25). The path is
// checked against the repository's registered worktrees first, so only a worktree ever opens.
import { openInDesktop, type OpenInDesktopOptions, type Opened } from "../desktop/openInDesktop.js";
import type { DesktopTarget } from "../desktop/launchPlans.js";
import { findWorktree, openRepository, refuseFolderGone, worktreeAction, WorktreeActionError } from "./repository.js";

export function openWorktree(repoDir: string, target: string, where: DesktopTarget, options: OpenInDesktopOptions = {}): Promise<Opened> {
  return worktreeAction(async () => {
    const repo = await openRepository(repoDir);
    const w = await findWorktree(repo, target);
    refuseFolderGone(w);
    try {
      return await openInDesktop(where, w.realPath, options);
    } catch (error) {
      throw new WorktreeActionError("open-failed", error instanceof Error ? error.message : String(error));
    }
  });
}

// What a removal deletes that no rescue keeps: the worktree's ignored files, named before the
// person confirms (see WorktreeIgnored).
import type { WorktreeIgnored } from "../../shared/worktrees.js";
import { VisibleText } from "../util/VisibleText.js";

export function IgnoredNote({ ignored }: { ignored: WorktreeIgnored | undefined }) {
  if (ignored === undefined || ignored.count === 0) return null;
  const more = ignored.count - ignored.paths.length;
  return (
    <div className="wt-ignored" aria-label="Ignored files">
      Its {ignored.count} ignored file(s) go with it, and neither git nor a rescue keeps them:{" "}
      <VisibleText text={ignored.paths.join(", ")} />
      {more > 0 ? ` and ${more} more` : ""}
    </div>
  );
}

// A session running in a linked git worktree (issue 37), on its tab: the branch, and the
// worktree's folder in its tooltip. Both come from git and are drawn as text.
import { VisibleText, visibleString } from "../util/VisibleText.js";
import "./tabBadges.css";

export function WorktreeBadge({ path, branch }: { readonly path: string; readonly branch?: string | undefined }) {
  const name = branch ?? "(detached)";
  return (
    <span className="tab-badge worktree-badge" data-branch={branch} title={`Branch ${visibleString(name)} in the worktree ${visibleString(path)}`}>
      <VisibleText text={name} />
    </span>
  );
}

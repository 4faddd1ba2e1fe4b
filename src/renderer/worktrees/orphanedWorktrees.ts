// Orphaned worktrees are never pruned, so Baton makes them noticed instead: each tab's repository
// is listed once when the tab is first shown, the Worktrees tab's label counts the orphaned ones,
// and the Console says where they are. The Worktrees view keeps the count current as it lists.
import { useEffect } from "react";
import type { WorktreeListing } from "../../shared/worktrees.js";
import { api } from "../apiClient.js";
import { addLog, setOrphanedWorktrees, useApp } from "../state/appState.js";

export function noteListing(tabId: string, listing: WorktreeListing): void {
  const orphaned = listing.worktrees.filter((w) => w.orphaned !== undefined);
  const first = useApp.getState().orphanedWorktrees[tabId] === undefined;
  setOrphanedWorktrees(tabId, orphaned.length);
  if (!first || orphaned.length === 0) return;
  addLog({
    time: new Date().toISOString(),
    level: "warning",
    source: "baton",
    tabId,
    message: `${orphaned.length} orphaned worktree(s) in ${listing.repository} (Baton never prunes them: see the Worktrees tab)`,
    fields: { worktrees: orphaned.map((w) => `${w.path} (${w.orphaned ?? ""})`) },
  });
}

/**
 * The active tab's orphaned-worktree count, listing its repository the first time it is shown;
 * not while `viewShown`: the Worktrees view lists it then, and notes the count itself.
 */
export function useOrphanedWorktrees(viewShown: boolean): number {
  const tabId = useApp((s) => s.activeTabId);
  const count = useApp((s) => (tabId === undefined ? undefined : s.orphanedWorktrees[tabId]));
  useEffect(() => {
    if (tabId === undefined || count !== undefined || viewShown) return;
    void api()
      .listWorktrees(tabId)
      // Not a git repository (or git missing): nothing to count, and nothing to say.
      .then((r) => (r.ok ? noteListing(tabId, r.value) : setOrphanedWorktrees(tabId, 0)));
  }, [tabId, count, viewShown]);
  return count ?? 0;
}

// The Worktrees tab (issue 25): every worktree of the active tab's repository, with what git and
// the history say of it, and its actions. A removal the main side refuses (uncommitted files,
// commits no other branch holds) opens the rescue dialog; nothing here removes work unasked. An
// agent card's worktree badge lands here with that agent's worktree picked out.
import { useCallback, useEffect, useState } from "react";
import type { WorktreeInfo, WorktreeListing } from "../../shared/worktrees.js";
import { api } from "../apiClient.js";
import { useApp } from "../state/appState.js";
import { VisibleText } from "../util/VisibleText.js";
import { agentWorktree } from "./agentWorktree.js";
import { noteListing } from "./orphanedWorktrees.js";
import { RescueDialog, type Refusal } from "./RescueDialog.js";
import { WorktreeRow } from "./WorktreeRow.js";

export function WorktreesView() {
  const tabId = useApp((s) => s.activeTabId);
  if (tabId === undefined) return <div className="empty">No session.</div>;
  return <Worktrees key={tabId} tabId={tabId} />;
}

function Worktrees({ tabId }: { tabId: string }) {
  const [listing, setListing] = useState<WorktreeListing>();
  const [problem, setProblem] = useState<string>();
  const [refusal, setRefusal] = useState<Refusal>();
  const request = useApp((s) => (s.worktreeRequest?.tabId === tabId ? s.worktreeRequest : undefined));
  // Which request the listing shown was read for: "none is left" is said only of a listing read after it was asked.
  const [listedFor, setListedFor] = useState<number>();
  const refresh = useCallback(async () => {
    const r = useApp.getState().worktreeRequest;
    const asked = r?.tabId === tabId ? r.seq : undefined;
    const result = await api().listWorktrees(tabId);
    if (result.ok) {
      noteListing(tabId, result.value);
      setListing(result.value);
      setListedFor(asked);
      setProblem(undefined);
    } else setProblem(result.error.message);
  }, [tabId]);
  // Read afresh for each request: the agent may have made its worktree since the last reading.
  useEffect(() => void refresh(), [refresh, request?.seq]);
  const wanted = request !== undefined && listing !== undefined ? agentWorktree(listing.worktrees, request.agentId, request.path) : undefined;
  const onRefused = useCallback((worktree: WorktreeInfo, message: string) => setRefusal({ worktree, message }), []);
  return (
    <div className="worktrees-view" aria-label="Worktrees" data-loaded={listing !== undefined}>
      <div className="wt-head">
        {listing !== undefined ? (
          <span className="wt-repo" title="Repository">
            <VisibleText text={listing.repository} />
          </span>
        ) : null}
        <button onClick={() => void refresh()}>Refresh</button>
      </div>
      {problem !== undefined ? (
        <p className="wt-problem" role="alert">
          <VisibleText text={problem} />
        </p>
      ) : null}
      {listing === undefined && problem === undefined ? <div className="empty">Reading worktrees…</div> : null}
      {request !== undefined && listing !== undefined && listedFor === request.seq && wanted === undefined ? (
        <p className="wt-note" role="status">
          No worktree of <VisibleText text={request.agentLabel} /> is left here: the CLI removes an agent's worktree when the agent changed nothing, and one removed here is gone too
          {request.path !== undefined ? (
            <>
              {" "}(it was <VisibleText text={request.path} />)
            </>
          ) : null}
          .
        </p>
      ) : null}
      <ul className="wt-list">
        {listing?.worktrees.map((w) => (
          <WorktreeRow key={w.path} tabId={tabId} worktree={w} focusSeq={w === wanted ? request?.seq : undefined} onChanged={refresh} onRefused={onRefused} />
        ))}
      </ul>
      {refusal !== undefined ? <RescueDialog tabId={tabId} refusal={refusal} onChanged={refresh} onClose={() => setRefusal(undefined)} /> : null}
    </div>
  );
}

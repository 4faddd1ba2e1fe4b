// Past sessions by project, newest first, with live full-text search over all of them: each hit a
// line of its session's title, project, date and where it is, opening on the hit.
import { useEffect, useMemo, useState } from "react";
import type { SearchHit, SessionSummary } from "../../shared/api.js";
import { api, report } from "../apiClient.js";
import { openFromHistory } from "../actions.js";
import { setSessions, useApp } from "../state/appState.js";
import { VisibleText, visibleString } from "../util/VisibleText.js";
import { HistoryFolderRow } from "./HistoryFolderRow.js";
import { hitDate, hitProject, hitWhere } from "./hitWhere.js";
import { findInTab } from "../transcript/findState.js";
import { ContinueInTerminalButton } from "../session/ContinueInTerminal.js";
import { SessionBranchPrefix } from "../../shared/worktreeName.js";
import { WorktreeBadge } from "../layout/WorktreeBadge.js";
import { forkLinksKey, forkLinksOf, forksUnderOrigins } from "./forkLinks.js";
import "./projectPanel.css";

export function refreshSessions(): void {
  void api().listSessions().then((r) => {
    const list = report("List sessions", r);
    if (list !== undefined) setSessions(list);
  });
}

/** «match» → <mark>match</mark>, as React nodes (never HTML). */
export function Snippet({ text }: { text: string }) {
  const parts = text.split(/«|»/);
  return <span className="snippet">{parts.map((p, i) => (i % 2 === 1 ? <mark key={i}><VisibleText text={p} /></mark> : <VisibleText key={i} text={p} />))}</span>;
}

/**
 * One search result: the session's title, its project and date, where in it the hit is, and the
 * words around it. Opening it lands on the hit inside the session (transcript/findState.ts).
 */
function HitLine({ hit, query }: { hit: SearchHit; query: string }) {
  const project = hitProject(hit);
  const date = hitDate(hit);
  const where = hitWhere(hit);
  return (
    <button className="hit" onClick={() => void openHit(hit, query)} title={visibleString(hit.cwd ?? hit.project ?? "")}>
      <span className="hit-head">
        <span className="hit-title"><VisibleText text={hit.sessionTitle} /></span>
        {date !== undefined ? <time className="hit-date dim" dateTime={hit.timestamp}>{date}</time> : null}
      </span>
      <span className="hit-where dim">
        <span className="hit-kind" data-kind={hit.kind}><VisibleText text={where} /></span>
        {project !== undefined ? <span className="hit-project"> · <VisibleText text={project} /></span> : null}
      </span>
      <Snippet text={hit.snippet} />
    </button>
  );
}

/** Opens the hit's session and lands on the hit (a title or the project's name names no block: the session opens). */
async function openHit(hit: SearchHit, query: string): Promise<void> {
  const tabId = await openFromHistory(hit.sessionId, hit.project);
  if (tabId === undefined || hit.kind === "title" || hit.kind === "project" || query === "") return;
  await findInTab(tabId, query, { ...(hit.file !== undefined ? { file: hit.file } : {}), ...(hit.ref !== undefined ? { ref: hit.ref } : {}) });
}

function projectName(s: SessionSummary): string {
  return s.cwd ?? s.projectDir;
}

export function ProjectPanel() {
  const sessions = useApp((s) => s.sessions);
  const forkKey = useApp((s) => forkLinksKey(s.tabs));
  const [query, setQuery] = useState("");
  const [hits, setHits] = useState<readonly SearchHit[] | undefined>(undefined);
  useEffect(refreshSessions, []);
  useEffect(() => {
    const q = query.trim();
    if (q === "") {
      setHits(undefined);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      void api().searchHistory(q, 50).then((r) => {
        if (live) setHits(report("Search", r) ?? []);
      });
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query]);

  const groups = useMemo(() => {
    const sorted = [...sessions].sort((a, b) => (b.lastTimestamp ?? "").localeCompare(a.lastTimestamp ?? ""));
    const byProject = new Map<string, SessionSummary[]>();
    for (const s of sorted) byProject.set(projectName(s), [...(byProject.get(projectName(s)) ?? []), s]);
    const links = forkLinksOf(forkKey);
    return [...byProject].map(([project, list]) => [project, forksUnderOrigins(list, links)] as const);
  }, [sessions, forkKey]);

  return (
    <div className="project-body">
      <HistoryFolderRow
        onChanged={() => {
          setQuery(""); // hits from the old folder would mislead
          refreshSessions();
        }}
      />
      <div className="search-row">
        <input type="search" aria-label="Search history" placeholder="Search all sessions…" value={query} onChange={(e) => setQuery(e.target.value)} />
        <button aria-label="Refresh sessions" onClick={refreshSessions}>⟳</button>
      </div>
      {hits !== undefined ? (
        <ul className="hits" aria-label="Search results">
          {hits.length === 0 ? <li className="dim">No matches.</li> : null}
          {hits.map((h, i) => (
            <li key={i}>
              <HitLine hit={h} query={query.trim()} />
            </li>
          ))}
        </ul>
      ) : (
        <div className="sessions" aria-label="Sessions">
          {groups.length === 0 ? <div className="dim">No past sessions.</div> : null}
          {groups.map(([project, list]) => (
            <div key={project} className="project-group">
              <div className="project-name" title={visibleString(project)}><VisibleText text={project} /></div>
              <ul>
                {list.map(({ session: s, forkOf }) => (
                  <li key={`${s.projectDir}/${s.sessionId}`} className={forkOf !== undefined ? "session-row fork" : "session-row"}>
                    <button className="session-item" onClick={() => void openFromHistory(s.sessionId, s.projectDir)} aria-label={`Open session ${s.title}`}>
                      <span className="title"><VisibleText text={s.title} /></span>
                      {forkOf !== undefined ? (
                        <span className="fork-of dim">
                          forked from <VisibleText text={forkOf.title} />
                        </span>
                      ) : null}
                      <span className="dim">
                        {s.lastTimestamp?.slice(0, 16).replace("T", " ")}{s.promptCount !== undefined ? ` · ${s.promptCount} prompts` : ""}{(s.subagentCount ?? 0) > 0 ? ` · ${s.subagentCount} agents` : ""}
                        {/* A session that ran in a worktree of its own: its branch, as on its tab. */}
                        {s.gitBranch?.startsWith(SessionBranchPrefix) === true ? <WorktreeBadge path={s.cwd ?? s.projectDir} branch={s.gitBranch} /> : null}
                      </span>
                    </button>
                    <ContinueInTerminalButton sessionId={s.sessionId} cwd={s.cwd} title={s.title} />
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

// Where each fork came from (issue 37), for the Project panel: Baton records each fork it makes in
// its audit trail and the session list carries the link (SessionSummary.forkedFrom); an open tab
// carries its own (TabInfo.forkedFrom: a fork just made, before the list is read again). The list
// of past sessions puts each fork right under the session it came from.
import type { ForkLink, SessionSummary } from "../../shared/api.js";
import type { TabState } from "../state/appState.js";

/** The open forks' links as one string (a store selector's value: equal while no link changed). */
export function forkLinksKey(tabs: Readonly<Record<string, TabState>>): string {
  const links: [string, ForkLink][] = [];
  for (const tab of Object.values(tabs)) {
    const { sessionId, forkedFrom } = tab.info;
    if (sessionId !== undefined && forkedFrom !== undefined) links.push([sessionId, forkedFrom]);
  }
  return JSON.stringify(links.sort((a, b) => a[0].localeCompare(b[0])));
}

/** Fork session id → its link, from forkLinksKey's string. */
export function forkLinksOf(key: string): ReadonlyMap<string, ForkLink> {
  return new Map(JSON.parse(key) as [string, ForkLink][]);
}

/** One row of a project's list: a session, and the one it was forked from when that is listed too. */
export interface SessionRow {
  readonly session: SessionSummary;
  readonly forkOf?: SessionSummary;
}

/**
 * The list in its order, each fork moved to just after the session it came from (forks of forks
 * too). A fork's link is an open tab's (`links`), else the one the list recorded.
 */
export function forksUnderOrigins(list: readonly SessionSummary[], links: ReadonlyMap<string, ForkLink>): SessionRow[] {
  const byId = new Map(list.map((s) => [s.sessionId, s]));
  const originOf = (s: SessionSummary): SessionSummary | undefined => {
    const origin = (links.get(s.sessionId) ?? s.forkedFrom)?.sessionId;
    return origin === undefined || origin === s.sessionId ? undefined : byId.get(origin);
  };
  const children = new Map<string, SessionSummary[]>();
  for (const s of list) {
    const origin = originOf(s);
    if (origin !== undefined) children.set(origin.sessionId, [...(children.get(origin.sessionId) ?? []), s]);
  }
  const rows: SessionRow[] = [];
  const placed = new Set<string>();
  const place = (s: SessionSummary, forkOf: SessionSummary | undefined): void => {
    if (placed.has(s.sessionId)) return;
    placed.add(s.sessionId);
    rows.push({ session: s, ...(forkOf !== undefined ? { forkOf } : {}) });
    for (const child of children.get(s.sessionId) ?? []) place(child, s);
  };
  for (const s of list) if (originOf(s) === undefined) place(s, undefined);
  // A loop of links has no root: its sessions keep their place.
  for (const s of list) place(s, originOf(s));
  return rows;
}

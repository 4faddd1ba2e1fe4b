// The link between a fork and the session it came from, kept across restarts (issue 37). The CLI's
// file for a fork does not name its origin (docs/protocol-notes.md), so Baton records the edge it
// made in its audit trail once the fork's CLI names the fork's session (its first system/init), and
// reads it back for a restored fork's tab, a resumed fork's live tab and the session list.

import type { ForkLink } from "../../shared/api.js";
import { forkLinkOf, forkOrigins } from "../audit/audit.js";
import type { AuditTrail, ForkReader } from "../store/auditTrail.js";
import type { LiveSession } from "./liveSession.js";

/** Records the fork once its CLI names its session; a CLI started again later names the same one. */
export function recordForkWhenNamed(session: LiveSession, link: ForkLink, audit: AuditTrail): void {
  const stop = session.client.on((event) => {
    if (event.kind !== "session_init" || event.sessionId === link.sessionId) return;
    stop();
    audit.fork({ forkSessionId: event.sessionId, originSessionId: link.sessionId, promptUuid: link.promptUuid, time: new Date().toISOString() });
  });
}

/** The link of a session resumed in a live tab, when it is a fork Baton recorded; none when the trail cannot tell. */
export async function recordedForkLink(trail: { readonly audit?: AuditTrail; readonly readForks?: ForkReader }, sessionId: string | undefined): Promise<ForkLink | undefined> {
  if (trail.readForks === undefined || sessionId === undefined) return undefined;
  await trail.audit?.flush(); // a fork recorded a moment ago
  // The forks alone (a row per fork), not the session's whole trail.
  const fork = (await trail.readForks()).get(sessionId);
  return fork === undefined ? undefined : forkLinkOf(fork);
}

/**
 * The sessions `sessionId` was forked from, nearest first, as recorded: where the agents of turns
 * a fork of it copies may have run (its fork point's count, sessionFork.ts, and the new tab's
 * copied cards, copiedAgents.ts). None when the trail cannot tell.
 */
export async function recordedOrigins(trail: { readonly audit?: AuditTrail; readonly readForks?: ForkReader }, sessionId: string): Promise<string[]> {
  if (trail.readForks === undefined) return [];
  await trail.audit?.flush();
  const forks = await trail.readForks();
  return forkOrigins(sessionId, (id) => forks.get(id));
}

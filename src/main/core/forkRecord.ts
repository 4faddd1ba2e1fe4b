// The link between a fork and the session it came from, kept across restarts (issue 37). The CLI's
// file for a fork does not name its origin (docs/protocol-notes.md), so Baton records the edge it
// made in its audit trail once the fork's CLI names the fork's session (its first system/init), and
// reads it back for a restored fork's tab, a resumed fork's live tab and the session list.

import type { ForkLink } from "../../shared/api.js";
import type { AuditFork } from "../audit/audit.js";
import type { AuditReader, AuditTrail } from "../store/auditTrail.js";
import type { LiveSession } from "./liveSession.js";

/** Records the fork once its CLI names its session; a CLI started again later names the same one. */
export function recordForkWhenNamed(session: LiveSession, link: ForkLink, audit: AuditTrail): void {
  const stop = session.client.on((event) => {
    if (event.kind !== "session_init" || event.sessionId === link.sessionId) return;
    stop();
    audit.fork({ forkSessionId: event.sessionId, originSessionId: link.sessionId, promptUuid: link.promptUuid, time: new Date().toISOString() });
  });
}

/** The tab's link, from a recorded fork. */
export function forkLinkOf(fork: AuditFork): ForkLink {
  return { sessionId: fork.originSessionId, promptUuid: fork.promptUuid };
}

/** The link of a session resumed in a live tab, when it is a fork Baton recorded; none when the trail cannot tell. */
export async function recordedForkLink(trail: { readonly audit?: AuditTrail; readonly readAudit?: AuditReader }, sessionId: string | undefined): Promise<ForkLink | undefined> {
  if (trail.readAudit === undefined || sessionId === undefined) return undefined;
  await trail.audit?.flush(); // a fork recorded a moment ago
  const fork = (await trail.readAudit(sessionId))?.forkedFrom;
  return fork === undefined ? undefined : forkLinkOf(fork);
}

// What one live tab writes to Baton's audit trail: each permission decision once the client has
// answered (or dropped) its request, each interrupt Baton caused (its time bounds the turn it cuts,
// see auditOverlay.ts), and the session DAG as it grows (sessionDagAudit.ts).

import type { ClientEvent, PermissionRequestEvent } from "../../shared/events.js";
import type { SubagentRecord, Transcript } from "../../shared/transcript.js";
import type { AuditTrail } from "../store/auditTrail.js";
import { SessionDagAudit } from "./sessionDagAudit.js";
import { agentRecordOf } from "./subagentRecordOf.js";

export interface LiveAuditOptions {
  readonly trail: AuditTrail;
  readonly sessionId: () => string | undefined;
  /** The record of an Agent call as the hub has it now. */
  readonly recordOfCall: (toolUseId: string) => SubagentRecord | undefined;
  readonly transcript: () => Transcript;
}

export class LiveAudit {
  /** Requests waiting for their decision, kept for the row the decision writes. */
  private readonly asking = new Map<string, PermissionRequestEvent>();
  /** Made with the first event. */
  private dag: SessionDagAudit | undefined;

  constructor(private readonly options: LiveAuditOptions) {}

  /** Every event the tab takes in, as it comes. */
  note(event: ClientEvent): void {
    const { trail, sessionId, recordOfCall } = this.options;
    this.dag ??= new SessionDagAudit({ trail, sessionId, record: recordOfCall });
    this.dag.note(event);
    if (event.kind === "permission_request") {
      this.asking.set(event.requestId, event);
      return;
    }
    if (event.kind !== "permission_resolved" && event.kind !== "permission_cancelled") return;
    const request = this.asking.get(event.requestId);
    this.asking.delete(event.requestId);
    const id = sessionId();
    if (request === undefined || id === undefined) return;
    const agentToolUseId = request.agentId === undefined ? undefined : agentRecordOf(this.options.transcript(), request.agentId)?.toolUseId;
    trail.permission({
      sessionId: id,
      requestId: request.requestId,
      toolUseId: request.toolUseId,
      toolName: request.toolName,
      ...(request.agentId !== undefined ? { agentId: request.agentId } : {}),
      ...(agentToolUseId !== undefined ? { agentToolUseId } : {}),
      decision: event.kind === "permission_cancelled" ? "cancelled" : event.behavior,
      ...(event.kind === "permission_resolved" ? { decidedBy: event.decidedBy, ...(event.message !== undefined ? { message: event.message } : {}) } : {}),
      time: new Date().toISOString(),
    });
  }

  /** An interrupt Baton caused (an interrupt request, or a denial that stops the turn). */
  interrupt(): void {
    const sessionId = this.options.sessionId();
    if (sessionId !== undefined) this.options.trail.interrupt({ sessionId, time: new Date().toISOString() });
  }
}

// Baton's audit trail (DESIGN.md: "records every … decision and status change"): each permission
// decision and each interrupt Baton sent, by session. The JSONL history cannot say either (a
// denial is an ordinary error result on disk; an interrupt leaves "rejected" results in the
// sidechains), so a restore reads them back from here (src/main/history/auditOverlay.ts).
import type Database from "better-sqlite3";

export type AuditDecision = "allow" | "deny" | "cancelled";

export interface AuditPermission {
  readonly sessionId: string;
  readonly requestId: string;
  readonly toolUseId: string;
  /** The asking subagent's task id; absent for the main agent. */
  readonly agentId?: string;
  /** The Agent tool_use that spawned the asking subagent, when Baton knew it. */
  readonly agentToolUseId?: string;
  readonly toolName: string;
  readonly decision: AuditDecision;
  /** Who or which rule decided: "user", "policy:<name>", "timeout", "window-closed", … */
  readonly decidedBy?: string;
  readonly message?: string;
  /** ISO 8601. */
  readonly time: string;
}

export interface AuditInterrupt {
  readonly sessionId: string;
  /** ISO 8601: when Baton sent it. */
  readonly time: string;
}

/** Everything recorded for one session, oldest first. */
export interface SessionAudit {
  readonly permissions: readonly AuditPermission[];
  readonly interrupts: readonly AuditInterrupt[];
}

export const EmptyAudit: SessionAudit = Object.freeze({ permissions: Object.freeze([]), interrupts: Object.freeze([]) });

const Decisions: ReadonlySet<string> = new Set<AuditDecision>(["allow", "deny", "cancelled"]);

/** Checks an entry from another thread before it reaches SQL: a bad one is refused, not stored half. */
export function checkPermission(entry: AuditPermission): AuditPermission {
  for (const key of ["sessionId", "requestId", "toolUseId", "toolName", "time"] as const) {
    if (typeof entry[key] !== "string" || entry[key] === "") throw new TypeError(`audit permission: ${key} must be a non-empty string`);
  }
  if (!Decisions.has(entry.decision)) throw new TypeError(`audit permission: unknown decision ${String(entry.decision)}`);
  return entry;
}

export function checkInterrupt(entry: AuditInterrupt): AuditInterrupt {
  if (typeof entry.sessionId !== "string" || entry.sessionId === "") throw new TypeError("audit interrupt: sessionId must be a non-empty string");
  if (typeof entry.time !== "string" || entry.time === "") throw new TypeError("audit interrupt: time must be a non-empty string");
  return entry;
}

export function insertPermission(db: Database.Database, entry: AuditPermission): void {
  const e = checkPermission(entry);
  db.prepare(
    `INSERT INTO audit_permissions
       (session_id, request_id, tool_use_id, agent_id, agent_tool_use_id, tool_name, decision, decided_by, message, time)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(e.sessionId, e.requestId, e.toolUseId, e.agentId ?? null, e.agentToolUseId ?? null, e.toolName, e.decision, e.decidedBy ?? null, e.message ?? null, e.time);
}

export function insertInterrupt(db: Database.Database, entry: AuditInterrupt): void {
  const e = checkInterrupt(entry);
  db.prepare("INSERT INTO audit_interrupts (session_id, time) VALUES (?, ?)").run(e.sessionId, e.time);
}

interface PermissionRow {
  readonly sessionId: string;
  readonly requestId: string;
  readonly toolUseId: string;
  readonly agentId: string | null;
  readonly agentToolUseId: string | null;
  readonly toolName: string;
  readonly decision: AuditDecision;
  readonly decidedBy: string | null;
  readonly message: string | null;
  readonly time: string;
}

export function readSessionAudit(db: Database.Database, sessionId: string): SessionAudit {
  const rows = db
    .prepare(
      `SELECT session_id AS sessionId, request_id AS requestId, tool_use_id AS toolUseId, agent_id AS agentId,
              agent_tool_use_id AS agentToolUseId, tool_name AS toolName, decision, decided_by AS decidedBy, message, time
       FROM audit_permissions WHERE session_id = ? ORDER BY id`,
    )
    .all(sessionId) as PermissionRow[];
  const interrupts = db
    .prepare("SELECT session_id AS sessionId, time FROM audit_interrupts WHERE session_id = ? ORDER BY id")
    .all(sessionId) as AuditInterrupt[];
  return { permissions: rows.map(fromRow), interrupts };
}

function fromRow(r: PermissionRow): AuditPermission {
  return {
    sessionId: r.sessionId,
    requestId: r.requestId,
    toolUseId: r.toolUseId,
    ...(r.agentId !== null ? { agentId: r.agentId } : {}),
    ...(r.agentToolUseId !== null ? { agentToolUseId: r.agentToolUseId } : {}),
    toolName: r.toolName,
    decision: r.decision,
    ...(r.decidedBy !== null ? { decidedBy: r.decidedBy } : {}),
    ...(r.message !== null ? { message: r.message } : {}),
    time: r.time,
  };
}

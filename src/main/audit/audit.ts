// Baton's audit trail: each permission
// decision, each interrupt Baton sent, each policy verdict (issue 22) and the session DAG (issue
// 24: spawns, status changes, questions, plans and their reviews, phases; auditOrchestration.ts),
// forks and file rewinds (issue 37; auditForks.ts, auditRewinds.ts), by session. The JSONL
// history cannot say any of them (a denial is an ordinary error result on disk; an interrupt
// leaves "rejected" results in the sidechains), so a restore reads the answers and interrupts
// back from here (src/main/history/auditOverlay.ts), and `baton audit` the whole ordered trail.
import type Database from "better-sqlite3";
import type { PolicyDecision, SandboxProtection } from "../../shared/policy.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { auditInputDigest, boundedDigest } from "./auditDigest.js";
import { forkOrigins, readFork, type AuditFork } from "./auditForks.js";
import { readOrchestration } from "./auditOrchestration.js";
import { readRewinds } from "./auditRewinds.js";
import { buildTrail, type AuditTrailRow } from "./sessionTrail.js";

export type { AuditTrailDecision, AuditTrailInterrupt, AuditTrailOrigin, AuditTrailRewind, AuditTrailRow } from "./sessionTrail.js";
export type { AuditEscalationRow, AuditOrchestration, AuditOrchestrationKind } from "./auditOrchestration.js";
export { insertOrchestration } from "./auditOrchestration.js";
export type { AuditFork } from "./auditForks.js";
export { forkLinkOf, forkOrigins, insertFork, readForks } from "./auditForks.js";
export type { AuditRewind } from "./auditRewinds.js";
export { insertRewind, rewindRecord } from "./auditRewinds.js";

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

/**
 * Where a decision was made: the policy engine in the PreToolUse hook or on a `can_use_tool`
 * request, or Baton's MCP server (`mcp`: the escalation desk refused a conductor's tool to another
 * caller, a call that had not been refused in the hook; a004ConductorOnly.ts), or the hook of a
 * session running in a terminal (`terminal`: core/terminalSessions.ts; a006Terminal.ts).
 */
export type AuditPolicyOrigin = "hook" | "permission" | "mcp" | "terminal";

/** One verdict of the policy engine on one tool call, as its caller hands it over. */
export interface AuditPolicyDecision {
  readonly sessionId: string;
  /** ISO 8601. */
  readonly time: string;
  readonly toolUseId: string;
  readonly toolName: string;
  /** The asking agent (hook `agent_id`, request `agent_id`); all three absent: the main agent. */
  readonly agentId?: string;
  readonly agentType?: string;
  /** The preset that agent runs as, when it is one. */
  readonly preset?: string;
  /** The call's input: only its digest is stored (auditDigest.ts). */
  readonly input: JsonObject;
  readonly decision: PolicyDecision;
  /** What decided: `preset:coder/exec`, `rule:deny Bash(rm:*) (project)`, `default:ask`, … */
  readonly rule: string;
  readonly message?: string;
  readonly origin: AuditPolicyOrigin;
  /** What held a preset agent's Bash the policy let through: the OS sandbox, or the person's policy check only. */
  readonly protection?: SandboxProtection;
}

/** A policy decision as stored and sent to the store worker: the input replaced by its digest. */
export interface AuditPolicyRecord extends Omit<AuditPolicyDecision, "input"> {
  readonly inputDigest: string;
}

/** The stored form of a decision; made on the caller's side, so a large input never crosses threads. */
export function policyRecord(entry: AuditPolicyDecision): AuditPolicyRecord {
  const { input, ...rest } = entry;
  return { ...rest, inputDigest: auditInputDigest(entry.toolName, input) };
}

/** Everything recorded for one session, oldest first. */
export interface SessionAudit {
  readonly permissions: readonly AuditPermission[];
  readonly interrupts: readonly AuditInterrupt[];
  /** The session is a fork Baton made (issue 37): the session it continues and the prompt it was made at. */
  readonly forkedFrom?: AuditFork;
  /** A fork's origin, then that one's origin, …: where the agents of the turns it copied ran. */
  readonly forkOrigins?: readonly string[];
}

/** A session's records and, in one list in the order they were recorded, its whole trail. */
export interface SessionTrail extends SessionAudit {
  readonly trail: readonly AuditTrailRow[];
}

const Decisions: ReadonlySet<string> = new Set<AuditDecision>(["allow", "deny", "cancelled"]);

/** Checks an entry from another thread before it reaches SQL: a bad one is refused, not stored half. */
export function checkPermission(entry: AuditPermission): AuditPermission {
  for (const key of ["sessionId", "requestId", "toolUseId", "toolName", "time"] as const) {
    if (typeof entry[key] !== "string" || entry[key] === "") throw new TypeError(`audit permission: ${key} must be a non-empty string`);
  }
  if (!Decisions.has(entry.decision)) throw new TypeError(`audit permission: unknown decision ${String(entry.decision)}`);
  return entry;
}

const PolicyDecisions: ReadonlySet<string> = new Set<PolicyDecision>(["allow", "deny", "ask"]);
const PolicyOrigins: ReadonlySet<string> = new Set<AuditPolicyOrigin>(["hook", "permission", "mcp", "terminal"]);
const Protections: ReadonlySet<string> = new Set<SandboxProtection>(["os-sandbox", "policy-only"]);

export function checkPolicyRecord(entry: AuditPolicyRecord): AuditPolicyRecord {
  for (const key of ["sessionId", "toolUseId", "toolName", "time", "rule"] as const) {
    if (typeof entry[key] !== "string" || entry[key] === "") throw new TypeError(`audit policy decision: ${key} must be a non-empty string`);
  }
  for (const key of ["agentId", "agentType", "preset", "message"] as const) {
    if (entry[key] !== undefined && typeof entry[key] !== "string") throw new TypeError(`audit policy decision: ${key} must be a string when given`);
  }
  if (typeof entry.inputDigest !== "string") throw new TypeError("audit policy decision: inputDigest must be a string");
  if (!PolicyDecisions.has(entry.decision)) throw new TypeError(`audit policy decision: unknown decision ${String(entry.decision)}`);
  if (!PolicyOrigins.has(entry.origin)) throw new TypeError(`audit policy decision: unknown origin ${String(entry.origin)}`);
  if (entry.protection !== undefined && !Protections.has(entry.protection)) throw new TypeError(`audit policy decision: unknown protection ${String(entry.protection)}`);
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

export function insertPolicyDecision(db: Database.Database, entry: AuditPolicyRecord): void {
  const e = checkPolicyRecord(entry);
  db.prepare(
    // `protection` only when there is one, so a file before a005 (the migrations' tests) takes the row too.
    `INSERT INTO audit_policy_decisions
       (session_id, time, tool_use_id, tool_name, agent_id, agent_type, preset, input_digest, decision, rule, message, origin${e.protection !== undefined ? ", protection" : ""})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?${e.protection !== undefined ? ", ?" : ""})`,
  ).run(
    e.sessionId, e.time, e.toolUseId, e.toolName, e.agentId ?? null, e.agentType ?? null, e.preset ?? null,
    // Bounded here too: the worker's message may not have come through policyRecord.
    boundedDigest(e.inputDigest), e.decision, e.rule, e.message ?? null, e.origin, ...(e.protection !== undefined ? [e.protection] : []),
  );
}

export function insertInterrupt(db: Database.Database, entry: AuditInterrupt): void {
  const e = checkInterrupt(entry);
  db.prepare("INSERT INTO audit_interrupts (session_id, time) VALUES (?, ?)").run(e.sessionId, e.time);
}

interface PermissionRow {
  readonly seq: number | null;
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

interface InterruptRow extends AuditInterrupt {
  readonly seq: number | null;
}

interface PolicyRow {
  readonly seq: number | null;
  readonly sessionId: string;
  readonly time: string;
  readonly toolUseId: string;
  readonly toolName: string;
  readonly agentId: string | null;
  readonly agentType: string | null;
  readonly preset: string | null;
  readonly inputDigest: string;
  readonly decision: PolicyDecision;
  readonly rule: string;
  readonly message: string | null;
  readonly origin: AuditPolicyOrigin;
  /** Undefined in a file before a005. */
  readonly protection?: SandboxProtection | null;
}

export function readSessionAudit(db: Database.Database, sessionId: string): SessionTrail {
  const rows = db
    .prepare(
      `SELECT seq, session_id AS sessionId, request_id AS requestId, tool_use_id AS toolUseId, agent_id AS agentId,
              agent_tool_use_id AS agentToolUseId, tool_name AS toolName, decision, decided_by AS decidedBy, message, time
       FROM audit_permissions WHERE session_id = ? ORDER BY id`,
    )
    .all(sessionId) as PermissionRow[];
  const interruptRows = db
    .prepare("SELECT seq, session_id AS sessionId, time FROM audit_interrupts WHERE session_id = ? ORDER BY id")
    .all(sessionId) as InterruptRow[];
  const policyRows = db
    .prepare(
      `SELECT seq, session_id AS sessionId, time, tool_use_id AS toolUseId, tool_name AS toolName, agent_id AS agentId,
              agent_type AS agentType, preset, input_digest AS inputDigest, decision, rule, message, origin${hasProtection(db) ? ", protection" : ""}
       FROM audit_policy_decisions WHERE session_id = ? ORDER BY id`,
    )
    .all(sessionId) as PolicyRow[];
  const permissions = rows.map((r) => ({ seq: r.seq, row: fromRow(r) }));
  const interrupts = interruptRows.map((r) => ({ seq: r.seq, row: { sessionId: r.sessionId, time: r.time } }));
  const verdicts = policyRows.map((r) => ({ seq: r.seq, row: fromPolicyRow(r) }));
  const forkedFrom = readFork(db, sessionId);
  return {
    permissions: permissions.map((p) => p.row),
    interrupts: interrupts.map((i) => i.row),
    ...(forkedFrom !== undefined ? { forkedFrom, forkOrigins: forkOrigins(sessionId, (id) => (id === sessionId ? forkedFrom : readFork(db, id))) } : {}),
    trail: buildTrail(permissions, interrupts, verdicts, readOrchestration(db, sessionId), readRewinds(db, sessionId)),
  };
}

/** Whether the decisions table has a005's column (a file read before its upgrade has not). */
function hasProtection(db: Database.Database): boolean {
  const columns = db.prepare("SELECT name FROM pragma_table_info('audit_policy_decisions')").pluck().all() as string[];
  return columns.includes("protection");
}

function fromPolicyRow(r: PolicyRow): AuditPolicyRecord {
  return {
    sessionId: r.sessionId,
    time: r.time,
    toolUseId: r.toolUseId,
    toolName: r.toolName,
    ...(r.agentId !== null ? { agentId: r.agentId } : {}),
    ...(r.agentType !== null ? { agentType: r.agentType } : {}),
    ...(r.preset !== null ? { preset: r.preset } : {}),
    inputDigest: r.inputDigest,
    decision: r.decision,
    rule: r.rule,
    ...(r.message !== null ? { message: r.message } : {}),
    origin: r.origin,
    ...(typeof r.protection === "string" ? { protection: r.protection } : {}),
  };
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

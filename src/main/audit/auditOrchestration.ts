// The session DAG in the audit trail (issue 24, a003Orchestration.ts): spawns, subagent status
// changes, and the escalation chain (questions, plans, where they went, how they were settled,
// phases; who answered each, by agent id, from a004), each linked to its session, its agent's
// record and its tool call. Written from the live session's events (src/main/core/liveAudit.ts,
// through sessionDagAudit.ts), read back in the trail's order by `baton audit` and
// by a restore (auditOverlay.ts), which turns the escalation rows back into the live events.
import type Database from "better-sqlite3";
import {
  SubagentPhases,
  type EscalationSettler,
  type EscalationTarget,
  type PlanSubmission,
  type SubagentPhase,
} from "../../shared/escalation.js";
import type { EscalationOpenedEvent, EscalationRoutedEvent, EscalationSettledEvent, PhaseChangedEvent } from "../../shared/events.js";
import type { SubagentStatus } from "../../shared/transcript.js";
import { hasTable } from "../platform/sqlite/hasTable.js";

interface OrchestrationBase {
  readonly sessionId: string;
  /** ISO 8601. */
  readonly time: string;
  /** The agent's record: the Agent call that spawned it. */
  readonly agentToolUseId: string;
  /** The agent's task id, when Baton knew it. */
  readonly agentId?: string;
}

/** An Agent (or Task) call: `parentToolUseId` is the calling agent's Agent call, absent for the conductor. */
export interface AuditSpawn extends OrchestrationBase {
  readonly kind: "spawn";
  readonly parentToolUseId?: string;
  /** The subagent_type asked for (a preset's name when it runs as one); absent: the CLI's default. */
  readonly subagentType?: string;
  readonly description?: string;
  /** run_in_background; absent when Baton did not see the call's input (a nested agent). */
  readonly background?: boolean;
}

/** The agent's record changed status (only changes are recorded). */
export interface AuditStatus extends OrchestrationBase {
  readonly kind: "status";
  readonly status: SubagentStatus;
}

export interface AuditQuestion extends OrchestrationBase {
  readonly kind: "question";
  /** The ask_conductor call. */
  readonly toolUseId: string;
  readonly question: string;
  readonly routedTo: EscalationTarget;
  readonly reason: string;
}

/** One version of a plan (submit_plan). */
export interface AuditPlan extends OrchestrationBase {
  readonly kind: "plan";
  readonly toolUseId: string;
  readonly plan: PlanSubmission;
  readonly routedTo: EscalationTarget;
  readonly reason: string;
}

/** An open question or plan went elsewhere. */
export interface AuditRoute extends OrchestrationBase {
  readonly kind: "route";
  readonly toolUseId: string;
  readonly routedTo: EscalationTarget;
  readonly reason: string;
}

/** A question's answer (`answer`) or a plan's review (`review`), or why either failed. */
export interface AuditSettle extends OrchestrationBase {
  readonly kind: "answer" | "review";
  readonly toolUseId: string;
  readonly outcome: EscalationSettledEvent["outcome"];
  readonly reply?: string;
  readonly approvedPlan?: string;
  readonly by: EscalationSettler;
  /**
   * Who answered, by agent id (a004ConductorOnly.ts): `main` for the conductor, `person`, `baton`.
   * Absent on a conductor's answer recorded before Baton checked who called.
   */
  readonly answeredBy?: string;
}

export interface AuditPhase extends OrchestrationBase {
  readonly kind: "phase";
  readonly phase: SubagentPhase;
}

export type AuditOrchestration = AuditSpawn | AuditStatus | AuditQuestion | AuditPlan | AuditRoute | AuditSettle | AuditPhase;
export type AuditOrchestrationKind = AuditOrchestration["kind"];

/** The escalation chain's rows: what a restore feeds back. */
export type AuditEscalationRow = AuditQuestion | AuditPlan | AuditRoute | AuditSettle | AuditPhase;

const Kinds: ReadonlySet<string> = new Set<AuditOrchestrationKind>(["spawn", "status", "question", "plan", "route", "answer", "review", "phase"]);
const Statuses: ReadonlySet<string> = new Set<SubagentStatus>(["running", "completed", "failed", "stopped"]);
const Targets: ReadonlySet<string> = new Set<EscalationTarget>(["conductor", "person"]);
const Outcomes: ReadonlySet<string> = new Set<AuditSettle["outcome"]>(["answered", "approved", "rejected", "failed"]);
const Settlers: ReadonlySet<string> = new Set<EscalationSettler>(["conductor", "person", "baton"]);
const Phases: ReadonlySet<string> = new Set<string>(SubagentPhases);

export function isEscalationRow(row: { readonly kind: string }): row is AuditEscalationRow {
  return row.kind === "question" || row.kind === "plan" || row.kind === "route" || row.kind === "answer" || row.kind === "review" || row.kind === "phase";
}

/** Checks a row from another thread before it reaches SQL: a bad one is refused, not stored half. */
export function checkOrchestration(entry: AuditOrchestration): AuditOrchestration {
  const fail = (what: string): never => {
    throw new TypeError(`audit orchestration row: ${what}`);
  };
  const e = entry as unknown as Record<string, unknown>;
  const text = (key: string, required: boolean): void => {
    const v = e[key];
    if (required ? typeof v !== "string" || v === "" : v !== undefined && typeof v !== "string") fail(`${key} must be ${required ? "a non-empty string" : "a string when given"}`);
  };
  const oneOf = (key: string, set: ReadonlySet<string>): void => {
    if (typeof e[key] !== "string" || !set.has(e[key])) fail(`unknown ${key} ${String(e[key])}`);
  };
  if (typeof e["kind"] !== "string" || !Kinds.has(e["kind"])) fail(`unknown kind ${String(e["kind"])}`);
  for (const key of ["sessionId", "time", "agentToolUseId"]) text(key, true);
  text("agentId", false);
  switch (entry.kind) {
    case "spawn":
      for (const key of ["parentToolUseId", "subagentType", "description"]) text(key, false);
      if (entry.background !== undefined && typeof entry.background !== "boolean") fail("background must be a boolean when given");
      break;
    case "status":
      oneOf("status", Statuses);
      break;
    case "phase":
      oneOf("phase", Phases);
      break;
    case "question":
    case "plan":
    case "route":
      text("toolUseId", true);
      oneOf("routedTo", Targets);
      text("reason", false);
      if (typeof e["reason"] !== "string") fail("reason must be a string");
      if (entry.kind === "question") text("question", false);
      if (entry.kind === "question" && typeof entry.question !== "string") fail("question must be a string");
      if (entry.kind === "plan") checkPlan(entry.plan, fail);
      break;
    case "answer":
    case "review":
      text("toolUseId", true);
      oneOf("outcome", Outcomes);
      oneOf("by", Settlers);
      text("reply", false);
      text("approvedPlan", false);
      text("answeredBy", false);
      if (entry.answeredBy === "") fail("answeredBy must be a non-empty string when given");
      break;
  }
  return entry;
}

function checkPlan(plan: PlanSubmission | undefined, fail: (what: string) => never): void {
  if (typeof plan !== "object" || plan === null) fail("plan must be an object");
  if (typeof plan.goal !== "string") fail("plan.goal must be a string");
  if (!Array.isArray(plan.steps) || plan.steps.some((s) => typeof s !== "string")) fail("plan.steps must be strings");
  if (!Number.isInteger(plan.version) || plan.version < 1) fail("plan.version must be a positive integer");
}

export function insertOrchestration(db: Database.Database, entry: AuditOrchestration): void {
  const e = checkOrchestration(entry);
  const c: Record<string, string | number | null> = {
    session_id: e.sessionId,
    time: e.time,
    kind: e.kind,
    agent_tool_use_id: e.agentToolUseId,
    agent_id: e.agentId ?? null,
  };
  switch (e.kind) {
    case "spawn":
      Object.assign(c, {
        parent_tool_use_id: e.parentToolUseId ?? null,
        subagent_type: e.subagentType ?? null,
        description: e.description ?? null,
        background: e.background === undefined ? null : e.background ? 1 : 0,
      });
      break;
    case "status":
      c["status"] = e.status;
      break;
    case "phase":
      c["phase"] = e.phase;
      break;
    case "question":
    case "plan":
    case "route":
      Object.assign(c, { tool_use_id: e.toolUseId, routed_to: e.routedTo, reason: e.reason });
      if (e.kind === "question") c["question"] = e.question;
      if (e.kind === "plan") Object.assign(c, { plan_goal: e.plan.goal, plan_steps: JSON.stringify(e.plan.steps), plan_version: e.plan.version });
      break;
    case "answer":
    case "review":
      Object.assign(c, { tool_use_id: e.toolUseId, outcome: e.outcome, reply: e.reply ?? null, approved_plan: e.approvedPlan ?? null, settled_by: e.by });
      // Named only when known, so a file before a004 (read and written by the migrations' tests) takes the row too.
      if (e.answeredBy !== undefined) c["answered_by"] = e.answeredBy;
      break;
  }
  const columns = Object.keys(c);
  db.prepare(`INSERT INTO audit_orchestration (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(...Object.values(c));
}

interface OrchestrationRow {
  readonly seq: number | null;
  readonly session_id: string;
  readonly time: string;
  readonly kind: AuditOrchestrationKind;
  readonly agent_tool_use_id: string;
  readonly agent_id: string | null;
  readonly tool_use_id: string | null;
  readonly parent_tool_use_id: string | null;
  readonly subagent_type: string | null;
  readonly description: string | null;
  readonly background: number | null;
  readonly status: SubagentStatus | null;
  readonly question: string | null;
  readonly plan_goal: string | null;
  readonly plan_steps: string | null;
  readonly plan_version: number | null;
  readonly routed_to: EscalationTarget | null;
  readonly reason: string | null;
  readonly outcome: AuditSettle["outcome"] | null;
  readonly reply: string | null;
  readonly approved_plan: string | null;
  readonly settled_by: EscalationSettler | null;
  /** Undefined in a file before a004. */
  readonly answered_by?: string | null;
  readonly phase: SubagentPhase | null;
}

/**
 * A session's orchestration rows in insertion order, each with its place in the whole trail. A
 * file at an earlier version (read before its upgrade, as the migrations' tests do) has none.
 */
export function readOrchestration(db: Database.Database, sessionId: string): { seq: number | null; row: AuditOrchestration }[] {
  if (!hasTable(db, "audit_orchestration")) return [];
  const rows = db.prepare("SELECT * FROM audit_orchestration WHERE session_id = ? ORDER BY id").all(sessionId) as OrchestrationRow[];
  return rows.map((r) => ({ seq: r.seq, row: fromRow(r) }));
}

function fromRow(r: OrchestrationRow): AuditOrchestration {
  const base = {
    sessionId: r.session_id,
    time: r.time,
    agentToolUseId: r.agent_tool_use_id,
    ...(r.agent_id !== null ? { agentId: r.agent_id } : {}),
  };
  const toolUseId = r.tool_use_id ?? "";
  switch (r.kind) {
    case "spawn":
      return {
        kind: "spawn",
        ...base,
        ...(r.parent_tool_use_id !== null ? { parentToolUseId: r.parent_tool_use_id } : {}),
        ...(r.subagent_type !== null ? { subagentType: r.subagent_type } : {}),
        ...(r.description !== null ? { description: r.description } : {}),
        ...(r.background !== null ? { background: r.background === 1 } : {}),
      };
    case "status":
      return { kind: "status", ...base, status: r.status ?? "running" };
    case "phase":
      return { kind: "phase", ...base, phase: r.phase ?? "clarifying" };
    case "question":
      return { kind: "question", ...base, toolUseId, question: r.question ?? "", routedTo: r.routed_to ?? "conductor", reason: r.reason ?? "" };
    case "plan":
      return {
        kind: "plan",
        ...base,
        toolUseId,
        plan: { goal: r.plan_goal ?? "", steps: planSteps(r.plan_steps), version: r.plan_version ?? 1 },
        routedTo: r.routed_to ?? "conductor",
        reason: r.reason ?? "",
      };
    case "route":
      return { kind: "route", ...base, toolUseId, routedTo: r.routed_to ?? "conductor", reason: r.reason ?? "" };
    case "answer":
    case "review":
      return {
        kind: r.kind,
        ...base,
        toolUseId,
        outcome: r.outcome ?? "failed",
        ...(r.reply !== null ? { reply: r.reply } : {}),
        ...(r.approved_plan !== null ? { approvedPlan: r.approved_plan } : {}),
        by: r.settled_by ?? "baton",
        ...(typeof r.answered_by === "string" ? { answeredBy: r.answered_by } : {}),
      };
  }
}

/** The stored steps; a damaged value reads as no steps rather than failing the whole trail. */
function planSteps(json: string | null): string[] {
  try {
    const steps: unknown = JSON.parse(json ?? "[]");
    return Array.isArray(steps) ? steps.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
}

/** The escalation event a live session emitted, as a row (`kind` of a settle: answer or review, from the escalation it settles). */
export function escalationRow(
  sessionId: string,
  event: EscalationOpenedEvent | EscalationRoutedEvent | EscalationSettledEvent | PhaseChangedEvent,
  agentId: string | undefined,
  now: string,
  settles: "question" | "plan" | undefined,
): AuditEscalationRow {
  const base = { sessionId, agentToolUseId: event.agentToolUseId, ...(agentId !== undefined ? { agentId } : {}) };
  switch (event.kind) {
    case "escalation_opened":
      return event.plan !== undefined
        ? { kind: "plan", ...base, time: event.at, toolUseId: event.id, plan: event.plan, routedTo: event.routedTo, reason: event.routeReason }
        : { kind: "question", ...base, time: event.at, toolUseId: event.id, question: event.question ?? "", routedTo: event.routedTo, reason: event.routeReason };
    case "escalation_routed":
      return { kind: "route", ...base, time: now, toolUseId: event.id, routedTo: event.routedTo, reason: event.reason };
    case "escalation_settled": {
      const review = settles === "plan" || (settles === undefined && (event.outcome === "approved" || event.outcome === "rejected"));
      return {
        kind: review ? "review" : "answer",
        ...base,
        time: event.at,
        toolUseId: event.id,
        outcome: event.outcome,
        ...(event.reply !== undefined ? { reply: event.reply } : {}),
        ...(event.approvedPlan !== undefined ? { approvedPlan: event.approvedPlan } : {}),
        by: event.by,
        ...(event.answeredBy !== undefined ? { answeredBy: event.answeredBy } : {}),
      };
    }
    case "phase_changed":
      return { kind: "phase", ...base, time: event.at, phase: event.phase };
  }
}

/** The live event a recorded escalation row stands for (a restore feeds these back). */
export function escalationEvent(row: AuditEscalationRow): EscalationOpenedEvent | EscalationRoutedEvent | EscalationSettledEvent | PhaseChangedEvent {
  const agentToolUseId = row.agentToolUseId;
  switch (row.kind) {
    case "question":
      return { kind: "escalation_opened", id: row.toolUseId, agentToolUseId, at: row.time, question: row.question, routedTo: row.routedTo, routeReason: row.reason };
    case "plan":
      return { kind: "escalation_opened", id: row.toolUseId, agentToolUseId, at: row.time, plan: row.plan, routedTo: row.routedTo, routeReason: row.reason };
    case "route":
      return { kind: "escalation_routed", id: row.toolUseId, agentToolUseId, routedTo: row.routedTo, reason: row.reason };
    case "answer":
    case "review":
      return {
        kind: "escalation_settled",
        id: row.toolUseId,
        agentToolUseId,
        at: row.time,
        outcome: row.outcome,
        ...(row.reply !== undefined ? { reply: row.reply } : {}),
        ...(row.approvedPlan !== undefined ? { approvedPlan: row.approvedPlan } : {}),
        by: row.by,
        ...(row.answeredBy !== undefined ? { answeredBy: row.answeredBy } : {}),
      };
    case "phase":
      return { kind: "phase_changed", agentToolUseId, phase: row.phase, at: row.time };
  }
}

// One session's audit trail as one ordered list: the person's answers, the policy engine's verdicts,
// the interrupts, the session DAG's rows (auditOrchestration.ts) and the file rewinds
// (auditRewinds.ts), in the order they were recorded (each row's `seq`, a002PolicyDecisions.ts).
//
// The person's answers are stored as the permission requests' outcomes (audit.ts), so here they
// take the trail's words: answered by the person is rule "person"; answered by Baton on its own
// (shutdown, a closed window, a policy verdict) keeps what decided it. A policy verdict answering a
// can_use_tool request reaches the trail twice (the verdict, then the request's outcome "policy:
// <rule>"): the outcome is folded into the verdict it repeats. The person's answer to a call gains
// the agent, preset and input digest of the verdict that put the call in front of them.
import type { PolicyDecision } from "../../shared/policy.js";
import type { AuditInterrupt, AuditPermission, AuditPolicyOrigin, AuditPolicyRecord } from "./audit.js";
import type { AuditOrchestration } from "./auditOrchestration.js";
import type { AuditRewind } from "./auditRewinds.js";

/** Where a decision in the trail was made: the PreToolUse hook, a can_use_tool request, the person. */
export type AuditTrailOrigin = AuditPolicyOrigin | "person";

/** The rule of a decision the person made. */
export const PersonRule = "person";

/** A decision as the trail shows it: a stored verdict's fields, or a person's answer in the same words. */
export interface AuditTrailDecision extends Omit<AuditPolicyRecord, "inputDigest" | "decision" | "origin"> {
  readonly kind: "decision";
  /** One bounded line naming the call (auditDigest.ts); absent for an answer no verdict described. */
  readonly inputDigest?: string;
  /** `cancelled`: the CLI withdrew its request before anyone answered. */
  readonly decision: PolicyDecision | "cancelled";
  readonly origin: AuditTrailOrigin;
  /** The permission request this answered, when there was one. */
  readonly requestId?: string;
}

export interface AuditTrailInterrupt {
  readonly kind: "interrupt";
  readonly sessionId: string;
  /** ISO 8601: when Baton sent it. */
  readonly time: string;
}

/** Baton rewound the session's files to just before one of its prompts (issue 37). */
export interface AuditTrailRewind extends AuditRewind {
  readonly kind: "rewind";
}

export type AuditTrailRow = AuditTrailDecision | AuditTrailInterrupt | AuditOrchestration | AuditTrailRewind;

/** A stored row and its place in the trail (null only for a row no trigger numbered). */
export interface Placed<T> {
  readonly seq: number | null;
  readonly row: T;
}

const PolicyPrefix = "policy:";

export function buildTrail(
  permissions: readonly Placed<AuditPermission>[],
  interrupts: readonly Placed<AuditInterrupt>[],
  verdicts: readonly Placed<AuditPolicyRecord>[],
  orchestration: readonly Placed<AuditOrchestration>[],
  rewinds: readonly Placed<AuditRewind>[],
): AuditTrailRow[] {
  const placed = [
    ...verdicts.map((v) => ({ seq: v.seq, item: { kind: "verdict" as const, row: v.row } })),
    ...permissions.map((p) => ({ seq: p.seq, item: { kind: "answer" as const, row: p.row } })),
    ...interrupts.map((i) => ({ seq: i.seq, item: { kind: "interrupt" as const, row: i.row } })),
    ...orchestration.map((o) => ({ seq: o.seq, item: { kind: "orchestration" as const, row: o.row } })),
    ...rewinds.map((r) => ({ seq: r.seq, item: { kind: "rewind" as const, row: r.row } })),
  ];
  // Array.prototype.sort is stable: unnumbered rows keep their table's order, after the rest.
  placed.sort((a, b) => (a.seq ?? Infinity) - (b.seq ?? Infinity));
  const out: AuditTrailRow[] = [];
  /** The latest verdict on each tool use: its index in `out`. */
  const verdictAt = new Map<string, number>();
  for (const { item } of placed) {
    if (item.kind === "orchestration") {
      out.push(item.row);
    } else if (item.kind === "rewind") {
      out.push({ kind: "rewind", ...item.row });
    } else if (item.kind === "interrupt") {
      out.push({ kind: "interrupt", sessionId: item.row.sessionId, time: item.row.time });
    } else if (item.kind === "verdict") {
      const { inputDigest, ...rest } = item.row;
      verdictAt.set(item.row.toolUseId, out.length);
      out.push({ kind: "decision", ...rest, inputDigest });
    } else {
      const at = verdictAt.get(item.row.toolUseId);
      const verdict = at === undefined ? undefined : (out[at] as AuditTrailDecision);
      if (verdict !== undefined && repeats(item.row, verdict)) out[at!] = { ...verdict, requestId: item.row.requestId };
      else out.push(answerRow(item.row, verdict));
    }
  }
  return out;
}

/** A request's outcome that only restates the policy verdict which answered that request. */
function repeats(answer: AuditPermission, verdict: AuditTrailDecision): boolean {
  return (
    verdict.origin === "permission" &&
    verdict.requestId === undefined &&
    answer.decidedBy === `${PolicyPrefix}${verdict.rule}` &&
    answer.decision === verdict.decision
  );
}

function answerRow(p: AuditPermission, verdict: AuditTrailDecision | undefined): AuditTrailDecision {
  const byPerson = p.decidedBy === "user";
  const agentId = p.agentId ?? verdict?.agentId;
  return {
    kind: "decision",
    sessionId: p.sessionId,
    time: p.time,
    toolUseId: p.toolUseId,
    toolName: p.toolName,
    ...(agentId !== undefined ? { agentId } : {}),
    ...(verdict?.agentType !== undefined ? { agentType: verdict.agentType } : {}),
    ...(verdict?.preset !== undefined ? { preset: verdict.preset } : {}),
    ...(verdict?.inputDigest !== undefined ? { inputDigest: verdict.inputDigest } : {}),
    decision: p.decision,
    rule: byPerson ? PersonRule : answerRule(p),
    ...(p.message !== undefined ? { message: p.message } : {}),
    origin: byPerson ? "person" : "permission",
    requestId: p.requestId,
  };
}

/** What answered a request when the person did not: its policy rule, or who (shutdown, timeout, …). */
function answerRule(p: AuditPermission): string {
  if (p.decidedBy === undefined) return p.decision === "cancelled" ? "cancelled" : "baton";
  return p.decidedBy.startsWith(PolicyPrefix) ? p.decidedBy.slice(PolicyPrefix.length) : p.decidedBy;
}

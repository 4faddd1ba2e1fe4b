// Baton's escalation chain on the asking agent's record (issue 24): each question or plan the
// agent sent, where it waits, how it was settled, and the agent's phase. The events come from
// src/main/orchestration live and from the audit trail on restore. An event for an agent whose
// Agent call is not in the tree yet (a nested agent whose sidechain is not read) waits in
// `tree.earlyEscalations` and is folded in when the call arrives.

import type { Escalation } from "../../shared/escalation.js";
import type { EscalationOpenedEvent, EscalationRoutedEvent, EscalationSettledEvent, PhaseChangedEvent } from "../../shared/events.js";
import type { SubagentRecord } from "../../shared/transcript.js";
import type { SessionModel } from "./session.js";
import { editRecordById } from "./subagentRecords.js";

export function onEscalationOpened(s: SessionModel, ev: EscalationOpenedEvent): void {
  const escalation: Escalation = {
    id: ev.id,
    kind: ev.plan !== undefined ? "plan" : "question",
    openedAt: ev.at,
    ...(ev.question !== undefined ? { question: ev.question } : {}),
    ...(ev.plan !== undefined ? { plan: ev.plan } : {}),
    state: "open",
    routedTo: ev.routedTo,
    routeReason: ev.routeReason,
  };
  editAgent(s, ev.agentToolUseId, (r) => (r.escalations?.some((e) => e.id === ev.id) === true ? r : { ...r, escalations: [...(r.escalations ?? []), escalation] }));
}

export function onEscalationRouted(s: SessionModel, ev: EscalationRoutedEvent): void {
  editEscalation(s, ev.agentToolUseId, ev.id, (e) => (e.state !== "open" ? e : { ...e, routedTo: ev.routedTo, routeReason: ev.reason }));
}

export function onEscalationSettled(s: SessionModel, ev: EscalationSettledEvent): void {
  editEscalation(s, ev.agentToolUseId, ev.id, (e) =>
    e.state !== "open"
      ? e // the first answer wins
      : {
          ...e,
          state: ev.outcome,
          ...(ev.reply !== undefined ? { reply: ev.reply } : {}),
          ...(ev.approvedPlan !== undefined ? { approvedPlan: ev.approvedPlan } : {}),
          settledBy: ev.by,
          settledAt: ev.at,
        },
  );
}

export function onPhaseChanged(s: SessionModel, ev: PhaseChangedEvent): void {
  editAgent(s, ev.agentToolUseId, (r) => (r.phase === ev.phase ? r : { ...r, phase: ev.phase, phaseHistory: [...(r.phaseHistory ?? []), { phase: ev.phase, at: ev.at }] }));
}

/** A new record takes what arrived for it before its Agent call did. */
export function withEarlyEscalations(s: SessionModel, record: SubagentRecord): SubagentRecord {
  const early = s.tree.earlyEscalations.get(record.toolUseId);
  if (early === undefined) return record;
  s.tree.earlyEscalations.delete(record.toolUseId);
  return early(record);
}

function editEscalation(s: SessionModel, agentToolUseId: string, id: string, fn: (e: Escalation) => Escalation): void {
  editAgent(s, agentToolUseId, (r) => {
    const list = r.escalations;
    const at = list?.findIndex((e) => e.id === id) ?? -1;
    if (list === undefined || at === -1) return r;
    const next = fn(list[at] as Escalation);
    return next === list[at] ? r : { ...r, escalations: list.map((e, i) => (i === at ? next : e)) };
  });
}

/** Edits the agent's record, or keeps the edit for when the record appears. */
function editAgent(s: SessionModel, agentToolUseId: string, fn: (record: SubagentRecord) => SubagentRecord): void {
  if (editRecordById(s, agentToolUseId, fn)) return;
  const before = s.tree.earlyEscalations.get(agentToolUseId);
  s.tree.earlyEscalations.set(agentToolUseId, before === undefined ? fn : (r) => fn(before(r)));
}

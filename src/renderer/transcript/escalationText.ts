// The words Baton uses for a subagent's questions and plans (issue 24): where an open one waits,
// who settled it and how, and an agent's history in order. Pure, so the card, the Hierarchy and
// the Inspector say the same thing and unit tests read it without a DOM.

import { planText, type Escalation, type EscalationSettler, type EscalationTarget } from "../../shared/escalation.js";
import type { SubagentRecord } from "../../shared/transcript.js";

/** "Question from coder", "Plan from coder": the escalation view's accessible name (test contract). */
export function escalationLabel(e: Pick<Escalation, "kind">, subagentType: string): string {
  return `${e.kind === "plan" ? "Plan" : "Question"} from ${subagentType}`;
}

/** Who an agent waits on: the person if any open escalation waits on them, else the conductor, else nobody. */
export function waitingOn(escalations: readonly Escalation[] | undefined): EscalationTarget | undefined {
  let target: EscalationTarget | undefined;
  for (const e of escalations ?? []) {
    if (e.state !== "open") continue;
    if (e.routedTo === "person") return "person";
    target = "conductor";
  }
  return target;
}

export function waitingText(target: EscalationTarget): string {
  return target === "person" ? "waiting for you" : "waiting for the conductor";
}

export function settlerName(by: EscalationSettler | undefined): string {
  return by === "person" ? "you" : by === "conductor" ? "the conductor" : by === "baton" ? "Baton" : "someone";
}

/** "answered by you", "approved with edits by the conductor", "rejected by you", "not answered". */
export function outcomeText(e: Escalation): string {
  const by = `by ${settlerName(e.settledBy)}`;
  switch (e.state) {
    case "open":
      return "open";
    case "answered":
      return `answered ${by}`;
    case "approved":
      return e.approvedPlan !== undefined ? `approved with edits ${by}` : `approved ${by}`;
    case "rejected":
      return `rejected ${by}`;
    case "failed":
      return "not answered";
  }
}

/** The plan an open review starts from: the submission as the agent would read it. */
export function planOf(e: Escalation): string {
  return e.plan !== undefined ? planText(e.plan) : "";
}

/** The plan the agent went on with: the edited one when the approval carried edits. */
export function approvedPlanOf(e: Escalation): string {
  return e.approvedPlan ?? planOf(e);
}

/** An edit worth sending: the text differs from the submission beyond surrounding whitespace. */
export function isEdited(original: string, edited: string): boolean {
  return edited.trim() !== "" && edited.trim() !== original.trim();
}

/** "14:03:07" in the viewer's time zone, or "" for a missing or unreadable time. */
export function clockTime(iso: string | undefined): string {
  if (iso === undefined) return "";
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return "";
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

export type HistoryEntryKind = "asked" | "submitted" | "answered" | "approved" | "rejected" | "failed" | "phase";

/** One line of an agent's escalation history: what happened, when, and the text that goes with it. */
export interface HistoryEntry {
  readonly key: string;
  readonly at: string;
  readonly kind: HistoryEntryKind;
  /** "Question", "Plan v2", "Answer by you", "Approved with edits by the conductor", … */
  readonly title: string;
  readonly text: string;
  /** A plan (drawn as markdown) rather than an answer, feedback or reason (drawn as text). */
  readonly isPlan: boolean;
}

/**
 * Every question, plan, answer, review and phase change of an agent in time order (stable for
 * equal times: an opening before its settling, earlier escalations first, then the phase change
 * they caused).
 */
export function escalationHistory(escalations: readonly Escalation[] | undefined, phases: SubagentRecord["phaseHistory"] = []): HistoryEntry[] {
  const entries: { entry: HistoryEntry; order: number }[] = [];
  let order = 0;
  for (const e of escalations ?? []) {
    const opened: HistoryEntry =
      e.kind === "plan"
        ? { key: `${e.id}:open`, at: e.openedAt, kind: "submitted", title: `Plan v${e.plan?.version ?? 1}`, text: planOf(e), isPlan: true }
        : { key: `${e.id}:open`, at: e.openedAt, kind: "asked", title: "Question", text: e.question ?? "", isPlan: false };
    entries.push({ entry: opened, order: order++ });
    if (e.state === "open") continue;
    entries.push({ entry: settledEntry(e), order: order++ });
  }
  for (const [i, p] of phases.entries()) {
    entries.push({ entry: { key: `phase:${i}`, at: p.at, kind: "phase", title: `Phase: ${p.phase}`, text: "", isPlan: false }, order: order++ });
  }
  const time = (at: string): number => {
    const ms = Date.parse(at);
    return Number.isFinite(ms) ? ms : Number.MAX_SAFE_INTEGER;
  };
  return entries.sort((a, b) => time(a.entry.at) - time(b.entry.at) || a.order - b.order).map((x) => x.entry);
}

function settledEntry(e: Escalation): HistoryEntry {
  const by = settlerName(e.settledBy);
  const at = e.settledAt ?? e.openedAt;
  const key = `${e.id}:settled`;
  switch (e.state) {
    case "answered":
      return { key, at, kind: "answered", title: `Answer by ${by}`, text: e.reply ?? "", isPlan: false };
    case "approved":
      return {
        key,
        at,
        kind: "approved",
        title: e.approvedPlan !== undefined ? `Approved with edits by ${by}` : `Approved by ${by}`,
        text: e.approvedPlan ?? e.reply ?? "",
        isPlan: e.approvedPlan !== undefined,
      };
    case "rejected":
      return { key, at, kind: "rejected", title: `Rejected by ${by}`, text: e.reply ?? "", isPlan: false };
    default:
      return { key, at, kind: "failed", title: "Not answered", text: e.reply ?? "", isPlan: false };
  }
}

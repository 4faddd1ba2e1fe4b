// The words of the escalation chain and subagent plan review (issue 24): a
// Deliberate subagent's question (ask_conductor) or plan (submit_plan) goes to the conductor or to
// the person, and stays open until one of them answers; a Deliberate subagent moves through
// phases. Pure data: the main process runs the chain (src/main/orchestration), the hub puts it on
// the asking agent's record, the renderer shows it and the audit trail keeps it.

/**
 * Where a Deliberate subagent is: agreeing on its goal, its plan in review, carrying it out, done.
 * Exploratory ones have none.
 */
export type SubagentPhase = "clarifying" | "review" | "executing" | "completed";

export const SubagentPhases: readonly SubagentPhase[] = ["clarifying", "review", "executing", "completed"];

export type EscalationKind = "question" | "plan";

/** Who an open escalation waits on now. */
export type EscalationTarget = "conductor" | "person";

/**
 * Who settled it: the conductor (answer_subagent / review_subagent_plan), the person (on the
 * card), or Baton itself when it could not be answered (the session ended, was interrupted, the
 * window was gone past the grace period).
 */
export type EscalationSettler = "conductor" | "person" | "baton";

export type EscalationState = "open" | "answered" | "approved" | "rejected" | "failed";

/** A submitted plan (submit_plan's arguments); each submission of an agent is a new version. */
export interface PlanSubmission {
  readonly goal: string;
  readonly steps: readonly string[];
  /** 1 for an agent's first plan, then 2, 3, … */
  readonly version: number;
}

/** One question or plan of a subagent, as its card shows it. */
export interface Escalation {
  /** The tool_use id of the ask_conductor / submit_plan call that opened it. */
  readonly id: string;
  readonly kind: EscalationKind;
  readonly openedAt: string;
  /** kind "question". */
  readonly question?: string;
  /** kind "plan". */
  readonly plan?: PlanSubmission;
  readonly state: EscalationState;
  /** Who it waits on (or waited on last). */
  readonly routedTo: EscalationTarget;
  /** Why it went there: "background agent", "foreground agent: the conductor waits on it", "no answer in 120 s", "the conductor escalated", … */
  readonly routeReason: string;
  /** The answer, the review's feedback, or why it failed. */
  readonly reply?: string;
  /** An approval with edits: the plan the agent was given instead of its own. */
  readonly approvedPlan?: string;
  readonly settledBy?: EscalationSettler;
  readonly settledAt?: string;
}

/** What the person answers on a card (BatonApi.answerEscalation). */
export type EscalationReply =
  | { readonly kind: "answer"; readonly text: string }
  | { readonly kind: "approve"; readonly editedPlan?: string }
  | { readonly kind: "reject"; readonly feedback: string };

/** A plan as the agent and the reviewer read it: the goal, then numbered steps. */
export function planText(plan: Pick<PlanSubmission, "goal" | "steps">): string {
  const steps = plan.steps.map((step, i) => `${i + 1}. ${step}`);
  return steps.length === 0 ? `Goal: ${plan.goal}` : `Goal: ${plan.goal}\n\n${steps.join("\n")}`;
}

/** The open escalations of a list, by kind: what a badge counts. */
export function openCounts(escalations: readonly Escalation[] | undefined): { readonly questions: number; readonly plans: number } {
  let questions = 0;
  let plans = 0;
  for (const e of escalations ?? []) {
    if (e?.state !== "open") continue; // a damaged entry counts as nothing
    if (e.kind === "question") questions++;
    else plans++;
  }
  return { questions, plans };
}

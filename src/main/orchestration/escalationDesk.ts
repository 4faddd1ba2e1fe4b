// The escalation chain of one live session (issue 24): a Deliberate subagent's
// ask_conductor question or submit_plan plan stays open until the conductor or the person settles
// it, and that answer is the tool's result. Where it goes first:
//   * the conductor, as a message ("[coder a1b2 asks]: …"), when it is free to answer: the agent
//     runs in the background, so the conductor is not waiting on it (the CLI queues the message
//     behind a running turn);
//   * the person, when the conductor waits on that very agent (a foreground Agent call, at every
//     level up to the conductor): it could not answer until the agent returns.
// A question the conductor leaves unanswered for `conductorTimeoutMs` goes to the person too, and
// so does one the conductor hands on (answer "escalate"). The person may settle any open one at
// any time; the first answer wins and a later one is told who answered. Nothing hangs: a call the
// CLI withdraws (an interrupt), a session that ends or crashes, and a window gone past the grace
// period each settle it as failed, with the reason on the card.
//
// Only the conductor answers (issue 31): answer_subagent and review_subagent_plan from any other
// caller are refused here too, not only by the policy in the PreToolUse hook, so a call that
// skipped the hook still cannot approve a plan. The refusal is the caller's tool error and goes
// to `onRefused` (the audit trail); the escalation it named stays open. Every settlement names
// who answered by agent id (`main`, `person`, `baton`).
//
// The desk also keeps each Deliberate agent's phase (clarifying → review → executing →
// completed), which the policy reads to refuse changes before a plan is approved. Only an
// executing agent completes: one that ends before its plan was approved keeps its phase, so a
// SendMessage continuation (in this session, or a resumed one, which starts from the phases the
// audit trail recorded: restorePhases) is still held to it.

import type { Escalation, EscalationReply, EscalationSettler, EscalationTarget, PlanSubmission, SubagentPhase } from "../../shared/escalation.js";
import { planText } from "../../shared/escalation.js";
import type { ClientEvent } from "../../shared/events.js";
import type { SubagentRecord } from "../../shared/transcript.js";
import { batonToolAccess, ConductorAgentId, type BatonCaller, type BatonToolVerdict } from "../mcp/batonToolAccess.js";
import type { AnswerSubagentArgs, AskConductorArgs, BatonToolHandlers, BatonToolName, ReviewSubagentPlanArgs, SubmitPlanArgs } from "../mcp/batonTools.js";
import type { ToolCallContext, ToolOutcome } from "../mcp/toolRegistry.js";
import type { RestoredPhases } from "./restoredPhases.js";

/** The asking agent, as the session knows it when the call arrives. */
export interface AskingAgent {
  readonly record: SubagentRecord;
  /** Whether the conductor's turn waits on this agent: a foreground Agent call at every level up to the conductor. */
  readonly conductorWaits: boolean;
}

export interface EscalationDeskOptions {
  /** Into the session's transcript (and audit trail): the hub puts these on the asking agent's record. */
  readonly emit: (event: ClientEvent) => void;
  /** A message to the conductor; the CLI queues it behind a running turn. */
  readonly tellConductor: (text: string) => void;
  /** The subagent that made the MCP call with this tool_use id; undefined for the conductor or an agent Baton cannot place. */
  readonly askingAgent: (toolUseId: string | undefined) => AskingAgent | undefined;
  /** Who made the MCP call with this tool_use id: only the conductor may answer and review. */
  readonly callerOf: (toolUseId: string | undefined) => BatonCaller;
  /** A conductor's tool called by another agent was refused (the audit trail records it). */
  readonly onRefused?: (refusal: RefusedCall) => void;
  /** A subagent by the name the conductor gives (agent id, or its Agent call's tool_use id). */
  readonly agentNamed: (name: string) => SubagentRecord | undefined;
  /** How long the conductor has to answer before the person is asked. */
  readonly conductorTimeoutMs: number;
  /** Whether a window is there to show the person an escalation (see `presenceChanged`). */
  readonly personPresent: () => boolean;
  /** How long an escalation waits for the person with no window before it fails. */
  readonly graceMs: number;
  readonly log?: (message: string, fields: Record<string, unknown>) => void;
  readonly now?: () => Date;
}

/** A call of a conductor's tool the desk refused, and why. */
export interface RefusedCall {
  readonly tool: BatonToolName;
  /** The call's tool_use id, when the CLI named it. */
  readonly toolUseId: string | undefined;
  readonly requestId: ToolCallContext["requestId"];
  readonly caller: BatonCaller;
  /** The arguments it sent (the agent it named, the decision). */
  readonly args: AnswerSubagentArgs | ReviewSubagentPlanArgs;
  readonly verdict: BatonToolVerdict;
}

/** What a settled escalation tells the agent that waits on it. */
interface Settlement {
  readonly outcome: "answered" | "approved" | "rejected" | "failed";
  readonly reply?: string;
  readonly approvedPlan?: string;
  readonly by: EscalationSettler;
}

/** Who answered, by agent id: the conductor is the main agent (the desk refuses anyone else). */
function answeredBy(by: EscalationSettler): string {
  return by === "conductor" ? ConductorAgentId : by;
}

interface Open {
  readonly id: string;
  readonly kind: Escalation["kind"];
  readonly agent: SubagentRecord;
  /** The name the conductor is told to use. */
  readonly agentName: string;
  readonly question?: string;
  readonly plan?: PlanSubmission;
  routedTo: EscalationTarget;
  timer: ReturnType<typeof setTimeout> | undefined;
  readonly settle: (s: Settlement) => void;
}

/** The answer that hands an escalation on to the person: the conductor's, when it cannot answer itself. */
export const EscalateAnswer = "escalate";

export class EscalationDesk {
  private readonly open = new Map<string, Open>();
  /** Settled escalations, by id: a late answer is told who answered first. */
  private readonly settled = new Map<string, { readonly settlement: Settlement; readonly agentToolUseId: string }>();
  /** Plan versions submitted, by Agent call. */
  private readonly planVersions = new Map<string, number>();
  private readonly phases = new Map<string, SubagentPhase>();
  /** Agents of a resumed session's earlier runs: agent id → Agent call. */
  private readonly restoredCalls = new Map<string, string>();
  /** Agents with a phase seen finished. */
  private readonly ended = new Set<string>();
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(private readonly options: EscalationDeskOptions) {}

  /** The handlers of Baton's MCP tools for this session. */
  handlers(): BatonToolHandlers {
    return {
      askConductor: (args, call) => this.ask(args, call),
      submitPlan: (args, call) => this.submit(args, call),
      answerSubagent: (args, call) => Promise.resolve(this.refusal("answer_subagent", args, call) ?? this.conductorAnswers(args)),
      reviewSubagentPlan: (args, call) => Promise.resolve(this.refusal("review_subagent_plan", args, call) ?? this.conductorReviews(args)),
    };
  }

  /** A Deliberate preset's agent was spawned: it starts clarifying. */
  agentSpawned(agentToolUseId: string): void {
    if (!this.phases.has(agentToolUseId)) this.setPhase(agentToolUseId, "clarifying");
  }

  /** An agent with a phase finished (completed, failed or stopped): nothing it asked can be answered now. */
  agentEnded(agentToolUseId: string, status: SubagentRecord["status"]): void {
    for (const entry of [...this.open.values()]) {
      if (entry.agent.toolUseId === agentToolUseId) this.finish(entry, { outcome: "failed", reply: `The agent ${status} before it was answered.`, by: "baton" });
    }
    if (this.phases.get(agentToolUseId) === "executing" && status === "completed") this.setPhase(agentToolUseId, "completed");
  }

  /**
   * The phases a resumed session's agents were left in (from the audit trail), set without a new
   * event: they are history, and an agent continued by SendMessage must not start unchecked.
   */
  restorePhases(restored: RestoredPhases): void {
    for (const [agentToolUseId, phase] of restored.phases) if (!this.phases.has(agentToolUseId)) this.phases.set(agentToolUseId, phase);
    for (const [agentId, call] of restored.calls) this.restoredCalls.set(agentId, call);
  }

  /** The Agent call of an earlier run's agent, by its agent id: the new run's model has no record of it. */
  restoredCallOf(agentId: string): string | undefined {
    return this.restoredCalls.get(agentId);
  }

  /** After the session's model changed: an agent with a phase that finished ends its phase (see agentEnded). */
  checkAgents(statusOf: (agentToolUseId: string) => SubagentRecord["status"] | undefined): void {
    for (const [agentToolUseId, phase] of this.phases) {
      if (phase === "completed") continue;
      const status = statusOf(agentToolUseId);
      if (status === undefined) continue;
      // Running again (a SendMessage continuation): its next end counts too.
      if (status === "running") this.ended.delete(agentToolUseId);
      if (status === "running" || this.ended.has(agentToolUseId)) continue;
      this.ended.add(agentToolUseId);
      this.agentEnded(agentToolUseId, status);
    }
  }

  /** The phase of a Deliberate agent; undefined for every other agent. */
  phaseOf(agentToolUseId: string): SubagentPhase | undefined {
    return this.phases.get(agentToolUseId);
  }

  /** The person's answer from a card. */
  answerByPerson(id: string, reply: EscalationReply): { readonly ok: true } | { readonly ok: false; readonly code: "not_found" | "conflict" | "invalid_argument"; readonly message: string } {
    const entry = this.open.get(id);
    if (entry === undefined) {
      const done = this.settled.get(id)?.settlement;
      if (done === undefined) return { ok: false, code: "not_found", message: "This session has no such question or plan." };
      return { ok: false, code: "conflict", message: `Already ${describe(done)}.` };
    }
    if (entry.kind === "question") {
      if (reply.kind !== "answer") return { ok: false, code: "invalid_argument", message: "A question takes an answer, not a review." };
      this.finish(entry, { outcome: "answered", reply: reply.text, by: "person" });
    } else if (reply.kind === "approve") {
      const original = planText(entry.plan as PlanSubmission);
      const edited = reply.editedPlan !== undefined && reply.editedPlan.trim() !== original.trim() ? reply.editedPlan : undefined;
      this.finish(entry, { outcome: "approved", ...(edited !== undefined ? { approvedPlan: edited } : {}), by: "person" });
    } else if (reply.kind === "reject") {
      this.finish(entry, { outcome: "rejected", reply: reply.feedback, by: "person" });
    } else {
      return { ok: false, code: "invalid_argument", message: "A plan takes a review (approve or reject), not an answer." };
    }
    return { ok: true };
  }

  /** A window came or went: escalations waiting for the person fail after the grace period with none. */
  presenceChanged(): void {
    if (this.options.personPresent()) {
      if (this.graceTimer !== undefined) clearTimeout(this.graceTimer);
      this.graceTimer = undefined;
      return;
    }
    this.startGraceIfWaiting();
  }

  /** The session is going away: every open escalation fails with `reason`, and nothing new opens. */
  close(reason: string): void {
    this.closed = true;
    if (this.graceTimer !== undefined) clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    for (const entry of [...this.open.values()]) this.finish(entry, { outcome: "failed", reply: reason, by: "baton" });
  }

  private ask(args: AskConductorArgs, call: ToolCallContext): Promise<ToolOutcome> {
    return this.openEscalation("question", call, { question: args.question }, (s) => {
      if (s.outcome === "failed") return { text: `No answer: ${s.reply ?? "the question could not be answered"}`, isError: true };
      return `Answer from the ${s.by === "person" ? "person" : "conductor"}: ${s.reply ?? ""}`;
    });
  }

  private submit(args: SubmitPlanArgs, call: ToolCallContext): Promise<ToolOutcome> {
    return this.openEscalation("plan", call, { goal: args.goal, steps: args.steps }, (s, plan) => {
      const who = s.by === "person" ? "the person" : "the conductor";
      if (s.outcome === "failed") return { text: `The plan was not reviewed: ${s.reply ?? "no review"}. Make no changes.`, isError: true };
      if (s.outcome === "rejected") return `Plan rejected by ${who}. Feedback: ${s.reply ?? "(none)"}\nRevise the plan and submit it again with submit_plan; make no changes yet.`;
      const approved = s.approvedPlan ?? planText(plan as PlanSubmission);
      const edited = s.approvedPlan !== undefined ? " with edits: follow this version" : "";
      return `Plan approved by ${who}${edited}. Execute it now.\n\n${approved}${s.reply !== undefined && s.reply !== "" ? `\n\nNotes: ${s.reply}` : ""}`;
    });
  }

  private openEscalation(
    kind: Escalation["kind"],
    call: ToolCallContext,
    content: { readonly question?: string; readonly goal?: string; readonly steps?: readonly string[] },
    result: (s: Settlement, plan: PlanSubmission | undefined) => ToolOutcome,
  ): Promise<ToolOutcome> {
    const tool = kind === "question" ? "ask_conductor" : "submit_plan";
    if (this.closed) return Promise.resolve({ text: "The session is ending; nobody can answer now.", isError: true });
    const id = call.toolUseId;
    const asking = this.options.askingAgent(id);
    if (id === undefined || asking === undefined) {
      return Promise.resolve({ text: `${tool} is for subagents: the conductor asks the person with AskUserQuestion.`, isError: true });
    }
    const agent = asking.record;
    const plan: PlanSubmission | undefined =
      kind === "plan" ? { goal: content.goal ?? "", steps: content.steps ?? [], version: (this.planVersions.get(agent.toolUseId) ?? 0) + 1 } : undefined;
    if (plan !== undefined) this.planVersions.set(agent.toolUseId, plan.version);
    const routedTo: EscalationTarget = asking.conductorWaits ? "person" : "conductor";
    const routeReason = asking.conductorWaits ? "the conductor is waiting on this agent (a foreground call)" : "the agent runs in the background";
    return new Promise<ToolOutcome>((resolve) => {
      const entry: Open = {
        id,
        kind,
        agent,
        agentName: agent.taskId !== "" ? agent.taskId : agent.toolUseId,
        ...(content.question !== undefined ? { question: content.question } : {}),
        ...(plan !== undefined ? { plan } : {}),
        routedTo,
        timer: undefined,
        settle: (s) => resolve(result(s, plan)),
      };
      this.open.set(id, entry);
      this.options.emit({
        kind: "escalation_opened",
        id,
        agentToolUseId: agent.toolUseId,
        at: this.now(),
        ...(content.question !== undefined ? { question: content.question } : {}),
        ...(plan !== undefined ? { plan } : {}),
        routedTo,
        routeReason,
      });
      if (plan !== undefined && this.phases.has(agent.toolUseId)) this.setPhase(agent.toolUseId, "review");
      // The CLI withdrew the call (an interrupt), or the session ended under it.
      call.signal.addEventListener("abort", () => this.finish(entry, { outcome: "failed", reply: abortReason(call.signal), by: "baton" }), { once: true });
      if (routedTo === "conductor") this.toConductor(entry);
      else this.startGraceIfWaiting();
    });
  }

  private toConductor(entry: Open): void {
    const who = `${entry.agent.subagentType || "subagent"} ${entry.agentName}`;
    const text =
      entry.kind === "question"
        ? `[${who} asks]: ${entry.question ?? ""}\n\nAnswer with the answer_subagent tool (agent: "${entry.agentName}"). If only the person can answer, answer "${EscalateAnswer}".`
        : `[${who} submits plan v${entry.plan?.version ?? 1} for review]:\n${planText(entry.plan as PlanSubmission)}\n\nReview it with the review_subagent_plan tool (agent: "${entry.agentName}", decision "approved" or "rejected", feedback). To leave the decision to the person, call answer_subagent with answer "${EscalateAnswer}".`;
    this.options.tellConductor(text);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (this.open.get(entry.id) === entry) this.toPerson(entry, `the conductor did not answer in ${Math.round(this.options.conductorTimeoutMs / 1000)} s`);
    }, this.options.conductorTimeoutMs);
  }

  private toPerson(entry: Open, reason: string): void {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.routedTo = "person";
    this.options.emit({ kind: "escalation_routed", id: entry.id, agentToolUseId: entry.agent.toolUseId, routedTo: "person", reason });
    this.startGraceIfWaiting();
  }

  /** The caller's tool error when it is not the conductor; undefined when it is. */
  private refusal(tool: BatonToolName, args: AnswerSubagentArgs | ReviewSubagentPlanArgs, call: ToolCallContext): ToolOutcome | undefined {
    const caller = this.options.callerOf(call.toolUseId);
    const verdict = batonToolAccess(tool, caller);
    if (verdict.allowed) return undefined;
    this.options.log?.("refused a conductor's tool to another caller", { tool, caller: caller.kind, rule: verdict.rule });
    this.options.onRefused?.({ tool, toolUseId: call.toolUseId, requestId: call.requestId, caller, args, verdict });
    return { text: verdict.message, isError: true };
  }

  private conductorAnswers(args: AnswerSubagentArgs): ToolOutcome {
    const found = this.openFor(args.agent);
    if (typeof found === "string") return { text: found, isError: true };
    if (args.answer.trim().toLowerCase() === EscalateAnswer) {
      this.toPerson(found, "the conductor escalated it");
      return `Handed to the person; their answer goes to ${args.agent} directly. Carry on with other work.`;
    }
    if (found.kind !== "question") return { text: `${args.agent} is waiting for a plan review: use review_subagent_plan.`, isError: true };
    this.finish(found, { outcome: "answered", reply: args.answer, by: "conductor" });
    return `Delivered to ${args.agent}.`;
  }

  private conductorReviews(args: ReviewSubagentPlanArgs): ToolOutcome {
    const found = this.openFor(args.agent, "plan");
    if (typeof found === "string") return { text: found, isError: true };
    const feedback = args.feedback?.trim();
    if (args.decision === "rejected") {
      this.finish(found, { outcome: "rejected", reply: feedback !== undefined && feedback !== "" ? feedback : "Revise the plan.", by: "conductor" });
      return `Rejected; ${args.agent} revises its plan and submits it again.`;
    }
    this.finish(found, { outcome: "approved", ...(feedback !== undefined && feedback !== "" ? { reply: feedback } : {}), by: "conductor" });
    return `Approved; ${args.agent} executes its plan now.`;
  }

  /** The oldest open escalation of the named agent (of `kind` if given), or why there is none. */
  private openFor(name: string, kind?: Escalation["kind"]): Open | string {
    const agent = this.options.agentNamed(name.trim());
    if (agent === undefined) return `No subagent is named "${name}" in this session.`;
    for (const entry of this.open.values()) {
      if (entry.agent.toolUseId === agent.toolUseId && (kind === undefined || entry.kind === kind)) return entry;
    }
    const last = [...this.settled.values()].reverse().find((done) => done.agentToolUseId === agent.toolUseId);
    if (last !== undefined) return `Nothing of ${name}'s is open: it was already ${describe(last.settlement)}.`;
    return `${name} has no open ${kind === "plan" ? "plan" : "question or plan"}.`;
  }

  private finish(entry: Open, s: Settlement): void {
    if (this.open.get(entry.id) !== entry) return; // the first answer won
    this.open.delete(entry.id);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    this.settled.set(entry.id, { settlement: s, agentToolUseId: entry.agent.toolUseId });
    this.options.emit({
      kind: "escalation_settled",
      id: entry.id,
      agentToolUseId: entry.agent.toolUseId,
      at: this.now(),
      outcome: s.outcome,
      ...(s.reply !== undefined ? { reply: s.reply } : {}),
      ...(s.approvedPlan !== undefined ? { approvedPlan: s.approvedPlan } : {}),
      by: s.by,
      answeredBy: answeredBy(s.by),
    });
    if (entry.kind === "plan" && this.phases.has(entry.agent.toolUseId)) {
      if (s.outcome === "approved") this.setPhase(entry.agent.toolUseId, "executing");
      else if (s.outcome === "rejected") this.setPhase(entry.agent.toolUseId, "clarifying");
    }
    entry.settle(s);
    if (this.waitingForPerson() === 0 && this.graceTimer !== undefined) {
      clearTimeout(this.graceTimer);
      this.graceTimer = undefined;
    }
  }

  private setPhase(agentToolUseId: string, phase: SubagentPhase): void {
    if (this.phases.get(agentToolUseId) === phase) return;
    this.phases.set(agentToolUseId, phase);
    this.options.emit({ kind: "phase_changed", agentToolUseId, phase, at: this.now() });
  }

  private waitingForPerson(): number {
    let n = 0;
    for (const entry of this.open.values()) if (entry.routedTo === "person") n++;
    return n;
  }

  private startGraceIfWaiting(): void {
    if (this.graceTimer !== undefined || this.options.personPresent() || this.waitingForPerson() === 0) return;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      if (this.options.personPresent()) return;
      this.options.log?.("no window for the grace period: failing escalations that wait for the person", { count: this.waitingForPerson() });
      for (const entry of [...this.open.values()]) {
        if (entry.routedTo === "person") this.finish(entry, { outcome: "failed", reply: "Nobody was at Baton's window to answer.", by: "baton" });
      }
    }, this.options.graceMs);
  }

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }
}

function describe(s: Settlement): string {
  const by = s.by === "person" ? "the person" : s.by === "conductor" ? "the conductor" : "Baton";
  switch (s.outcome) {
    case "answered":
      return `answered by ${by}: ${s.reply ?? ""}`;
    case "approved":
      return `approved by ${by}`;
    case "rejected":
      return `rejected by ${by}: ${s.reply ?? ""}`;
    case "failed":
      return `closed without an answer: ${s.reply ?? ""}`;
  }
}

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  const text = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "";
  return text !== "" ? text : "the call was withdrawn";
}

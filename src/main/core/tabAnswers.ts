// The person's answers to what a tab waits on: a permission prompt (the broker's request, its
// meaning in permissionAnswers.ts) and a subagent's question or plan (the tab's escalation desk).
// An answer may keep rules, cut the turn like an interrupt, or continue an approved plan in a
// fresh session; each takes effect in the order the CLI must see it.

import type { NewSessionOptions, PermissionAnswer, TabInfo } from "../../shared/api.js";
import type { EscalationReply } from "../../shared/escalation.js";
import type { PermissionDecision } from "../cli/permissionGate.js";
import type { EscalationDesk } from "../orchestration/escalationDesk.js";
import type { LogBus } from "../platform/logBus.js";
import { AppError } from "./appError.js";
import { decisionFor } from "./permissionAnswers.js";
import type { PermissionBroker } from "./permissionBroker.js";
import type { PolicyControl } from "./policyControl.js";
import type { ProcessCap } from "./processCap.js";
import type { TabList } from "./tabList.js";

export interface TabAnswersOptions {
  readonly tabs: TabList;
  readonly broker: PermissionBroker;
  readonly policy: PolicyControl | undefined;
  readonly cap: ProcessCap;
  /** The tab's escalation desk: only an orchestration session has one. */
  readonly deskOf: (tabId: string) => EscalationDesk | undefined;
  readonly log: LogBus;
  /** A plan approved with "clear context" is carried out by a new session. */
  readonly startFresh: (options: NewSessionOptions) => Promise<TabInfo>;
}

export class TabAnswers {
  constructor(private readonly options: TabAnswersOptions) {}

  async permission(tabId: string, requestId: string, answer: PermissionAnswer): Promise<void> {
    const { tabs, broker, policy, cap, log } = this.options;
    const tab = tabs.require(tabId);
    const request = broker.find(tabId, requestId);
    if (request === undefined) throw new AppError("not_found", `No permission request ${requestId} is waiting in this tab`);
    const outcome = decisionFor(request, answer);
    if (!outcome.ok) throw new AppError(outcome.code, outcome.message);
    // Refused before the answer goes out, so the plan still waits in its prompt.
    if (outcome.startFreshWith !== undefined) cap.assertRoom();
    // Kept before the answer goes out, so the next identical call finds the rule.
    if (outcome.keep !== undefined && policy !== undefined) await policy.keepAnswerRules(tabId, outcome.keep);
    // A denial that stops the turn cuts subagents like an interrupt does: the restore must know.
    if (outcome.decision.behavior === "deny" && outcome.decision.interrupt === true && tab.kind === "live") tab.session.noteInterrupt();
    // A session rule Baton keeps answers the next calls through the hook; the CLI is not told one
    // too, so deleting Baton's rule in the Rules view really ends it.
    const decision = outcome.keep !== undefined && policy !== undefined ? withoutCliRules(outcome.decision) : outcome.decision;
    broker.answer(tabId, requestId, decision);
    log.baton("info", "permission answered", { requestId, toolName: request.toolName, behavior: answer.behavior }, tabId);
    if (outcome.startFreshWith !== undefined && tab.kind === "live") {
      const model = tab.session.transcript.model;
      await this.options.startFresh({ cwd: tab.cwd, permissionMode: "default", initialPrompt: outcome.startFreshWith, ...(model ? { model } : {}) });
    }
  }

  escalation(tabId: string, escalationId: string, reply: EscalationReply): void {
    this.options.tabs.live(tabId);
    const desk = this.options.deskOf(tabId);
    if (desk === undefined) throw new AppError("not_found", "This tab runs no orchestration session: it has no subagent questions or plans");
    const outcome = desk.answerByPerson(escalationId, reply);
    if (!outcome.ok) throw new AppError(outcome.code, outcome.message);
    this.options.log.baton("info", "escalation answered", { escalationId, reply: reply.kind }, tabId);
  }
}

function withoutCliRules(decision: PermissionDecision): PermissionDecision {
  if (decision.behavior !== "allow" || decision.updatedPermissions === undefined) return decision;
  const { updatedPermissions: _dropped, ...rest } = decision;
  return rest;
}

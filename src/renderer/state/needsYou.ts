// "Needs you" (issue 35): everything waiting for the person across every open tab, as one list,
// oldest first. A permission request (incl. a nested agent's), an AskUserQuestion form and an
// ExitPlanMode review come from a tab's pending list; a subagent's question or plan routed to the
// person comes from its card's escalations. Pure: the toolbar, the shortcut and notifications read it.
import type { PendingPermission } from "../../shared/api.js";
import type { TranscriptState } from "../../shared/delta/index.js";
import type { Escalation } from "../../shared/escalation.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { toolSummary } from "../../shared/toolSummary.js";
import type { SubagentRecord } from "../../shared/transcript.js";
import type { AppState } from "./appState.js";

export type WaitingKind = "permission" | "question" | "plan" | "agent-question" | "agent-plan";

export interface WaitingItem {
  /** Stable while it waits: "<tabId>\u0000<requestId or escalation id>". */
  readonly key: string;
  readonly tabId: string;
  readonly kind: WaitingKind;
  /** When it began waiting (ms since the epoch); Infinity when unknown (listed after the dated ones). */
  readonly since: number;
  readonly sessionTitle: string;
  /** "Main agent", or the subagent's type and description ("Explore: scan the repo"). */
  readonly agent: string;
  /** One line saying what it asks. */
  readonly summary: string;
  /** The card that holds it (a subagent's), else the main agent's tool call when the tab draws it. */
  readonly blockId?: string;
  readonly request?: PendingPermission;
  readonly escalation?: Escalation;
}

/** How long a summary may be: one line in a list. */
export const SummaryMax = 120;

/** The first line of `text`, whitespace folded, cut at SummaryMax characters. */
export function oneLine(text: string): string {
  const line = text.trim().split("\n")[0]!.replace(/\s+/g, " ").trim();
  return line.length > SummaryMax ? `${line.slice(0, SummaryMax - 1)}…` : line;
}

export function agentName(record: Pick<SubagentRecord, "subagentType" | "description"> | undefined): string {
  if (record === undefined) return "Main agent";
  const type = record.subagentType || "agent";
  return record.description !== "" ? `${type}: ${oneLine(record.description)}` : type;
}

function text(input: JsonObject, key: string): string {
  const value = input[key];
  return typeof value === "string" ? value : "";
}

export function requestKind(request: Pick<PendingPermission, "toolName">): WaitingKind {
  return request.toolName === "AskUserQuestion" ? "question" : request.toolName === "ExitPlanMode" ? "plan" : "permission";
}

export function requestSummary(request: PendingPermission): string {
  switch (requestKind(request)) {
    case "question": {
      const questions = Array.isArray(request.input["questions"]) ? request.input["questions"] : [];
      const first = questions[0];
      const question = first !== null && typeof first === "object" && !Array.isArray(first) ? text(first, "question") : "";
      return oneLine(`Question: ${question || "(no question text)"}`);
    }
    case "plan":
      return oneLine(`Plan review: ${text(request.input, "plan") || request.planFromFile || "(no plan sent)"}`);
    default: {
      const subject = toolSummary(request.toolName, request.input, { fullPaths: true });
      return oneLine(`${request.toolName}${subject !== "" ? ` ${subject}` : request.description !== undefined ? ` ${request.description}` : ""}`);
    }
  }
}

export function escalationSummary(e: Escalation): string {
  return e.kind === "question" ? oneLine(`Question: ${e.question ?? ""}`) : oneLine(`Plan: ${e.plan?.goal ?? ""}`);
}

function time(iso: string | undefined): number {
  const ms = iso === undefined ? NaN : Date.parse(iso);
  return Number.isFinite(ms) ? ms : Infinity;
}

interface Cards {
  /** Card block id by agent (task) id. */
  readonly byAgent: ReadonlyMap<string, string>;
  /** Open escalations routed to the person, with their card. */
  readonly open: readonly { readonly blockId: string; readonly record: SubagentRecord; readonly escalation: Escalation }[];
}

// One walk over a tab's blocks per version of its block map (a delta that changes no block keeps it).
const cardsCache = new WeakMap<ReadonlyMap<string, unknown>, Cards>();

function cardsOf(transcript: TranscriptState): Cards {
  const cached = cardsCache.get(transcript.blocksById);
  if (cached !== undefined) return cached;
  const byAgent = new Map<string, string>();
  const open: Cards["open"][number][] = [];
  for (const [id, block] of transcript.blocksById) {
    const record = block.call?.subagent;
    if (record === undefined) continue;
    if (record.taskId !== "") byAgent.set(record.taskId, id);
    for (const escalation of record.escalations ?? []) {
      if (escalation?.state === "open" && escalation.routedTo === "person") open.push({ blockId: id, record, escalation });
    }
  }
  const cards = { byAgent, open };
  cardsCache.set(transcript.blocksById, cards);
  return cards;
}

/** Everything waiting in the open tabs, oldest first (ties: tab order, then each tab's own order). */
export function waitingItems(state: Pick<AppState, "tabOrder" | "tabs">): WaitingItem[] {
  const items: WaitingItem[] = [];
  for (const tabId of state.tabOrder) {
    const tab = state.tabs[tabId];
    if (tab === undefined) continue;
    const { transcript } = tab;
    const sessionTitle = tab.info.title || "Session";
    if (transcript.pending.length === 0 && transcript.blocksById.size === 0) continue;
    const cards = cardsOf(transcript);
    for (const request of transcript.pending) {
      const card = request.agentId !== undefined ? cards.byAgent.get(request.agentId) : undefined;
      const record = card !== undefined ? transcript.blocksById.get(card)?.call?.subagent : undefined;
      const own = request.agentId === undefined && transcript.blocksById.has(request.toolUseId) ? request.toolUseId : undefined;
      const blockId = card ?? own;
      items.push({
        key: `${tabId}\u0000${request.requestId}`,
        tabId,
        kind: requestKind(request),
        since: time(request.askedAt),
        sessionTitle,
        agent: request.agentId !== undefined && record === undefined ? "Subagent" : agentName(record),
        summary: requestSummary(request),
        ...(blockId !== undefined ? { blockId } : {}),
        request,
      });
    }
    for (const { blockId, record, escalation } of cards.open) {
      items.push({
        key: `${tabId}\u0000${escalation.id}`,
        tabId,
        kind: escalation.kind === "question" ? "agent-question" : "agent-plan",
        since: time(escalation.openedAt),
        sessionTitle,
        agent: agentName(record),
        summary: escalationSummary(escalation),
        blockId,
        escalation,
      });
    }
  }
  // Array.prototype.sort is stable: equal times keep tab order.
  return items.sort((a, b) => (a.since === b.since ? 0 : a.since < b.since ? -1 : 1));
}

/** The item after `currentKey` (wrapping), or the oldest when none is current: what "Next waiting" shows. */
export function nextItem(items: readonly WaitingItem[], currentKey: string | undefined): WaitingItem | undefined {
  if (items.length === 0) return undefined;
  const index = currentKey === undefined ? -1 : items.findIndex((i) => i.key === currentKey);
  return items[(index + 1) % items.length];
}

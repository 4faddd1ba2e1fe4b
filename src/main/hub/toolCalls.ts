// Assistant blocks and tool results: where they go (top level or a subagent record, by parent
// tool_use id; a parent no record matches gets a stand-in card, see homeOf) and what they do to
// the tool call they concern.

import type { AssistantBlockEvent, ToolResultEvent } from "../../shared/events.js";
import type { ContentBlock, JsonObject, ToolUseBlock } from "../../shared/protocol/messages.js";
import { isObject, str } from "../../shared/jsonFields.js";
import { isAgentToolCall, WorkflowType, type Block, type SubagentRecord, type ToolCallRecord, type ToolCallStatus } from "../../shared/transcript.js";
import { addBlock, addCall, editRecord, findCall, Gone, knownBlock, replaceBlock, setCall } from "./edits.js";
import type { SessionModel } from "./session.js";
import { stopOpenUnder } from "./stopping.js";
import { callWith, makeBlock, makeCall } from "./shapes.js";
import { foldProgress } from "./progress.js";
import { replaceStreamingBlock } from "./streaming.js";
import { Dropped, getIfAny, type Node } from "./blockTree.js";
import { settleAgentCall } from "./subagentResults.js";
import { withEarlyEscalations } from "./escalations.js";
import { launchedWorkflow, newRecord, mergeDraft, noteSendMessage } from "./subagentRecords.js";
import { depthOf } from "./tree.js";
import { homeOf, moveStandIn, replaceStandIn } from "./unseenAgentCalls.js";
import { noteAgentCall, withTokensAhead } from "./tokenShares.js";

export function onAssistantBlock(s: SessionModel, ev: AssistantBlockEvent): void {
  const n = lineBlockIndex(s, ev);
  // The conductor's latest call tells how full its context is (a turn's usage sums all its calls).
  if (ev.parentToolUseId === null && ev.usage !== undefined && ev.apiError === undefined && ev.usage !== s.meta.contextUsage) {
    s.meta = { ...s.meta, contextUsage: ev.usage };
  }
  const parent = homeOf(s, ev.parentToolUseId);
  if (parent === Gone) return;
  if (parent !== undefined && ev.apiError !== undefined) markApiError(s, ev, parent);
  // A retrying subagent that answers has got past its retries.
  if (parent?.call?.subagent?.retry !== undefined && ev.apiError === undefined) editRecord(s, parent, (r) => ({ ...r, retry: undefined }));
  noteAgentCall(s, ev, parent);
  const block = ev.block;
  if (block.type === "tool_use" || block.type === "server_tool_use" || block.type === "mcp_tool_use") {
    addToolUse(s, block, parent, ev.timestamp);
    return;
  }
  const id = `${ev.uuid ?? ev.messageId}:${n}`;
  // The CLI's own "API Error: …" answer (history keeps no result line to say so): drawn as an error.
  const made = ev.apiError !== undefined && block.type === "text" ? apiErrorBlock(s, id, block.text, ev) : textBlock(id, block, ev.timestamp);
  if (made === undefined) return;
  if (parent === undefined && ev.parentToolUseId === null && replaceStreamingBlock(s, ev.messageId, made)) return;
  // The same line fed twice (live, then from the sidechain file): keep one copy (or none, if it
  // was already dropped by the cap).
  const existing = knownBlock(s, id, parent);
  if (existing === Dropped) return;
  if (existing !== undefined) replaceBlock(s, existing, made);
  else addBlock(s, parent, made);
}

/** n in the block id `<line uuid or message id>:<n>`: stable across live and history. */
function lineBlockIndex(s: SessionModel, ev: AssistantBlockEvent): number {
  const key = ev.uuid ?? ev.messageId;
  s.lastLineCount = s.lastLineKey === key ? s.lastLineCount + 1 : 0;
  s.lastLineKey = key;
  return s.lastLineCount;
}

function textBlock(id: string, block: ContentBlock, timestamp: string | undefined): Block | undefined {
  if (block.type === "text") return makeBlock({ kind: "text", id, text: block.text, timestamp });
  if (block.type === "thinking") return makeBlock({ kind: "thinking", id, text: block.thinking, timestamp });
  if (block.type === "redacted_thinking") return makeBlock({ kind: "thinking", id, text: "", timestamp });
  return undefined;
}

function apiErrorBlock(s: SessionModel, id: string, text: string, ev: AssistantBlockEvent): Block {
  if (ev.parentToolUseId === null) s.turnApiError = text;
  return makeBlock({ kind: "notice", id, level: "error", text, timestamp: ev.timestamp });
}

function markApiError(s: SessionModel, ev: AssistantBlockEvent, parent: Node): void {
  const call = parent.call;
  if (call === undefined) return;
  const text = ev.block.type === "text" ? ev.block.text : ev.apiError ?? "API Error";
  s.tree.apiErrors.set(call.toolUseId, text);
}

/** Adds the call of a tool_use under `parent` (the route of `parentToolUseId`), unless it is known there. */
function addToolUse(s: SessionModel, use: ToolUseBlock, parent: Node | undefined, timestamp: string | undefined): Node | undefined {
  // tool_use ids are unique: a second copy is the same call (kept, or dropped by the cap).
  const known = knownBlock(s, use.id, parent);
  if (known !== undefined) {
    if (known !== Dropped && getIfAny(s.tree.standIns, use.id) === true) replaceStandIn(s, known, use, timestamp, parent);
    return undefined;
  }
  const early = getIfAny(s.tree.earlyPermissions, use.id);
  const draft = getIfAny(s.tree.drafts, use.id);
  let subagent: SubagentRecord | undefined;
  if (isAgentToolCall(use.name, use.input) || draft !== undefined) {
    subagent = withTokensAhead(s, withEarlyEscalations(s, mergeDraft(newRecord(use.id, use.input, depthOf(parent) + 1), draft)));
    s.tree.drafts.delete(use.id);
  }
  const call = makeCall({
    toolUseId: use.id,
    name: use.name,
    input: use.input,
    status: early === undefined ? "running" : statusForPermission(early.state, "running"),
    permission: early,
    subagent,
    startedAt: timestamp,
  });
  if (early !== undefined) s.tree.earlyPermissions.delete(use.id);
  const node = addCall(s, parent, call);
  if (use.name === "SendMessage") noteSendMessage(s, use.input);
  return node;
}

export function statusForPermission(state: "asked" | "allowed" | "denied" | "cancelled", current: ToolCallStatus): ToolCallStatus {
  if (state === "asked") return "pending";
  if (state === "denied") return "denied";
  return current === "pending" ? "running" : current;
}

export function onToolResult(s: SessionModel, ev: ToolResultEvent): void {
  // An open call inside a record is not in the tree-wide index: the record the line names has it.
  const nested = ev.parentToolUseId !== null && ev.parentToolUseId !== undefined;
  const node = (nested ? undefined : findCall(s, ev.toolUseId)) ?? knownOrNewCall(s, ev);
  if (node === undefined) return;
  foldProgress(s, node);
  const call = node.call;
  if (call === undefined) return;
  const status: ToolCallStatus = !ev.isError ? "completed" : isDenial(call, ev) ? (cutByStop(s, node, call) ? "stopped" : "denied") : "failed";
  if (call.name === "TaskStop" && !ev.isError) noteTaskStop(s, call, ev);
  const result = { text: ev.text, isError: ev.isError, structured: ev.structured };
  let next: ToolCallRecord = callWith(call, status, result, call.permission, call.subagent ?? launchedWorkflow(call, ev), ev.timestamp ?? call.endedAt);
  if (next.subagent !== undefined && status === "denied" && neverStarted(node, next.subagent, ev)) {
    // Refused before it started (plan mode's permission_denied, a person's "no"): a refused
    // call, not a failed subagent card with no agent behind it.
    next = callWith(next, status, result, next.permission, undefined, next.endedAt);
    s.tree.agents.delete(call.toolUseId);
  } else if (next.subagent !== undefined) next = settleAgentCall(s, next, ev);
  setCall(s, node, next); // its progress is folded in above
  if (next.subagent !== undefined && next.subagent.status !== "running") stopOpenUnder(s, node);
}

/** The node of a result's call where its parent (or the top level) holds it; a new call there if it was never seen. */
function knownOrNewCall(s: SessionModel, ev: ToolResultEvent): Node | undefined {
  const parent = homeOf(s, ev.parentToolUseId);
  if (parent === Gone) return undefined;
  const known = knownBlock(s, ev.toolUseId, parent);
  if (known !== undefined) {
    if (known === Dropped || known.call === undefined) return undefined; // dropped by the cap, or not a tool
    moveStandIn(s, known, parent); // a stand-in card whose caller this line names
    return known;
  }
  // A result whose tool_use was never seen: keep it visible where its parent says.
  const use: ToolUseBlock = { type: "tool_use", id: ev.toolUseId, name: "", input: {} as JsonObject };
  return addToolUse(s, use, parent, ev.timestamp);
}

const DenialText = [
  /^The user doesn't want to proceed with this tool use/,
  /^User rejected tool use/,
  /^Permission to use \S+ has been denied/,
  / was blocked\. For security, Claude Code may only/,
  /^Tool permission request failed/,
  // Default mode with no prompt tool to ask through (the CLI's auto-denial).
  /^Claude requested permissions to .+, but you haven't granted it yet/,
];

/**
 * The CLI answers the calls of an agent whose task it kills (TaskStop, or an interrupt: 2.1.332
 * streams a background agent's answers after its task events said "killed") with the rejection
 * text a denial gets ("The user doesn't want to proceed…"): such a call was cut, not refused,
 * unless a permission request for it was denied. (A person rejecting a call in a terminal leaves
 * the same text on an agent no task event killed: without Baton's audit trail an interrupt of a
 * foreground agent cannot be told from it, see historySession.ts.)
 */
function cutByStop(s: SessionModel, node: Node, call: ToolCallRecord): boolean {
  const owner = node.owner?.call?.toolUseId;
  return call.permission?.state !== "denied" && owner !== undefined && getIfAny(s.tree.killedAgents, owner) === true;
}

/** A TaskStop that stopped an agent's task: remembers the agent (see cutByStop). */
function noteTaskStop(s: SessionModel, call: ToolCallRecord, ev: ToolResultEvent): void {
  const named = str(call.input, "task_id") ?? (isObject(ev.structured) ? str(ev.structured, "task_id") : undefined);
  const link = named === undefined ? undefined : s.tree.tasks.get(named);
  if (link?.kind === "agent") s.tree.killedAgents.set(link.toolUseId, true);
}

/**
 * An Agent call whose subagent never ran: its permission was refused (a prompt's "no", or
 * 2.1.332's permission_denied), and it has no task, no steps, and a result that names no agent.
 * A result text alone cannot tell: an interrupt leaves the same text on an agent that ran.
 */
function neverStarted(node: Node, record: SubagentRecord, ev: ToolResultEvent): boolean {
  if (node.call?.permission?.state !== "denied") return false;
  if (record.taskId !== "" || (node.list?.count ?? 0) > 0 || record.subagentType === WorkflowType) return false;
  return !(isObject(ev.structured) && typeof ev.structured["agentId"] === "string") && !ev.text.includes("(use SendMessage");
}

function isDenial(call: ToolCallRecord, ev: ToolResultEvent): boolean {
  if (call.permission?.state === "denied") return true;
  const structured = typeof ev.structured === "string" ? ev.structured.replace(/^Error: /, "") : "";
  return DenialText.some((re) => re.test(ev.text) || re.test(structured));
}

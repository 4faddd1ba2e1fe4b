// Agents whose Agent call never reaches stdout. CLI 2.1.197 streams a subagent's own lines only at
// depth 1 (docs/protocol-notes.md, "Streaming by depth"), so the Agent call of a depth-3 agent
// exists only in the depth-2 agent's sidechain, while its task_* events do reach stdout, naming
// that unseen call. What ties them to the agent that made the call is the caller's task_progress:
// `last_tool_name: "Agent"` with the inner call's description. With that hint the hub puts a
// stand-in call under the caller, so the agent's card shows live; the real tool_use, once the
// caller's sidechain is read, takes its place.
//
// The hint is used only when it is unambiguous (one caller, one waiting record), and only for
// callers at depth ≥ 2: a depth-1 agent's tool_use lines are streamed, so a record waiting for
// one of them (a depth-2 task_started that came first) gets its real call a moment later.

import type { JsonObject, ToolUseBlock } from "../../shared/protocol/messages.js";
import type { SubagentRecord } from "../../shared/transcript.js";
import { addCall, editCall } from "./edits.js";
import type { SessionModel } from "./session.js";
import { makeCall, makeRecord } from "./shapes.js";
import type { Node } from "./blockTree.js";
import { depthOf } from "./tree.js";

/** Whether the running record of `node` says its agent is calling an Agent described as `description`. */
function isCalling(node: Node, description: string): boolean {
  const record = node.call?.subagent;
  if (record === undefined || record.status !== "running" || node.list === undefined) return false;
  const p = node.progress ?? record;
  return p.lastToolName === "Agent" && p.progressLine === description && depthOf(node) >= 2;
}

/** The one running record (running subagents are all in `tree.open`) whose progress names this call; undefined if none or several. */
function callerOf(s: SessionModel, description: string): Node | undefined {
  let found: Node | undefined;
  for (const node of s.tree.open.values()) {
    if (!isCalling(node, description)) continue;
    if (found !== undefined) return undefined;
    found = node;
  }
  return found;
}

/** Places a record whose Agent call was not seen under the agent calling it, if the hint says which: true when placed. */
export function placeUnseenCall(s: SessionModel, record: SubagentRecord): boolean {
  if (record.description === "") return false;
  const caller = callerOf(s, record.description);
  if (caller === undefined) return false;
  addStandIn(s, caller, record);
  return true;
}

/**
 * A task_progress just said `caller` is calling an Agent: a record already waiting for that call
 * (its task_started came first) goes under it.
 */
export function adoptWaitingRecord(s: SessionModel, caller: Node): void {
  const description = caller.progress?.progressLine;
  if (description === undefined || s.tree.drafts.size === 0 || !isCalling(caller, description)) return;
  let found: SubagentRecord | undefined;
  for (const draft of s.tree.drafts.values()) {
    if (draft.taskId === "" || draft.description !== description) continue;
    if (found !== undefined) return;
    found = draft;
  }
  if (found === undefined || callerOf(s, description) !== caller) return;
  s.tree.drafts.delete(found.toolUseId);
  addStandIn(s, caller, found);
}

function addStandIn(s: SessionModel, caller: Node, record: SubagentRecord): void {
  const input: Record<string, string> = { description: record.description };
  if (record.prompt !== "") input["prompt"] = record.prompt;
  if (record.subagentType !== "") input["subagent_type"] = record.subagentType;
  const call = makeCall({
    toolUseId: record.toolUseId,
    name: "Agent",
    input: input as JsonObject,
    status: "running",
    subagent: makeRecord({ ...record, spawnDepth: depthOf(caller) + 1 }),
  });
  addCall(s, caller, call);
  s.tree.standIns.set(record.toolUseId, true);
}

/** The real tool_use of a stand-in call arrived (its caller's sidechain was read): the call takes its name and input. */
export function replaceStandIn(s: SessionModel, node: Node, use: ToolUseBlock, timestamp: string | undefined): void {
  s.tree.standIns.delete(use.id);
  editCall(s, node, (call) => makeCall({ ...call, name: use.name, input: use.input, startedAt: timestamp ?? call.startedAt }));
}

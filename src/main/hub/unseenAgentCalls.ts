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
//
// A line that names an Agent call no record matches (its tool_use line was lost or damaged, or it
// belongs to an agent whose call was never read) gets a stand-in card too (homeOf): a subagent's
// blocks at the top level would read as the conductor's own.

import type { JsonObject, ToolUseBlock } from "../../shared/protocol/messages.js";
import type { SubagentRecord } from "../../shared/transcript.js";
import { addCall, addOrphan, editCall, editRecord, findAnyCall, Gone, routeOf } from "./edits.js";
import type { SessionModel } from "./session.js";
import { makeCall, makeRecord } from "./shapes.js";
import { getIfAny, idOf, listOf, type Node } from "./blockTree.js";
import { append, depthOf, stale } from "./tree.js";

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

function addStandIn(s: SessionModel, caller: Node | undefined, record: SubagentRecord): Node {
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
  s.tree.standIns.set(record.toolUseId, true);
  return addCall(s, caller, call);
}

/**
 * Where a subagent's line goes: the record of the Agent call it names (undefined for a conductor's
 * line, Gone when the cap dropped that record). A call no record matches gets one: a call already
 * in the tree becomes a card, else a stand-in card is put under the agent that started it (when
 * its task said which) or at the top level. Its real tool_use, if it comes later, takes its place
 * wherever that line puts it (knownBlock finds it among the orphans).
 */
export function homeOf(s: SessionModel, parentToolUseId: string | null | undefined): Node | undefined | Gone {
  const route = routeOf(s, parentToolUseId);
  if (route !== undefined || parentToolUseId === null || parentToolUseId === undefined) return route;
  const known = findAnyCall(s, parentToolUseId);
  if (known?.call !== undefined) {
    const record = makeRecord({ ...emptyRecord(parentToolUseId), spawnDepth: depthOf(known) });
    editCall(s, known, (call) => makeCall({ ...call, subagent: record }));
    return known;
  }
  const draft = s.tree.drafts.get(parentToolUseId);
  s.tree.drafts.delete(parentToolUseId);
  const callerId = draft?.parentTaskId === undefined ? undefined : s.tree.tasks.get(draft.parentTaskId)?.toolUseId;
  const caller = callerId === undefined ? undefined : s.tree.agents.get(callerId);
  const node = addStandIn(s, caller, draft ?? emptyRecord(parentToolUseId));
  addOrphan(s, node, parentToolUseId);
  return node;
}

function emptyRecord(toolUseId: string): SubagentRecord {
  return { toolUseId, taskId: "", subagentType: "", description: "", prompt: "", background: false, status: "running", blocks: [], droppedBlockCount: 0 };
}

/**
 * A line names the caller of a stand-in card (the tool_use, or a result, in that agent's lines):
 * the card moves into the caller's card, from the top level or from a caller guessed wrong, so a
 * subagent's call sits with its caller's steps. Never into a card inside itself.
 */
export function moveStandIn(s: SessionModel, node: Node, parent: Node | undefined): void {
  if (node.owner === parent || getIfAny(s.tree.standIns, idOf(node)) !== true) return;
  for (let p = parent; p !== undefined; p = p.owner) if (p === node) return;
  const id = idOf(node);
  const from = listOf(s.tree, node.owner);
  from.items[node.seq - from.offset] = undefined;
  from.index.delete(id);
  stale(s.tree, node.owner);
  const to = listOf(s.tree, parent);
  node.owner = parent;
  node.seq = to.count;
  append(s, to, node);
  to.index.set(id, node.seq);
  to.hasRecords = true;
  const depth = depthOf(node);
  editRecord(s, node, (r) => (r.spawnDepth === depth ? r : { ...r, spawnDepth: depth }));
}

/** The real tool_use of a stand-in call arrived (its caller's sidechain was read): the call takes its name and input, and its record what the input says that it did not know. */
export function replaceStandIn(s: SessionModel, node: Node, use: ToolUseBlock, timestamp: string | undefined, parent: Node | undefined): void {
  moveStandIn(s, node, parent);
  s.tree.standIns.delete(use.id);
  const text = (key: string): string => (typeof use.input[key] === "string" ? (use.input[key] as string) : "");
  editCall(s, node, (call) => {
    const r = call.subagent;
    const subagent =
      r === undefined
        ? undefined
        : makeRecord({
            ...r,
            description: r.description || text("description"),
            prompt: r.prompt || text("prompt"),
            subagentType: r.subagentType || text("subagent_type"),
            background: r.background || use.input["run_in_background"] === true,
          });
    return makeCall({ ...call, name: use.name, input: use.input, subagent, startedAt: timestamp ?? call.startedAt });
  });
}

// Assistant blocks and tool results: where they go (top level or a subagent record, by parent
// tool_use id) and what they do to the tool call they concern.

import type { AssistantBlockEvent, ToolResultEvent } from "../../shared/events.js";
import type { ContentBlock, JsonObject, ToolUseBlock } from "../../shared/protocol/messages.js";
import { isAgentToolCall, type Block, type SubagentRecord, type ToolCallRecord, type ToolCallStatus } from "../../shared/transcript.js";
import { addBlock, findCall, pathOf, track, type Draft } from "./draft.js";
import { stopOpenUnder } from "./stopping.js";
import { blockWithCall, callWith, makeBlock, makeCall } from "./shapes.js";
import { replaceStreamingBlock } from "./streaming.js";
import { settleAgentCall } from "./subagentResults.js";
import { newRecord, mergeDraft } from "./subagentRecords.js";
import { getBlock, updateBlock } from "./tree.js";
import type { Path } from "./state.js";

/** The record path a parent id routes to; undefined = top level (null parent, or unknown parent). */
export function parentPath(d: Draft, parentToolUseId: string | null | undefined): Path | undefined {
  if (parentToolUseId === null || parentToolUseId === undefined) return undefined;
  const found = findCall(d, parentToolUseId);
  return found?.call.subagent === undefined ? undefined : found.path;
}

export function onAssistantBlock(d: Draft, ev: AssistantBlockEvent): void {
  const n = lineBlockIndex(d, ev);
  const parent = parentPath(d, ev.parentToolUseId);
  if (parent !== undefined && ev.apiError !== undefined) markApiError(d, ev, parent);
  const block = ev.block;
  if (block.type === "tool_use" || block.type === "server_tool_use" || block.type === "mcp_tool_use") {
    addToolUse(d, block, parent, ev.timestamp);
    return;
  }
  const id = `${ev.uuid ?? ev.messageId}:${n}`;
  const made = textBlock(id, block, ev.timestamp);
  if (made === undefined) return;
  if (parent === undefined && ev.parentToolUseId === null && replaceStreamingBlock(d, ev.messageId, made)) return;
  const existing = pathOf(d, id);
  if (existing !== undefined) {
    // The same line fed twice (live, then from the sidechain file): keep one copy (or none, if
    // it was already dropped by the cap).
    if (getBlock(d.top, existing) !== undefined) d.top = updateBlock(d.top, existing, () => made);
    return;
  }
  addBlock(d, parent, made);
}

/** n in the block id `<line uuid or message id>:<n>`: stable across live and history. */
function lineBlockIndex(d: Draft, ev: AssistantBlockEvent): number {
  const key = ev.uuid ?? ev.messageId;
  d.lastLineCount = d.lastLineKey === key ? d.lastLineCount + 1 : 0;
  d.lastLineKey = key;
  return d.lastLineCount;
}

function textBlock(id: string, block: ContentBlock, timestamp: string | undefined): Block | undefined {
  if (block.type === "text") return makeBlock({ kind: "text", id, text: block.text, timestamp });
  if (block.type === "thinking") return makeBlock({ kind: "thinking", id, text: block.thinking, timestamp });
  if (block.type === "redacted_thinking") return makeBlock({ kind: "thinking", id, text: "", timestamp });
  return undefined;
}

function markApiError(d: Draft, ev: AssistantBlockEvent, parent: Path): void {
  const record = getBlock(d.top, parent)?.call;
  if (record === undefined) return;
  const text = ev.block.type === "text" ? ev.block.text : ev.apiError ?? "API Error";
  d.lineage.apiErrors.set(record.toolUseId, text, d.version);
}

export function addToolUse(d: Draft, use: ToolUseBlock, parent: Path | undefined, timestamp?: string): void {
  // tool_use ids are unique: a second copy is the same call (kept, or dropped by the cap).
  if (pathOf(d, use.id) !== undefined) return;
  const early = d.lineage.earlyPermissions.get(use.id, d.version);
  const depth = (parent?.length ?? 0) + 1;
  let subagent: SubagentRecord | undefined;
  if (isAgentToolCall(use.name, use.input) || d.lineage.drafts.get(use.id, d.version) !== undefined) {
    subagent = mergeDraft(newRecord(use.id, use.input, depth), d.lineage.drafts.get(use.id, d.version));
    d.lineage.drafts.set(use.id, undefined, d.version);
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
  if (early !== undefined) d.lineage.earlyPermissions.set(use.id, undefined, d.version);
  addBlock(d, parent, makeBlock({ kind: "tool", id: use.id, call }));
}

export function statusForPermission(state: "asked" | "allowed" | "denied" | "cancelled", current: ToolCallStatus): ToolCallStatus {
  if (state === "asked") return "pending";
  if (state === "denied") return "denied";
  return current === "pending" ? "running" : current;
}

export function onToolResult(d: Draft, ev: ToolResultEvent): void {
  const known = pathOf(d, ev.toolUseId);
  let found = known === undefined ? undefined : findCall(d, ev.toolUseId);
  if (known !== undefined && found === undefined) return; // dropped by the cap
  if (found === undefined) {
    // A result whose tool_use was never seen: keep it visible where its parent says.
    addToolUse(d, { type: "tool_use", id: ev.toolUseId, name: "", input: {} as JsonObject }, parentPath(d, ev.parentToolUseId), ev.timestamp);
    found = findCall(d, ev.toolUseId);
    if (found === undefined) return;
  }
  const { path, call } = found;
  const status: ToolCallStatus = !ev.isError ? "completed" : isDenial(call, ev) ? "denied" : "failed";
  const result = { text: ev.text, isError: ev.isError, structured: ev.structured };
  let next: ToolCallRecord = callWith(call, status, result, call.permission, call.subagent, ev.timestamp ?? call.endedAt);
  if (next.subagent !== undefined) next = settleAgentCall(d, next, ev);
  const updated = next;
  d.top = updateBlock(d.top, path, (block) => blockWithCall(block, updated));
  track(d, updated, path);
  if (updated.subagent !== undefined && updated.subagent.status !== "running") stopOpenUnder(d, path);
}

const DenialText = [
  /^The user doesn't want to proceed with this tool use/,
  /^User rejected tool use/,
  /^Permission to use \S+ has been denied/,
  / was blocked\. For security, Claude Code may only/,
  /^Tool permission request failed/,
];

function isDenial(call: ToolCallRecord, ev: ToolResultEvent): boolean {
  if (call.permission?.state === "denied") return true;
  const structured = typeof ev.structured === "string" ? ev.structured.replace(/^Error: /, "") : "";
  return DenialText.some((re) => re.test(ev.text) || re.test(structured));
}

// The Agent call's own tool_result: the last word on a foreground subagent (status, totals, model,
// summary), or the launch receipt of a background one (which stays running).

import { AgentTrailerBlock, agentTrailerOf, withoutAgentTrailer } from "../../shared/agentTrailer.js";
import type { ToolResultEvent } from "../../shared/events.js";
import type { Json, JsonObject } from "../../shared/protocol/messages.js";
import type { SubagentRecord, ToolCallRecord } from "../../shared/transcript.js";
import type { Draft } from "./draft.js";
import { mapTaskStatus } from "./subagentRecords.js";
import { writeMap } from "./undoLog.js";

const InterruptText = /^The user doesn't want to proceed with this tool use/;
const ApiErrorText = /^API Error/;

export function settleAgentCall(d: Draft, call: ToolCallRecord, ev: ToolResultEvent): ToolCallRecord {
  const record = call.subagent;
  if (record === undefined) return call;
  const s = asObject(ev.structured);
  // A result inside a sidechain has no envelope; its text's trailer still names the agent and its totals.
  const trailer = agentTrailerOf(ev.text);
  const agentId = str(s?.["agentId"]) ?? trailer?.agentId;
  linkTask(d, agentId, call.toolUseId);
  if (s?.["status"] === "async_launched") {
    const launched: SubagentRecord = {
      ...record,
      background: true,
      taskId: record.taskId || agentId || "",
      model: str(s["resolvedModel"]) ?? record.model,
    };
    return { ...call, subagent: launched };
  }
  writeMap(d.log, d.store.settled, call.toolUseId, true);
  const summary = summaryText(ev, s);
  if (ev.isError) {
    const stopped = InterruptText.test(ev.text);
    const status = stopped ? "stopped" : "failed";
    return { ...call, status: stopped ? "stopped" : call.status, subagent: { ...record, status, summaryMarkdown: summary || ev.text } };
  }
  const apiError = d.store.apiErrors.get(call.toolUseId) ?? (ApiErrorText.test(summary) ? summary : undefined);
  const status = apiError !== undefined ? "failed" : (mapTaskStatus(typeof s?.["status"] === "string" ? s["status"] : undefined) ?? "completed");
  const settled: SubagentRecord = {
    ...record,
    status,
    taskId: record.taskId || agentId || "",
    subagentType: str(s?.["agentType"]) ?? record.subagentType,
    // Agent results carry none; a Workflow agent's (workflowRuns.ts) carries the label its run gave it.
    description: str(s?.["description"]) ?? record.description,
    model: str(s?.["resolvedModel"]) ?? record.model,
    durationMs: num(s?.["totalDurationMs"]) ?? trailer?.durationMs ?? record.durationMs,
    totalTokens: num(s?.["totalTokens"]) ?? trailer?.totalTokens ?? record.totalTokens,
    toolUses: num(s?.["totalToolUseCount"]) ?? trailer?.toolUses ?? record.toolUses,
    summaryMarkdown: summary || apiError || record.summaryMarkdown,
  };
  return { ...call, subagent: settled };
}

/**
 * The result names the agent's task id: task events that come later find the record by it even
 * when no task_started linked them (restored sessions have none; a SendMessage continuation's
 * events name another tool_use).
 */
function linkTask(d: Draft, taskId: string | undefined, toolUseId: string): void {
  if (taskId !== undefined && !d.store.tasks.has(taskId)) writeMap(d.log, d.store.tasks, taskId, { toolUseId, kind: "agent" });
}

/** The subagent's final text: the structured `content`, else the result blocks minus the trailer. */
function summaryText(ev: ToolResultEvent, s: JsonObject | undefined): string {
  const fromStructured = textsOf(s?.["content"]);
  if (fromStructured.length > 0) return fromStructured.join("\n\n");
  const blocks = Array.isArray(ev.content) ? textsOf(ev.content as Json) : [];
  const kept = blocks.filter((t) => !AgentTrailerBlock.test(t));
  if (kept.length > 0) return kept.join("\n\n");
  return withoutAgentTrailer(ev.text);
}

function textsOf(value: Json | undefined): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value as readonly Json[]) {
    const o = asObject(item);
    if (o?.["type"] === "text" && typeof o["text"] === "string") out.push(o["text"]);
  }
  return out;
}

function asObject(value: Json | undefined): JsonObject | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

function str(value: Json | undefined): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function num(value: Json | undefined): number | undefined {
  return typeof value === "number" ? value : undefined;
}

// The Agent call's own tool_result: the last word on a foreground subagent (status, totals, model,
// summary), or the launch receipt of a background one (which stays running).

import { AgentTrailerBlock, unwrapAgentResult, withoutAgentTrailer, type AgentHandBack } from "../../shared/agentTrailer.js";
import type { ToolResultEvent } from "../../shared/events.js";
import type { Json, JsonObject } from "../../shared/protocol/messages.js";
import type { SubagentRecord, ToolCallRecord } from "../../shared/transcript.js";
import type { SessionModel } from "./session.js";
import { mapTaskStatus, withWorktree } from "./subagentRecords.js";

const InterruptText = /^The user doesn't want to proceed with this tool use/;
const ApiErrorText = /^API Error/;

export function settleAgentCall(s: SessionModel, call: ToolCallRecord, ev: ToolResultEvent): ToolCallRecord {
  const record = call.subagent;
  if (record === undefined) return call;
  const out = asObject(ev.structured);
  // A result inside a sidechain has no envelope; its text's trailer still names the agent and its totals.
  const handBack = unwrapAgentResult(ev.text);
  const trailer = handBack.trailer;
  const agentId = str(out?.["agentId"]) ?? trailer?.agentId;
  linkTask(s, agentId, call.toolUseId);
  if (out?.["status"] === "async_launched") {
    const launched: SubagentRecord = {
      ...record,
      background: true,
      taskId: record.taskId || agentId || "",
      model: str(out["resolvedModel"]) ?? record.model,
    };
    return { ...call, subagent: launched };
  }
  s.tree.settled.set(call.toolUseId, true);
  const summary = summaryText(ev, out, handBack);
  if (ev.isError) {
    const stopped = InterruptText.test(ev.text);
    const status = stopped ? "stopped" : "failed";
    return { ...call, status: stopped ? "stopped" : call.status, subagent: { ...record, status, summaryMarkdown: summary || ev.text, retry: undefined } };
  }
  const apiError = s.tree.apiErrors.get(call.toolUseId) ?? (ApiErrorText.test(summary) ? summary : undefined);
  const status = apiError !== undefined ? "failed" : (mapTaskStatus(typeof out?.["status"] === "string" ? out["status"] : undefined) ?? "completed");
  const settled: SubagentRecord = {
    ...record,
    status,
    taskId: record.taskId || agentId || "",
    subagentType: str(out?.["agentType"]) ?? record.subagentType,
    // Agent results carry none; a Workflow agent's (workflowRuns.ts) carries the label its run gave it.
    description: str(out?.["description"]) ?? record.description,
    model: str(out?.["resolvedModel"]) ?? record.model,
    durationMs: num(out?.["totalDurationMs"]) ?? trailer?.durationMs ?? record.durationMs,
    totalTokens: num(out?.["totalTokens"]) ?? trailer?.totalTokens ?? record.totalTokens,
    toolUses: num(out?.["totalToolUseCount"]) ?? trailer?.toolUses ?? record.toolUses,
    summaryMarkdown: summary || apiError || record.summaryMarkdown,
    toolsUsed: toolsUsedOf(out) ?? handBack.toolsUsed ?? record.toolsUsed,
    worktree: withWorktree(record.worktree, str(out?.["worktreePath"]) ?? trailer?.worktreePath, str(out?.["worktreeBranch"]) ?? trailer?.worktreeBranch),
    retry: undefined,
  };
  return { ...call, subagent: settled };
}

/**
 * The result names the agent's task id: task events that come later find the record by it even
 * when no task_started linked them (restored sessions have none; a SendMessage continuation's
 * events name another tool_use).
 */
function linkTask(s: SessionModel, taskId: string | undefined, toolUseId: string): void {
  if (taskId !== undefined && !s.tree.tasks.has(taskId)) s.tree.tasks.set(taskId, { toolUseId, kind: "agent" });
}

/**
 * The subagent's report: the structured `content` (2.1.332 opens it with a tools-used block),
 * else the result blocks without their wrapping (2.1.197: report and trailer blocks; 2.1.332: one
 * block holding all of it).
 */
function summaryText(ev: ToolResultEvent, out: JsonObject | undefined, handBack: AgentHandBack): string {
  const fromStructured = textsOf(out?.["content"]).map(withoutAgentTrailer).filter((t) => t !== "");
  if (fromStructured.length > 0) return fromStructured.join("\n\n");
  const blocks = Array.isArray(ev.content) ? textsOf(ev.content as Json) : [];
  const kept = blocks.filter((t) => !AgentTrailerBlock.test(t));
  if (kept.length > 1) return kept.map(withoutAgentTrailer).join("\n\n");
  return handBack.report;
}

/** `toolsUsed` of the envelope (2.1.332), else the tools line of its content; undefined when neither says. */
function toolsUsedOf(out: JsonObject | undefined): readonly string[] | undefined {
  const listed = out?.["toolsUsed"];
  if (Array.isArray(listed)) return (listed as readonly Json[]).filter((t): t is string => typeof t === "string" && t !== "");
  for (const text of textsOf(out?.["content"])) {
    const tools = unwrapAgentResult(text).toolsUsed;
    if (tools !== undefined) return tools;
  }
  return undefined;
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

// Subagent records and the task_* lifecycle: task_started links a task id to its Agent tool_use
// (either may come first), progress feeds the live card, updates and notifications move the status
// until the final tool_result has spoken.

import type {
  SubagentRetryEvent,
  TaskNotificationEvent,
  TaskProgressEvent,
  TaskStartedEvent,
  TaskUpdatedEvent,
  ToolResultEvent,
} from "../../shared/events.js";
import { withoutAgentTrailer } from "../../shared/agentTrailer.js";
import { str } from "../../shared/jsonFields.js";
import { workflowLaunchOf, WorkflowTaskType } from "../../shared/workflowLaunch.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { WorkflowType, type AgentWorktreeRef, type SubagentRecord, type SubagentRetry, type SubagentStatus, type ToolCallRecord } from "../../shared/transcript.js";
import { editCall, editRecord, findCall } from "./edits.js";
import type { SessionModel } from "./session.js";
import { afterRuns, setProgress } from "./progress.js";
import { makeRecord, recordWith } from "./shapes.js";
import { getIfAny, type ContinuedRun } from "./blockTree.js";
import { stopOpenUnder } from "./stopping.js";
import { depthOf, latestText } from "./tree.js";
import { adoptWaitingRecord, placeUnseenCall } from "./unseenAgentCalls.js";

export function newRecord(toolUseId: string, input: JsonObject, depth: number | undefined): SubagentRecord {
  const text = (key: string): string => {
    const value = input[key];
    return typeof value === "string" ? value : "";
  };
  return makeRecord({
    toolUseId,
    taskId: "",
    subagentType: text("subagent_type"),
    description: text("description"),
    prompt: text("prompt"),
    background: input["run_in_background"] === true,
    status: "running",
    blocks: [],
    droppedBlockCount: 0,
    spawnDepth: depth,
    worktree: input["isolation"] === "worktree" ? {} : undefined,
  });
}

/**
 * The Workflow tool runs a script of agents in the background: live, its task_started (task_type
 * local_workflow) gives its call a record; restored, its launch receipt does (`async_launched`,
 * `taskType: "local_workflow"`), so both show the same card, which its notification completes.
 */
export function launchedWorkflow(call: ToolCallRecord, ev: ToolResultEvent): SubagentRecord | undefined {
  const launch = workflowLaunchOf(ev.structured);
  if (launch === undefined) return undefined;
  return makeRecord({
    ...newRecord(call.toolUseId, {}, undefined),
    taskId: launch.taskId ?? "",
    subagentType: WorkflowType,
    description: launch.summary ?? launch.workflowName ?? "",
    prompt: str(call.input, "script") ?? str(call.input, "name") ?? "",
    background: true,
  });
}

/**
 * The record's worktree once a result or notification names it. Naming one also marks the agent
 * as isolated: a SendMessage continuation or a restored call may lack the `isolation` input.
 */
export function withWorktree(known: AgentWorktreeRef | undefined, path: string | undefined, branch: string | undefined): AgentWorktreeRef | undefined {
  if (path === undefined && branch === undefined) return known;
  return { path: path ?? known?.path, branch: branch ?? known?.branch };
}

/** What task events learned before the tool_use arrived wins over the tool_use input. */
export function mergeDraft(base: SubagentRecord, draft: SubagentRecord | undefined): SubagentRecord {
  if (draft === undefined) return base;
  return {
    ...draft,
    toolUseId: base.toolUseId,
    subagentType: draft.subagentType || base.subagentType,
    description: draft.description || base.description,
    prompt: draft.prompt || base.prompt,
    background: draft.background || base.background,
    spawnDepth: base.spawnDepth,
    worktree: withWorktree(base.worktree, draft.worktree?.path, draft.worktree?.branch),
  };
}

export function mapTaskStatus(status: string | undefined): SubagentStatus | undefined {
  switch (status) {
    case "completed":
      return "completed";
    case "failed":
    case "error":
      return "failed";
    case "killed":
    case "stopped":
    case "cancelled":
      return "stopped";
    case "running":
    case "pending":
      return "running";
    default:
      return undefined;
  }
}

/** Applies `fn` to the record of `toolUseId`, in the tree or among drafts. */
export function editRecordById(s: SessionModel, toolUseId: string, fn: (record: SubagentRecord) => SubagentRecord): boolean {
  const node = findCall(s, toolUseId);
  if (node !== undefined) {
    if (node.call?.subagent === undefined) return false;
    editRecord(s, node, fn);
    return true;
  }
  const draft = s.tree.drafts.get(toolUseId);
  if (draft === undefined) return false;
  s.tree.drafts.set(toolUseId, fn(draft));
  return true;
}

/** The Agent tool_use id a task event concerns; undefined for Bash tasks and unknown tasks. */
export function agentToolUseId(s: SessionModel, taskId: string, fallback: string | undefined): string | undefined {
  const link = s.tree.tasks.get(taskId);
  if (link?.kind === "bash") return undefined;
  return link?.toolUseId ?? fallback;
}

export function onTaskStarted(s: SessionModel, ev: TaskStartedEvent): void {
  const tasks = s.tree.tasks;
  const known = tasks.get(ev.taskId);
  if (ev.taskType === "local_bash") {
    if (known === undefined && ev.toolUseId !== undefined) tasks.set(ev.taskId, { toolUseId: ev.toolUseId, kind: "bash" });
    return;
  }
  if (known !== undefined) {
    // A SendMessage continuation: same task, a new tool_use id (2.1.197) or a new run id (2.1.332).
    if (known.kind === "agent") runOf(s, known.toolUseId, ev.toolUseId ?? "", ev.runId, true);
    return;
  }
  if (ev.toolUseId === undefined) return;
  tasks.set(ev.taskId, { toolUseId: ev.toolUseId, kind: "agent" });
  const fill = (r: SubagentRecord): SubagentRecord => ({
    ...r,
    taskId: ev.taskId,
    description: ev.description ?? r.description,
    subagentType: ev.subagentType ?? (ev.taskType === WorkflowTaskType ? WorkflowType : r.subagentType),
    prompt: ev.prompt ?? r.prompt,
    background: r.background || ev.taskType === WorkflowTaskType,
    runId: ev.runId ?? r.runId,
    parentTaskId: ev.parentTaskId ?? r.parentTaskId,
    spawnDepth: r.spawnDepth ?? ev.spawnDepth,
  });
  const node = findCall(s, ev.toolUseId);
  if (node === undefined) {
    const draft = fill(s.tree.drafts.get(ev.toolUseId) ?? newRecord(ev.toolUseId, {}, undefined));
    if (placeUnseenCall(s, draft)) s.tree.drafts.delete(ev.toolUseId);
    else s.tree.drafts.set(ev.toolUseId, draft);
    return;
  }
  const depth = depthOf(node);
  editCall(s, node, (call) => ({ ...call, subagent: fill(call.subagent ?? newRecord(call.toolUseId, call.input, depth)) }));
}

/**
 * The continued run a task event of the Agent call `agentId` belongs to.
 * A SendMessage to a finished agent: both CLIs name the SendMessage call in the new run's events
 * (2.1.332 adds a new `run_id` under the same task). A message queued to a background agent that
 * finished before reading it (2.1.332): the new run names the Agent call itself, with a new
 * `run_id`, and its progress names no call at all (docs/protocol-notes.md). Restored 2.1.332 sessions have neither: a run's first event (`starts`) after a
 * SendMessage to the finished agent is the later run's. The first event of a run starts it: the
 * subagent runs again, and what the record counts so far becomes the run's base. Live, that
 * first event is the run's task_started; restored, it is its notification (the disk has no
 * task_started).
 */
function runOf(s: SessionModel, agentId: string, eventToolUseId: string | undefined, runId: string | undefined, starts: boolean): ContinuedRun | undefined {
  const run = getIfAny(s.tree.runs, agentId);
  const otherCall = eventToolUseId !== undefined && eventToolUseId !== "" && eventToolUseId !== agentId;
  if (otherCall) {
    if (run?.toolUseId === eventToolUseId) return run;
  } else {
    const node = findCall(s, agentId);
    const current = run?.runId ?? node?.call?.subagent?.runId;
    if (runId !== undefined && current !== undefined) {
      if (runId === current) return run;
    } else if (!starts || getIfAny(s.tree.resumeAsked, agentId) !== true) {
      if (runId !== undefined && node !== undefined) editRecord(s, node, (r) => ({ ...r, runId })); // the first run's id, learnt late
      return run;
    }
  }
  return startRun(s, agentId, otherCall ? (eventToolUseId as string) : agentId, runId);
}

function startRun(s: SessionModel, agentId: string, toolUseId: string, runId: string | undefined): ContinuedRun | undefined {
  const node = findCall(s, agentId);
  const record = node?.call?.subagent;
  if (node === undefined || record === undefined) return undefined;
  const sofar = node.progress ?? record;
  const next: ContinuedRun = { toolUseId, runId, toolUses: sofar.toolUses ?? 0, durationMs: sofar.durationMs ?? 0 };
  s.tree.runs.set(agentId, next);
  s.tree.settled.delete(agentId);
  s.tree.resumeAsked.delete(agentId);
  s.tree.killedAgents.delete(agentId); // the new run's rejections are its own
  // A resumed agent runs past the turn that resumed it: in the background, whatever its first run was.
  editRecord(s, node, (r) => ({ ...r, status: "running", background: true, runId: runId ?? r.runId, error: undefined, retry: undefined }));
  return next;
}

/** A SendMessage call to a finished agent resumes it: the agent's next run starts (see runOf). */
export function noteSendMessage(s: SessionModel, input: JsonObject): void {
  const to = str(input, "to") ?? str(input, "recipient");
  const link = to === undefined ? undefined : s.tree.tasks.get(to);
  if (link?.kind !== "agent") return;
  const record = findCall(s, link.toolUseId)?.call?.subagent;
  if (record !== undefined && record.status !== "running") s.tree.resumeAsked.set(link.toolUseId, true);
}

export function onTaskProgress(s: SessionModel, ev: TaskProgressEvent): void {
  const id = agentToolUseId(s, ev.taskId, ev.toolUseId);
  if (id === undefined) return;
  const node = findCall(s, id);
  if (node !== undefined) {
    const record = node.call?.subagent;
    if (record === undefined) return;
    if (record.retry !== undefined) editRecord(s, node, (r) => ({ ...r, retry: undefined })); // progress resumed
    setProgress(s, node, record, ev, runOf(s, id, ev.toolUseId, ev.runId, false));
    if (ev.lastToolName === "Agent") adoptWaitingRecord(s, node);
    return;
  }
  const r = s.tree.drafts.get(id);
  if (r === undefined) return;
  const u = ev.usage;
  const next = recordWith(
    r,
    r.status,
    ev.description ?? r.progressLine,
    ev.lastToolName ?? r.lastToolName,
    u?.total_tokens ?? r.totalTokens,
    u?.tool_uses ?? r.toolUses,
    u?.duration_ms ?? r.durationMs,
    r.blocks,
    r.droppedBlockCount,
  );
  s.tree.drafts.set(id, next);
}

export function onTaskUpdated(s: SessionModel, ev: TaskUpdatedEvent): void {
  const id = agentToolUseId(s, ev.taskId, undefined);
  if (id === undefined) return;
  const error = ev.error;
  if (error !== undefined) editRecordById(s, id, (r) => (r.error === error ? r : { ...r, error }));
  setTaskStatus(s, id, mapTaskStatus(ev.status));
}

export function onTaskNotification(s: SessionModel, ev: TaskNotificationEvent): void {
  const id = agentToolUseId(s, ev.taskId, ev.toolUseId);
  if (id === undefined) return;
  const run = runOf(s, id, ev.toolUseId, ev.runId, true);
  // The notification's own summary is a label ("Agent "…" finished", or the description); the
  // subagent's latest text is its answer. Restored, the records' blocks are not loaded yet, and
  // the summary is the <task-notification>'s <result>: the same answer. A resumed run's answer
  // replaces the first.
  const list = findCall(s, id)?.list;
  const latest = list !== undefined ? latestText(list) : undefined;
  editRecordById(s, id, (r) => {
    const u = ev.usage;
    // A summary that only repeats the description says nothing (an agent stopped before it answered).
    const label = ev.summary === r.description ? undefined : ev.summary;
    // 2.1.332 says when the summary is the agent's report: that is its answer, unwrapped.
    const report = ev.summaryIsReport === true && ev.summary !== undefined ? withoutAgentTrailer(ev.summary) : undefined;
    const answer = report || latest || label;
    return {
      ...r,
      summaryMarkdown: run !== undefined ? (answer ?? r.summaryMarkdown) : (r.summaryMarkdown ?? answer),
      totalTokens: u?.total_tokens ?? r.totalTokens,
      toolUses: afterRuns(run?.toolUses, u?.tool_uses) ?? r.toolUses,
      durationMs: afterRuns(run?.durationMs, u?.duration_ms) ?? r.durationMs,
      worktree: withWorktree(r.worktree, ev.worktreePath, ev.worktreeBranch),
    };
  });
  setTaskStatus(s, id, mapTaskStatus(ev.status));
}

/** A foreground subagent's model call is being retried: its card says so until progress resumes. */
export function onSubagentRetry(s: SessionModel, ev: SubagentRetryEvent): void {
  const retry: SubagentRetry = { attempt: ev.attempt, maxRetries: ev.maxRetries, reason: ev.reason };
  editRecordById(s, ev.agentToolUseId, (r) => (r.status === "running" ? { ...r, retry } : r));
}

function setTaskStatus(s: SessionModel, toolUseId: string, status: SubagentStatus | undefined): void {
  if (status === undefined || s.tree.settled.get(toolUseId) === true) return;
  const apiError = s.tree.apiErrors.get(toolUseId);
  const next = status === "completed" && apiError !== undefined ? "failed" : status;
  editRecordById(s, toolUseId, (r) => (r.status === next ? r : { ...r, status: next, retry: next === "running" ? r.retry : undefined }));
  // Killed (an interrupt, TaskStop): the rejections the CLI writes for its open calls are the cut (toolCalls.ts cutByStop).
  if (next === "stopped") s.tree.killedAgents.set(toolUseId, true);
  if (next !== "running") {
    const node = findCall(s, toolUseId);
    if (node !== undefined) stopOpenUnder(s, node);
  }
}

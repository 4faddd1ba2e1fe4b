// What a Workflow call's result says it launched (CLI 2.1.197's `tool_use_result` on stdout,
// `toolUseResult` on disk): `{status: "async_launched", taskType: "local_workflow", taskId, runId,
// summary, workflowName, …}`. Read by the hub (the card) and by history (the run's files).

import { isObject, str } from "./jsonFields.js";
import type { Json } from "./protocol/messages.js";

/** The task_type of a Workflow run's task events. */
export const WorkflowTaskType = "local_workflow";

export interface WorkflowLaunch {
  readonly taskId?: string;
  /** Names the run's folders; only set when it cannot leave them (no separators, not `.` or `..`). */
  readonly runId?: string;
  readonly summary?: string;
  readonly workflowName?: string;
}

export function workflowLaunchOf(structured: Json | undefined): WorkflowLaunch | undefined {
  if (!isObject(structured) || str(structured, "status") !== "async_launched" || str(structured, "taskType") !== WorkflowTaskType) return undefined;
  const runId = str(structured, "runId");
  const safe = runId !== undefined && /^[\w.-]+$/.test(runId) && runId !== "." && runId !== "..";
  const field = (key: string): { readonly [k: string]: string } => {
    const value = str(structured, key);
    return value === undefined ? {} : { [key]: value };
  };
  return { ...field("taskId"), ...(safe ? { runId } : {}), ...field("summary"), ...field("workflowName") };
}

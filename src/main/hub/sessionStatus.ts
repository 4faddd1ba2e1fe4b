// The session's status: "running" (working) while its turn runs, and also, since 2.1.332 runs
// Agent calls in the background by default, while a background task of it lives or the turn that
// delivers a finished agent's report is still to come. The first result
// of a turn no longer means the work is done.
//
// What lives comes from `system/background_tasks_changed` when this CLI process has sent one (a
// level that replaces the last); 2.1.197 never sends it, and then it is what the hub knows: the
// cards of background Agent calls that are still running.

import type { BackgroundTask, BackgroundTasksEvent, TaskNotificationEvent, TaskUpdatedEvent } from "../../shared/events.js";
import type { SessionModel } from "./session.js";
import { isAlive } from "./blockTree.js";
import { agentToolUseId } from "./subagentRecords.js";

export interface LiveBackground {
  /** Background tasks that are work (not watchers). */
  readonly tasks: number;
  /** Of those, subagents the main turn does not wait for: what an interrupt would stop besides the turn. */
  readonly agents: number;
}

export function onBackgroundTasks(s: SessionModel, ev: BackgroundTasksEvent): void {
  s.backgroundTasks = ev.tasks;
}

/**
 * A background agent that ends on its own, outside a turn, starts a turn of its own that hands its
 * report to the model: until that turn begins, the session is not done. A stopped agent starts
 * none (an interrupt ends with no turn at all). `wasLive`: the card ran before the task event.
 */
export function noteBackgroundEnd(s: SessionModel, ev: TaskUpdatedEvent | TaskNotificationEvent, wasLive: boolean): void {
  if (s.inTurn || !wasLive || (ev.status !== "completed" && ev.status !== "failed")) return;
  if (!isLiveBackgroundTask(s, ev.taskId, ev.kind === "task_notification" ? ev.toolUseId : undefined)) s.notificationDue = true;
}

/** Whether the task of a task event is a background agent whose card still runs (read before the event changes it). */
export function isLiveBackgroundTask(s: SessionModel, taskId: string, toolUseId: string | undefined): boolean {
  const id = agentToolUseId(s, taskId, toolUseId);
  const record = id === undefined ? undefined : s.tree.agents.get(id)?.call?.subagent;
  return record?.background === true && record.status === "running";
}

export function liveBackground(s: SessionModel): LiveBackground {
  return s.backgroundTasks !== undefined ? fromLevel(s.backgroundTasks) : fromCards(s);
}

function fromLevel(tasks: readonly BackgroundTask[]): LiveBackground {
  let work = 0;
  let agents = 0;
  for (const task of tasks) {
    if (task.ambient === true) continue;
    work++;
    if (task.taskType === "local_agent" && task.awaited !== true) agents++;
  }
  return { tasks: work, agents };
}

/** 2.1.197: the running cards of background Agent calls (a foreground card ends with its turn). */
function fromCards(s: SessionModel): LiveBackground {
  let agents = 0;
  for (const node of s.tree.agents.values()) {
    const record = node.call?.subagent;
    if (record?.background === true && record.status === "running" && isAlive(s.tree, node)) agents++;
  }
  return { tasks: agents, agents };
}

/** Sets the status and the background count from what the model now holds. An error status stays until a new turn. */
export function settleStatus(s: SessionModel): void {
  const live = liveBackground(s);
  const working = s.inTurn || s.notificationDue || live.tasks > 0;
  const status = s.meta.status === "error" && !working ? "error" : working ? "running" : "idle";
  const backgroundAgents = live.agents > 0 ? live.agents : undefined;
  if (s.meta.status === status && s.meta.backgroundAgents === backgroundAgents) return;
  const { backgroundAgents: _old, ...rest } = s.meta;
  s.meta = { ...rest, status, ...(backgroundAgents === undefined ? {} : { backgroundAgents }) };
}

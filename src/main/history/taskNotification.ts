// `<task-notification>` prompts: the CLI tells the model that a background
// task finished. On disk they are user prompts; live they arrive as `system/task_notification`.
// Both become the same `task_notification` event.

import type { TaskNotificationEvent } from "../../shared/events.js";
import type { TaskUsage } from "../../shared/protocol/messages.js";

export function isTaskNotificationText(text: string): boolean {
  return text.trimStart().startsWith("<task-notification>");
}

function tag(text: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text);
  return match?.[1]?.trim();
}

function lastTag(text: string, name: string): string | undefined {
  const at = text.lastIndexOf(`<${name}>`);
  return at < 0 ? undefined : tag(text.slice(at), name);
}

function usageNumber(usage: string, names: readonly string[]): number | undefined {
  for (const name of names) {
    const match = new RegExp(`<${name}>\\s*(\\d+)\\s*</${name}>|\\b${name}:\\s*(\\d+)`).exec(usage);
    const digits = match?.[1] ?? match?.[2];
    if (digits !== undefined) return Number(digits);
  }
  return undefined;
}

function parseUsage(usage: string | undefined): TaskUsage | undefined {
  if (usage === undefined) return undefined;
  const total = usageNumber(usage, ["subagent_tokens", "total_tokens"]);
  const toolUses = usageNumber(usage, ["tool_uses"]);
  const duration = usageNumber(usage, ["duration_ms"]);
  if (total === undefined && toolUses === undefined && duration === undefined) return undefined;
  return {
    ...(total !== undefined ? { total_tokens: total } : {}),
    ...(toolUses !== undefined ? { tool_uses: toolUses } : {}),
    ...(duration !== undefined ? { duration_ms: duration } : {}),
  };
}

/** Parses the XML-ish notification; undefined when it names no task or no status (monitor events). */
export function parseTaskNotification(text: string): TaskNotificationEvent | undefined {
  const taskId = tag(text, "task-id");
  const status = tag(text, "status");
  if (taskId === undefined || taskId === "" || status === undefined || status === "") return undefined;
  const toolUseId = tag(text, "tool-use-id");
  // The agent's final text says more than "Agent "…" finished".
  const summary = tag(text, "result") ?? tag(text, "summary");
  const outputFile = tag(text, "output-file");
  const usage = parseUsage(tag(text, "usage"));
  // The CLI appends it after the agent's <result>, so the last one is the CLI's, whatever the result quotes.
  const worktree = lastTag(text, "worktree");
  const worktreePath = worktree === undefined ? undefined : tag(worktree, "worktreePath");
  const worktreeBranch = worktree === undefined ? undefined : tag(worktree, "worktreeBranch");
  return {
    kind: "task_notification",
    taskId,
    status,
    ...(toolUseId !== undefined ? { toolUseId } : {}),
    ...(summary !== undefined ? { summary } : {}),
    ...(outputFile !== undefined ? { outputFile } : {}),
    ...(usage !== undefined ? { usage } : {}),
    ...(worktreePath ? { worktreePath } : {}),
    ...(worktreeBranch ? { worktreeBranch } : {}),
  };
}

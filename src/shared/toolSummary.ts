// One line saying what a tool call does: card headers, groups and the hierarchy in the window, and
// the tree `baton replay` / `baton export` print.

import { str } from "./jsonFields.js";
import type { JsonObject } from "./protocol/messages.js";

export interface ToolSummaryOptions {
  /** Whole file paths (a terminal has the width); the window shortens them to their last parts. */
  readonly fullPaths?: boolean;
  /** The description of the subagent with this agent id (task id), when the transcript has it. */
  readonly agentName?: (agentId: string) => string | undefined;
}

export function toolSummary(name: string, input: JsonObject, options: ToolSummaryOptions = {}): string {
  const text = (key: string): string => str(input, key) ?? "";
  switch (name) {
    case "Bash":
      return text("command");
    case "Read":
    case "Write":
    case "Edit":
    case "MultiEdit":
    case "NotebookEdit": {
      const file = text("file_path") || text("notebook_path");
      return options.fullPaths === true ? file : shortPath(file);
    }
    case "Grep":
    case "Glob":
      return text("pattern");
    case "WebFetch":
      return text("url");
    case "WebSearch":
      return text("query");
    case "TodoWrite":
      return Array.isArray(input["todos"]) ? `${input["todos"].length} items` : "";
    case "TaskCreate":
    case "TaskUpdate":
      return text("subject") || text("taskId");
    case "TaskOutput":
    case "TaskStop":
      return text("task_id") || text("shell_id");
    case "SendMessage": {
      // To a teammate, or to a finished agent by its id (which resumes it): named by its card.
      const id = text("to");
      const to = (id === "" ? undefined : options.agentName?.(id)) ?? id;
      const what = text("summary") || text("message");
      return to === "" ? what : `→ ${to}${what === "" ? "" : `: ${what}`}`;
    }
    // Baton's agent tools (issue 24): the question, the plan's goal, what the conductor answered.
    case "mcp__baton__ask_conductor":
      return text("question");
    case "mcp__baton__submit_plan":
      return text("goal");
    case "mcp__baton__answer_subagent":
    case "mcp__baton__review_subagent_plan": {
      const id = text("agent");
      const to = (id === "" ? undefined : options.agentName?.(id)) ?? id;
      const what = name === "mcp__baton__answer_subagent" ? text("answer") : text("decision");
      return `→ ${to}${what === "" ? "" : `: ${what}`}`;
    }
    default:
      return text("description");
  }
}

export function shortPath(p: string): string {
  const parts = p.split("/");
  return parts.length > 3 ? `…/${parts.slice(-2).join("/")}` : p;
}

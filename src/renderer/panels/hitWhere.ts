// What a search result line says about a hit, so hits can be told apart without opening them
// (issue 34): where in the session it is (the prompt, an answer, thinking, a tool's input or
// output, an agent's call or report; inside which agent), the project by its readable name, and
// the date. Pure: the Project panel draws these.
import type { SearchHit } from "../../shared/api.js";

const AgentTools = new Set(["Agent", "Task"]);

/** "Bash output", "answer", "agent call \"Fix the tests\"", … and, in a subagent's steps, "in agent \"…\"". */
export function hitWhere(hit: SearchHit): string {
  const part = partOf(hit);
  const agent = hit.subagentDescription ?? hit.subagentType;
  return agent === undefined || hit.kind === "title" || hit.kind === "project" ? part : `${part} · in agent “${agent}”`;
}

function partOf(hit: SearchHit): string {
  const agentCall = hit.tool !== undefined && AgentTools.has(hit.tool);
  switch (hit.kind) {
    case "prompt":
      return hit.agentId !== undefined ? "agent's prompt" : "prompt";
    case "text":
      return "answer";
    case "thinking":
      return "thinking";
    case "tool_input":
      if (agentCall) return hit.toolDescription !== undefined ? `agent call “${hit.toolDescription}”` : "agent call";
      return hit.tool !== undefined ? `${hit.tool} input` : "tool input";
    case "tool_output":
      if (agentCall) return hit.toolDescription !== undefined ? `report of agent “${hit.toolDescription}”` : "agent's report";
      return hit.tool !== undefined ? `${hit.tool} output` : "tool output";
    case "title":
      return "session title";
    case "project":
      return "project folder";
    default:
      return hit.kind;
  }
}

/** The project by its readable name: the working folder's last part, else the project folder's name. */
export function hitProject(hit: SearchHit): string | undefined {
  const cwd = hit.cwd?.replace(/[\\/]+$/, "");
  if (cwd !== undefined && cwd !== "") return cwd.slice(Math.max(cwd.lastIndexOf("/"), cwd.lastIndexOf("\\")) + 1) || cwd;
  return hit.project;
}

/** "2026-12-01 21:51" from an ISO time (as the session list shows it), or undefined. */
export function hitDate(hit: SearchHit): string | undefined {
  const t = hit.timestamp;
  return t === undefined || !/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(t) ? undefined : t.slice(0, 16).replace("T", " ");
}

// What the audit trail keeps of a tool call's input: one readable, bounded line, never the input
// itself (a Write's content or a long prompt would make the trail a second transcript). The field a
// person recognises the call by (the command, the path, the URL), else the JSON's beginning. Line
// breaks and tabs show as visible marks so a row stays one line; escape sequences and other
// controls are kept as they are here and neutralised where the digest is printed (terminalText).
import type { JsonObject } from "../../shared/protocol/messages.js";

/** Code points kept of the digest; a longer one ends in "…". */
export const DIGEST_MAX_CHARS = 200;

/** The input field that names each known tool's call, first one present wins. */
const NamingFields: Readonly<Record<string, readonly string[]>> = {
  Bash: ["command"],
  Read: ["file_path"],
  Write: ["file_path"],
  Edit: ["file_path"],
  MultiEdit: ["file_path"],
  NotebookEdit: ["notebook_path"],
  NotebookRead: ["notebook_path"],
  WebFetch: ["url"],
  WebSearch: ["query"],
  Skill: ["skill", "command"],
};

export function auditInputDigest(toolName: string, input: JsonObject): string {
  return boundedDigest(describe(toolName, input));
}

/** One line of at most DIGEST_MAX_CHARS code points; applying it twice changes nothing. */
export function boundedDigest(text: string): string {
  const line = text.replace(/\r\n|\r|\n/g, "⏎").replace(/\t/g, " ");
  const chars = Array.from(line);
  return chars.length <= DIGEST_MAX_CHARS ? line : `${chars.slice(0, DIGEST_MAX_CHARS - 1).join("")}…`;
}

function describe(toolName: string, input: JsonObject): string {
  for (const field of NamingFields[toolName] ?? []) {
    const value = input[field];
    if (typeof value === "string") return value;
  }
  if (toolName === "Glob" || toolName === "Grep") return searchDigest(input);
  if (toolName === "Agent" || toolName === "Task") return spawnDigest(input);
  return JSON.stringify(input);
}

function searchDigest(input: JsonObject): string {
  const pattern = typeof input["pattern"] === "string" ? input["pattern"] : JSON.stringify(input);
  return typeof input["path"] === "string" ? `${pattern} in ${input["path"]}` : pattern;
}

function spawnDigest(input: JsonObject): string {
  const type = typeof input["subagent_type"] === "string" ? input["subagent_type"] : "general-purpose";
  const what = typeof input["description"] === "string" ? input["description"] : typeof input["prompt"] === "string" ? input["prompt"] : "";
  return what === "" ? type : `${type}: ${what}`;
}

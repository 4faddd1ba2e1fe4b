// A request on a card that the person answered in the terminal instead: 2.1.197 draws its own
// dialog while the PermissionRequest hook waits, and once the dialog is answered leaves that hook
// running (docs/protocol-notes.md, "Command hooks of a terminal session"), so no hook tells Baton.
// The call's result in its agent's file does: once it is written, the call was answered.

import fsp from "node:fs/promises";
import path from "node:path";
import { containedPath, isPlainId } from "../platform/containedPath.js";

/**
 * Whether the file of the agent that made `toolUseId` (the session's main file, or the subagent's
 * own under `<session>/subagents/`, never outside the project folder) holds that call's result.
 */
export async function resultWritten(mainFile: string, sessionId: string, agentId: string | undefined, toolUseId: string): Promise<boolean> {
  let file = mainFile;
  if (agentId !== undefined) {
    if (!isPlainId(agentId)) return false;
    const placed = await containedPath(path.dirname(mainFile), sessionId, "subagents", `agent-${agentId}.jsonl`);
    if (placed.kind !== "inside") return false;
    file = placed.real;
  }
  let text: string;
  try {
    text = await fsp.readFile(file, "utf8");
  } catch {
    return false;
  }
  const id = `"tool_use_id":${JSON.stringify(toolUseId)}`;
  return text.split("\n").some((line) => line.includes(id) && line.includes('"type":"tool_result"'));
}

// A running subagent the main file has not linked to its Agent call yet: 2.1.197 names a foreground
// agent's id only in the call's result, written when the agent ends, so while it runs a followed
// session cannot tell which card is its. Its meta.json, written when it starts, names the call
// (`toolUseId`): a terminal session's hook that names the agent links it from there, and its
// request lands on its card (docs/protocol-notes.md, "Command hooks of a terminal session").

import { isPlainId } from "../platform/containedPath.js";
import type { HistorySession } from "./historySession.js";
import { insideProject, readMeta } from "./subagentFolder.js";

/** Links `agentId` to the Agent call its meta.json names, when the model knows that call and not yet the agent; true when it did. */
export async function linkRunningAgent(session: HistorySession, agentId: string): Promise<boolean> {
  if (!isPlainId(agentId) || session.model.agentCallOf(agentId) !== undefined) return false;
  const metaPath = await insideProject(session.projectDir, [session.sessionId, "subagents", `agent-${agentId}.meta.json`], "a subagent's meta.json", session.problems);
  const meta = metaPath === undefined ? undefined : await readMeta(metaPath);
  const toolUseId = meta?.toolUseId;
  if (toolUseId === undefined || session.model.findToolCall(toolUseId) === undefined || session.model.agentCallOf(agentId) !== undefined) return false;
  session.model.apply([
    {
      kind: "task_started",
      taskId: agentId,
      toolUseId,
      taskType: "local_agent",
      ...(meta?.description !== undefined ? { description: meta.description } : {}),
      ...(meta?.agentType !== undefined ? { subagentType: meta.agentType } : {}),
    },
  ]);
  return true;
}

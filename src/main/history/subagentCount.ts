// How many subagents a session ran, counted from its folders without reading their transcripts,
// the way the index counts them: the agents in `<session>/subagents/` (side requests left out:
// sideConversations.ts), the agents of each Workflow run there (the cards workflowRuns.ts shows),
// and CLI 2.0.x sidechains at the project root that name the session in their first lines
// (2.0.x warm-up requests left out). Only those root files' first bytes are read.

import type { Dirent } from "node:fs";
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { obj, str, textOf } from "../../shared/jsonFields.js";
import { containedPath } from "../platform/containedPath.js";
import { notRegularKind } from "../platform/regularFile.js";
import { entries, subagentsFolderOf, type SessionFile } from "./sessionFiles.js";
import { isSideConversation, isWarmupPrompt } from "./sideConversations.js";
import { workflowAgentIds } from "./workflowRuns.js";

const AgentFile = /^agent-(.+)\.jsonl$/;
/** How much of a root-layout sidechain is read for the session it names and its first prompt. */
const RootHeadBytes = 16 * 1024;
/** Its first lines: the session id is on the first, the first prompt within a few. */
const RootHeadLines = 8;

// Windows has no O_NONBLOCK (nor FIFOs that open() blocks on).
const ReadFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The session's subagents, from its subagents folder, its Workflow runs and its project's root. */
export async function countSubagents(session: SessionFile): Promise<number> {
  let count = await session.rootAgents.of(session.sessionId);
  const folder = await subagentsFolderOf(session);
  if (folder === undefined) return count;
  for (const e of folder.listing) {
    const agentId = AgentFile.exec(e.name)?.[1];
    if (agentId !== undefined && !isSideConversation(agentId)) count++;
  }
  const workflows = folder.listing.find((e) => e.name === "workflows" && (e.isDirectory() || e.isSymbolicLink()));
  if (workflows === undefined) return count;
  // A link is followed by the run's own check (workflowRuns.ts), which refuses one leading out.
  const runsDir = path.join(folder.dir, "workflows");
  for (const run of await entries(runsDir)) {
    if (run.isDirectory() || run.isSymbolicLink()) count += (await workflowAgentIds(path.join(runsDir, run.name))).length;
  }
  return count;
}

/** Root-layout sidechains by the session they name; a warm-up request or an unreadable file names none. */
export async function countRootAgents(projectDir: string, agents: readonly Dirent[]): Promise<ReadonlyMap<string, number>> {
  const counts = new Map<string, number>();
  for (const agent of agents) {
    let file = path.join(projectDir, agent.name);
    if (agent.isSymbolicLink()) {
      const checked = await containedPath(projectDir, agent.name);
      if (checked.kind !== "inside") continue;
      file = checked.real;
    } else if (!agent.isFile()) continue;
    const head = await rootAgentHead(file);
    if (head.sessionId === undefined || isWarmupPrompt(head.prompt)) continue;
    counts.set(head.sessionId, (counts.get(head.sessionId) ?? 0) + 1);
  }
  return counts;
}

/** The session a sidechain's first lines name, and its first user prompt. */
async function rootAgentHead(file: string): Promise<{ sessionId?: string; prompt?: string }> {
  let text: string;
  let cut: boolean;
  try {
    const handle = await open(file, ReadFlags);
    try {
      if (notRegularKind(await handle.stat()) !== undefined) return {};
      const buffer = Buffer.alloc(RootHeadBytes);
      const { bytesRead } = await handle.read(buffer, 0, RootHeadBytes, 0);
      text = buffer.toString("utf8", 0, bytesRead);
      cut = bytesRead === RootHeadBytes;
    } finally {
      await handle.close();
    }
  } catch {
    return {};
  }
  const lines = text.split("\n");
  // A line the head cuts short is not read.
  if (cut) lines.pop();
  let sessionId: string | undefined;
  for (const line of lines.slice(0, RootHeadLines)) {
    let value: JsonObject;
    try {
      value = JSON.parse(line) as JsonObject;
    } catch {
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
    sessionId ??= str(value, "sessionId");
    if (str(value, "type") !== "user") continue;
    const prompt = textOf(obj(value, "message")?.["content"] ?? null);
    if (prompt !== "") return { ...(sessionId !== undefined ? { sessionId } : {}), prompt };
  }
  return sessionId !== undefined ? { sessionId } : {};
}

// The sidechain files of just the Agent calls on the first screen. A session with hundreds of
// subagents has hundreds of meta.json files; reading them all would cost the first screen more
// than its lines. Calls whose result named an agent id are looked up directly; if any call cannot
// be placed that way, every file is listed as the full restore does.

import { readdir } from "node:fs/promises";
import type { AgentCall } from "./agentCall.js";
import type { HistoryProblem } from "./problems.js";
import { findSidechainFiles, type SidechainFile } from "./sidechains.js";
import { insideProject, readMeta } from "./subagentFolder.js";

export async function windowSidechainFiles(
  projectDir: string,
  sessionId: string,
  calls: ReadonlyMap<string, AgentCall>,
  problems?: HistoryProblem[],
): Promise<SidechainFile[]> {
  if (calls.size === 0) return [];
  const where = [sessionId, "subagents"];
  // Every path is checked to stay in the project folder (containedPath.ts); any doubt: the full listing decides.
  const subDir = await insideProject(projectDir, where, "the subagents folder");
  if (subDir === undefined) return findSidechainFiles(projectDir, sessionId, problems);
  let names: Set<string>;
  try {
    names = new Set(await readdir(subDir));
  } catch {
    names = new Set();
  }
  const files: SidechainFile[] = [];
  for (const call of calls.values()) {
    const name = call.agentId === undefined ? undefined : `agent-${call.agentId}.jsonl`;
    // No agent id (an interrupted call, an old layout): only the full linking can place its file.
    if (name === undefined || !names.has(name)) return findSidechainFiles(projectDir, sessionId, problems);
    const file = await insideProject(projectDir, [...where, name], "a subagent's transcript");
    if (file === undefined) return findSidechainFiles(projectDir, sessionId, problems);
    const metaPath = await insideProject(projectDir, [...where, `agent-${call.agentId}.meta.json`], "a subagent's meta.json");
    const meta = metaPath === undefined ? undefined : await readMeta(metaPath);
    // A meta naming another call means this file is not simply this call's: let the full linking decide.
    if (meta?.toolUseId !== undefined && meta.toolUseId !== call.toolUseId) return findSidechainFiles(projectDir, sessionId, problems);
    files.push({ agentId: call.agentId!, path: file, layout: "subagents", ...(meta !== undefined ? { meta } : {}) });
  }
  return files;
}

// A session's subagents folder, `<project>/<session>/subagents/`: its names, each subagent's
// `agent-<id>.meta.json`, and the rule that nothing is read through a link leading out of the
// project folder. Shared by the linker (sidechains.ts), forks (forkCards.ts), side questions
// (sideQuestions.ts) and the first screen (firstScreenSidechains.ts).

import { readdir } from "node:fs/promises";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { isObject, num, str } from "../../shared/jsonFields.js";
import { containedPath } from "../platform/containedPath.js";
import { readRegularFileText } from "../platform/regularFile.js";
import { refusedPath, type HistoryProblem } from "./problems.js";

export interface SidechainMeta {
  readonly agentType?: string;
  readonly description?: string;
  readonly toolUseId?: string;
  readonly spawnDepth?: number;
  readonly stoppedByUser?: boolean;
  /** A `/subtask` fork: a subagent no Agent call started (forkCards.ts). */
  readonly isFork?: boolean;
  /** A fork's name (`/subtask <name>`). */
  readonly name?: string;
}

/** Compaction requests (`agent-acompact-*`) are side requests, never subagents. */
export function isCompactionAgent(agentId: string): boolean {
  return agentId.startsWith("acompact");
}

/**
 * The real path of `projectDir/...names` when it lies inside the project folder; a link leading
 * out is refused with a notice in `problems` (containedPath.ts), and nothing is read there.
 */
export async function insideProject(projectDir: string, names: readonly string[], what: string, problems?: HistoryProblem[]): Promise<string | undefined> {
  const checked = await containedPath(projectDir, ...names);
  if (checked.kind === "inside") return checked.real;
  if (checked.kind === "outside") problems?.push(refusedPath(checked.path, what, checked.reason));
  return undefined;
}

/** The names in a session's `subagents` folder, sorted; none when it is missing or leads outside. */
export async function subagentsFolder(projectDir: string, sessionId: string): Promise<{ readonly where: readonly string[]; readonly names: readonly string[] }> {
  const where = [sessionId, "subagents"];
  const dir = await insideProject(projectDir, where, "the subagents folder");
  return { where, names: dir === undefined ? [] : (await listDir(dir)).sort() };
}

/** A folder's names; none when it cannot be read. */
export async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/** Reads an `agent-<id>.meta.json`; undefined when it is missing or not an object. */
export async function readMeta(metaPath: string): Promise<SidechainMeta | undefined> {
  let text: string;
  try {
    text = await readRegularFileText(metaPath);
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value as never)) return undefined;
  const o = value as JsonObject;
  const agentType = str(o, "agentType");
  const description = str(o, "description");
  const toolUseId = str(o, "toolUseId");
  const spawnDepth = num(o, "spawnDepth");
  const name = str(o, "name");
  return {
    ...(agentType !== undefined ? { agentType } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(toolUseId !== undefined ? { toolUseId } : {}),
    ...(spawnDepth !== undefined ? { spawnDepth } : {}),
    ...(o["stoppedByUser"] === true ? { stoppedByUser: true } : {}),
    ...(o["isFork"] === true ? { isFork: true } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}

// `agent-<id>.meta.json` beside a sidechain: type, description, the spawning
// tool_use id, depth and whether the user stopped it. Missing or damaged meta gives nulls. A
// Workflow's agent has no description there: its label comes from the run's record.
import fs from "node:fs";
import path from "node:path";
import { recordedAgents, runRecordPath } from "../history/index.js";
import type { Json } from "../../shared/protocol/messages.js";
import { readRegularFileTextSync } from "../platform/regularFile.js";
import { staysInsideDir } from "../platform/containedPath.js";

export interface SubagentMeta {
  readonly agentId: string;
  readonly toolUseId: string | null;
  readonly agentType: string | null;
  readonly description: string | null;
  readonly spawnDepth: number | null;
  readonly stopped: number;
}

export function readSubagentMeta(sidechainPath: string, agentId: string): SubagentMeta {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readRegularFileTextSync(sidechainPath.replace(/\.jsonl$/, ".meta.json")));
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) raw = parsed as Record<string, unknown>;
  } catch {
    // No meta: the agent is still listed, with what its sidechain says.
  }
  const s = (k: string): string | null => (typeof raw[k] === "string" ? (raw[k] as string) : null);
  return {
    agentId,
    toolUseId: s("toolUseId"),
    agentType: s("agentType"),
    // A `/subtask` fork (`isFork`) has a name, no description.
    description: s("description") ?? (raw["isFork"] === true ? s("name") : null) ?? workflowLabel(sidechainPath, agentId),
    spawnDepth: typeof raw["spawnDepth"] === "number" ? raw["spawnDepth"] : null,
    stopped: raw["stoppedByUser"] === true ? 1 : 0,
  };
}

/** `<session>/subagents/workflows/<runId>/agent-<id>.jsonl`: a Workflow script's agent. */
const WorkflowAgentFile = /[\\/]subagents[\\/]workflows[\\/][^\\/]+[\\/][^\\/]+$/;

/** The labels of the runs read lately, by run folder: a run's agents are indexed one file at a time. */
const runLabels = new Map<string, { readonly mtimeMs: number; readonly labels: ReadonlyMap<string, string> }>();
const RunLabelsKept = 8;

/**
 * The label a Workflow script gave its agent (`agent(prompt, { label })`), from the run's record
 * (workflowRuns.ts); null when there is none (yet: it is written when the run ends).
 */
function workflowLabel(sidechainPath: string, agentId: string): string | null {
  if (!WorkflowAgentFile.test(sidechainPath)) return null;
  const runDir = path.dirname(sidechainPath);
  const file = runRecordPath(runDir);
  // The record must really lie in the run's session folder: a linked `workflows` folder must not
  // feed the index labels from elsewhere (containedPath.ts).
  if (!staysInsideDir(file, path.resolve(runDir, "..", "..", ".."))) return null;
  const mtimeMs = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  if (mtimeMs === undefined) return null;
  let cached = runLabels.get(runDir);
  if (cached?.mtimeMs !== mtimeMs) {
    let record: Json | undefined;
    try {
      record = JSON.parse(readRegularFileTextSync(file)) as Json;
    } catch {
      record = undefined;
    }
    const labels = new Map(recordedAgents(record).flatMap((a) => (a.label === undefined ? [] : [[a.agentId, a.label] as const])));
    cached = { mtimeMs, labels };
    runLabels.delete(runDir);
    runLabels.set(runDir, cached);
    if (runLabels.size > RunLabelsKept) runLabels.delete(runLabels.keys().next().value as string);
  }
  return cached.labels.get(agentId) ?? null;
}

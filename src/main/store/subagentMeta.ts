// `agent-<id>.meta.json` beside a sidechain (PROTOCOL.md 6.3): type, description, the spawning
// tool_use id, depth and whether the user stopped it. Missing or damaged meta gives nulls. A
// Workflow's agent has no description there: its label comes from the run's record.
import fs from "node:fs";

export interface SubagentMeta {
  readonly sessionId: string;
  readonly agentId: string;
  readonly toolUseId: string | null;
  readonly agentType: string | null;
  readonly description: string | null;
  readonly spawnDepth: number | null;
  readonly stopped: number;
}

export function readSubagentMeta(sidechainPath: string, sessionId: string, agentId: string): SubagentMeta {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(sidechainPath.replace(/\.jsonl$/, ".meta.json"), "utf8"));
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) raw = parsed as Record<string, unknown>;
  } catch {
    // No meta: the agent is still listed, with what its sidechain says.
  }
  const s = (k: string): string | null => (typeof raw[k] === "string" ? (raw[k] as string) : null);
  return {
    sessionId,
    agentId,
    toolUseId: s("toolUseId"),
    agentType: s("agentType"),
    description: s("description") ?? workflowLabel(sidechainPath, agentId),
    spawnDepth: typeof raw["spawnDepth"] === "number" ? raw["spawnDepth"] : null,
    stopped: raw["stoppedByUser"] === true ? 1 : 0,
  };
}

/** `<session>/subagents/workflows/<runId>/agent-<id>.jsonl`: a Workflow script's agent. */
const WorkflowAgentPath = /^(.*)[\\/]subagents[\\/]workflows[\\/]([^\\/]+)[\\/][^\\/]+$/;

/**
 * The label a Workflow script gave its agent (`agent(prompt, { label })`), from the run's record
 * `<session>/workflows/<runId>.json` (its `workflowProgress`); null when there is none.
 */
function workflowLabel(sidechainPath: string, agentId: string): string | null {
  const match = WorkflowAgentPath.exec(sidechainPath);
  if (match === null) return null;
  try {
    const run: unknown = JSON.parse(fs.readFileSync(`${match[1]}/workflows/${match[2]}.json`, "utf8"));
    const progress = (run as { workflowProgress?: unknown }).workflowProgress;
    if (!Array.isArray(progress)) return null;
    const entry = progress.find((p: { type?: unknown; agentId?: unknown }) => p?.type === "workflow_agent" && p.agentId === agentId) as { label?: unknown } | undefined;
    return typeof entry?.label === "string" ? entry.label : null;
  } catch {
    return null;
  }
}

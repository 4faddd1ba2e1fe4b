// `agent-<id>.meta.json` beside a sidechain (PROTOCOL.md 6.3): type, description, the spawning
// tool_use id, depth and whether the user stopped it. Missing or damaged meta gives nulls.
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
    description: s("description"),
    spawnDepth: typeof raw["spawnDepth"] === "number" ? raw["spawnDepth"] : null,
    stopped: raw["stoppedByUser"] === true ? 1 : 0,
  };
}

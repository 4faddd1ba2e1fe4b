// Small display helpers shared by cards and panels.

import type { Json, JsonObject } from "../../shared/protocol/messages.js";
import type { ToolCallStatus, SubagentStatus } from "../../shared/transcript.js";

export { shortPath, toolSummary } from "../../shared/toolSummary.js";

export function str(value: Json | undefined): string {
  return typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value);
}

export function field(input: JsonObject | undefined, key: string): string {
  return str(input?.[key]);
}

export function formatTokens(n: number | undefined): string {
  if (n === undefined) return "–";
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return "";
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(s < 10 ? 1 : 0)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(s % 60).padStart(2, "0")}s`;
}

/** A cost the CLI reported; one nobody reported is unknown, never "$0.00" (panels/SessionFigures.tsx). */
export function formatCost(usd: number): string {
  return `$${usd.toFixed(usd < 1 ? 3 : 2)}`;
}

export function elapsedMs(startedAt: string | undefined, endedAt: string | undefined, now: number): number | undefined {
  if (startedAt === undefined) return undefined;
  const start = Date.parse(startedAt);
  const end = endedAt !== undefined ? Date.parse(endedAt) : now;
  return Number.isFinite(start) && Number.isFinite(end) ? end - start : undefined;
}

const ToolIcons: Record<ToolCallStatus, string> = {
  pending: "○",
  running: "◌",
  completed: "✓",
  failed: "✗",
  denied: "⊘",
  stopped: "■",
};

export function toolIcon(status: ToolCallStatus): string {
  return ToolIcons[status];
}

const SubagentIcons: Record<SubagentStatus, string> = { running: "◌", completed: "✓", failed: "✗", stopped: "■" };

export function subagentIcon(status: SubagentStatus): string {
  return SubagentIcons[status];
}

/** `mcp__server__tool` → { server, tool }. */
export function mcpName(name: string): { server: string; tool: string } | undefined {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m === null ? undefined : { server: m[1]!, tool: m[2]! };
}


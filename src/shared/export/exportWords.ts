// The words both export formats use for the same things: the session's facts, what was left out,
// a tool's status mark, a subagent section's heading.

import type { SubagentStatus, ToolCallStatus } from "../transcript.js";
import type { ExportAgent, ExportHead } from "./exportDocument.js";

const ToolMarks: Readonly<Record<ToolCallStatus, string>> = { pending: "○", running: "◌", completed: "✓", failed: "✗", denied: "⊘", stopped: "■" };
const AgentMarks: Readonly<Record<SubagentStatus, string>> = { running: "◌", completed: "✓", failed: "✗", stopped: "■" };

export function toolMark(status: ToolCallStatus): string {
  return ToolMarks[status];
}

/** The session's facts as name and value, in the order shown. */
export function headFacts(h: ExportHead): readonly (readonly [string, string])[] {
  const facts: [string, string][] = [["Session", h.sessionId]];
  if (h.cwd !== undefined) facts.push(["Folder", h.cwd]);
  if (h.model !== undefined && h.model !== "") facts.push(["Model", h.model]);
  // The fork's file holds copies of the turns before the prompt and names the origin nowhere.
  if (h.forkedFrom !== undefined) facts.push(["Forked from", `${h.forkedFrom.sessionId} at prompt ${h.forkedFrom.promptUuid}`]);
  if (h.from !== undefined) {
    const [from, to] = [when(h.from), h.to !== undefined ? when(h.to) : undefined];
    facts.push(["Time", to !== undefined && to !== from ? `${from} – ${to}` : from]);
  }
  return facts;
}

/** "2026-11-30 02:23 UTC" from an ISO time (as written when it is not one). */
function when(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m === null ? iso : `${m[1]} ${m[2]}${iso.endsWith("Z") ? " UTC" : ""}`;
}

/** What the person chose to leave out, or undefined when nothing was. */
export function leftOutNote(h: ExportHead): string | undefined {
  const out = [h.toolOutputsLeftOut ? "tool outputs" : undefined, h.thinkingLeftOut ? "thinking" : undefined].filter((x) => x !== undefined);
  if (out.length === 0) return undefined;
  return `Left out of this export: ${out.join(" and ")}.`;
}

/** A subagent section's heading: "✓ Subagent Explore: Find the tests (completed, 3 tool uses, 12.0 s)". */
export function agentSummary(a: ExportAgent): string {
  const facts = [a.status, ...a.facts].join(", ");
  return `${AgentMarks[a.status]} Subagent ${a.agentType}: ${a.description} (${facts})`;
}

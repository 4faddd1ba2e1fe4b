// A readable text tree of a transcript for `baton replay`: the conductor's blocks, subagent cards
// indented under their Agent call with status icons, nested tool calls with their status.

import type { Block, SubagentRecord, SubagentStatus, ToolCallRecord, ToolCallStatus, Transcript } from "../../shared/transcript.js";
import { toolSummary } from "../../shared/toolSummary.js";
import { rewoundMarkText } from "../../shared/fileRewind.js";

const SubagentIcon: Record<SubagentStatus, string> = { running: "⟳", completed: "✓", failed: "✗", stopped: "■" };
const ToolIcon: Record<ToolCallStatus, string> = {
  pending: "?",
  running: "⟳",
  completed: "✓",
  failed: "✗",
  denied: "⊘",
  stopped: "■",
};
const LineWidth = 110;

export function renderTranscriptTree(t: Transcript): string {
  const head = [`session ${t.sessionId || "(unknown)"}`, t.status];
  if (t.model !== undefined) head.push(t.model);
  if (t.permissionMode !== undefined) head.push(`mode ${t.permissionMode}`);
  if (t.costUsd !== undefined) head.push(`$${t.costUsd.toFixed(4)}`);
  const lines = [`conductor · ${head.join(" · ")}`];
  if (t.title !== undefined) lines.push(`  title: ${t.title}`);
  const names = agentNames(t.blocks, new Map());
  for (const block of t.blocks) renderBlock(block, "  ", lines, names);
  return `${lines.join("\n")}\n`;
}

/** Agent (task) id → the description of its subagent, at any depth: what a SendMessage names. */
function agentNames(blocks: readonly Block[], names: Map<string, string>): ReadonlyMap<string, string> {
  for (const b of blocks) {
    const record = b.call?.subagent;
    if (record === undefined) continue;
    if (record.taskId !== "" && record.description !== "") names.set(record.taskId, record.description);
    agentNames(record.blocks, names);
  }
  return names;
}

function renderBlock(block: Block, indent: string, out: string[], names: ReadonlyMap<string, string>): void {
  switch (block.kind) {
    case "user":
      out.push(`${indent}» ${oneLine(block.text)}`);
      if (block.rewound !== undefined) out.push(`${indent}  (${rewoundMarkText(block.rewound.files)})`);
      return;
    case "text":
      out.push(`${indent}${block.streaming === true ? "… " : ""}${oneLine(block.text)}`);
      return;
    case "thinking":
      out.push(`${indent}(thinking) ${oneLine(block.text)}`);
      return;
    case "notice":
      out.push(`${indent}[${block.level ?? "info"}] ${oneLine(block.text)}`);
      return;
    case "tool":
      if (block.call !== undefined) renderCall(block.call, indent, out, names);
      return;
  }
}

function renderCall(call: ToolCallRecord, indent: string, out: string[], names: ReadonlyMap<string, string>): void {
  const record = call.subagent;
  if (record !== undefined) return renderSubagent(call, record, indent, out, names);
  const permission = call.permission === undefined ? "" : ` [permission ${call.permission.state}${by(call.permission.decidedBy)}]`;
  out.push(`${indent}${ToolIcon[call.status]} ${call.name || "(unknown tool)"} ${oneLine(describeInput(call, names))} (${call.status})${permission}`);
  if (call.result?.isError === true) out.push(`${indent}    ↳ ${oneLine(call.result.text)}`);
}

function renderSubagent(call: ToolCallRecord, r: SubagentRecord, indent: string, out: string[], names: ReadonlyMap<string, string>): void {
  const facts: string[] = [r.status];
  if (r.background) facts.push("background");
  if (r.toolUses !== undefined) facts.push(`${r.toolUses} tool uses`);
  if (r.totalTokens !== undefined) facts.push(`${r.totalTokens} tokens`);
  if (r.durationMs !== undefined) facts.push(`${(r.durationMs / 1000).toFixed(1)} s`);
  if (r.model !== undefined) facts.push(r.model);
  const type = r.subagentType || call.name;
  out.push(`${indent}${SubagentIcon[r.status]} ${type} "${r.description}" (${facts.join(", ")})${r.taskId ? ` [${r.taskId}]` : ""}`);
  const inner = `${indent}    `;
  if (r.status === "running" && r.progressLine !== undefined) out.push(`${inner}now: ${oneLine(r.progressLine)}`);
  if (r.droppedBlockCount > 0) out.push(`${inner}(${r.droppedBlockCount} earlier steps not shown)`);
  for (const block of r.blocks) renderBlock(block, inner, out, names);
  for (const p of r.permissionHistory ?? []) {
    if (!r.blocks.some((b) => b.id === p.toolUseId)) out.push(`${inner}permission ${p.toolName} ${p.toolUseId}: ${p.state}${by(p.decidedBy)}`);
  }
  if (r.summaryMarkdown !== undefined) out.push(`${inner}summary: ${oneLine(r.summaryMarkdown)}`);
}

function describeInput(call: ToolCallRecord, names: ReadonlyMap<string, string>): string {
  const input = call.input;
  const summary = toolSummary(call.name, input, { fullPaths: true, agentName: (id) => names.get(id) });
  if (summary !== "") return summary;
  for (const key of ["command", "file_path", "pattern", "url", "description", "plan"]) {
    const value = input[key];
    if (typeof value === "string") return value;
  }
  return JSON.stringify(input);
}

function by(decidedBy: string | undefined): string {
  return decidedBy === undefined ? "" : ` by ${decidedBy}`;
}

function oneLine(text: string | undefined): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  return flat.length <= LineWidth ? flat : `${flat.slice(0, LineWidth - 1)}…`;
}

// A restored session as an export shows it, before any format: the prompts, answers, thinking,
// notices, tool calls with their inputs and outputs, and each subagent as a section holding its
// own steps, at every depth. What the person chose to leave out is left out here; the person's
// home folder is written as `~` in every text. Plain data; markdownExport.ts and htmlExport.ts
// write it. Text stays text: escaping is the writers'.

import type { ForkLink } from "../api.js";
import type { Json, JsonObject } from "../protocol/messages.js";
import { toolSummary } from "../toolSummary.js";
import { toolResultText } from "../toolErrorText.js";
import { withoutAgentTrailer } from "../agentTrailer.js";
import { resultPatchOf } from "../diff/toolResultPatch.js";
import { rewoundMarkText } from "../fileRewind.js";
import type { Block, SubagentRecord, SubagentStatus, ToolCallRecord, ToolCallStatus, Transcript } from "../transcript.js";
import { tildeHome } from "./homePath.js";

export interface ExportHead {
  readonly title: string;
  readonly sessionId: string;
  readonly cwd?: string;
  readonly model?: string;
  /** A fork Baton made (issue 37): the session it continues and the prompt it was made at. */
  readonly forkedFrom?: ForkLink;
  /** The first and last times the transcript's blocks carry (ISO). */
  readonly from?: string;
  readonly to?: string;
  readonly toolOutputsLeftOut: boolean;
  readonly thinkingLeftOut: boolean;
}

/** A tool's input as shown: a shell command, a diff, or the input as JSON. */
export interface ExportCode {
  readonly language: "sh" | "diff" | "json" | "text";
  readonly text: string;
}

export type ExportItem =
  | {
      readonly kind: "prompt";
      readonly text: string;
      readonly images: number;
      readonly time?: string;
      /** "Files rewound to here: 2 files": the files were rewound to just before this prompt (issue 37). */
      readonly rewound?: string;
    }
  | { readonly kind: "answer"; readonly text: string }
  | { readonly kind: "thinking"; readonly text: string }
  | { readonly kind: "notice"; readonly level: "info" | "warning" | "error"; readonly text: string }
  | ExportTool
  | ExportAgent;

export interface ExportTool {
  readonly kind: "tool";
  readonly name: string;
  readonly summary: string;
  readonly status: ToolCallStatus;
  readonly input: ExportCode;
  /** Absent when outputs are left out, or the call has none yet. */
  readonly output?: { readonly text: string; readonly isError: boolean };
  /** "allowed by person", "denied by policy", …: how its permission was decided, when it was asked. */
  readonly permission?: string;
}

export interface ExportAgent {
  readonly kind: "agent";
  /** 1 for the conductor's own subagents, 2 for theirs, … */
  readonly depth: number;
  readonly agentType: string;
  readonly description: string;
  readonly status: SubagentStatus;
  /** "background", "12 tool uses", "34.5 s", the model: what the card says of the run. */
  readonly facts: readonly string[];
  readonly prompt: string;
  readonly items: readonly ExportItem[];
  /** Its report back to the agent that called it, when no answer of its own says the same. */
  readonly report?: string;
  /** Steps the transcript no longer holds (the file was cut, or a live card's cap). */
  readonly stepsMissing: number;
}

export interface ExportDocument {
  readonly head: ExportHead;
  readonly items: readonly ExportItem[];
}

export interface DocumentOptions {
  readonly title: string;
  readonly toolOutputs: boolean;
  readonly thinking: boolean;
  /** The person's home folder, written as `~`. */
  readonly home?: string;
  readonly forkedFrom?: ForkLink;
}

export function exportDocument(transcript: Transcript, options: DocumentOptions): ExportDocument {
  const home = (text: string): string => tildeHome(text, options.home);
  const times = blockTimes(transcript.blocks);
  const head: ExportHead = {
    title: home(options.title),
    sessionId: transcript.sessionId,
    ...(transcript.cwd !== undefined ? { cwd: home(transcript.cwd) } : {}),
    ...(transcript.model !== undefined ? { model: transcript.model } : {}),
    ...(options.forkedFrom !== undefined ? { forkedFrom: options.forkedFrom } : {}),
    ...(times.from !== undefined ? { from: times.from } : {}),
    ...(times.to !== undefined ? { to: times.to } : {}),
    toolOutputsLeftOut: !options.toolOutputs,
    thinkingLeftOut: !options.thinking,
  };
  return { head, items: itemsOf(transcript.blocks, { ...options, home }, 1) };
}

interface Walk {
  readonly toolOutputs: boolean;
  readonly thinking: boolean;
  readonly home: (text: string) => string;
}

function itemsOf(blocks: readonly Block[], walk: Walk, depth: number): ExportItem[] {
  const items: ExportItem[] = [];
  for (const block of blocks) {
    const item = itemOf(block, walk, depth);
    if (item !== undefined) items.push(item);
  }
  return items;
}

function itemOf(block: Block, walk: Walk, depth: number): ExportItem | undefined {
  const { home } = walk;
  switch (block.kind) {
    case "user":
      return {
        kind: "prompt",
        text: home(block.text ?? ""),
        images: block.images?.length ?? 0,
        ...(block.timestamp !== undefined ? { time: block.timestamp } : {}),
        ...(block.rewound !== undefined ? { rewound: rewoundMarkText(block.rewound.files) } : {}),
      };
    case "text":
      return block.text === undefined || block.text.trim() === "" ? undefined : { kind: "answer", text: home(block.text) };
    case "thinking":
      // Redacted thinking has no text to show.
      return walk.thinking && block.text !== undefined && block.text.trim() !== "" ? { kind: "thinking", text: home(block.text) } : undefined;
    case "notice":
      return { kind: "notice", level: block.level ?? "info", text: home(block.text ?? "") };
    case "tool": {
      const call = block.call;
      if (call === undefined) return undefined;
      return call.subagent !== undefined ? agentOf(call, call.subagent, walk, depth) : toolOf(call, walk);
    }
  }
}

function toolOf(call: ToolCallRecord, walk: Walk): ExportTool {
  const { home } = walk;
  const result = call.result;
  const permission = call.permission;
  return {
    kind: "tool",
    name: call.name || "(unknown tool)",
    summary: home(toolSummary(call.name, call.input, { fullPaths: true })),
    status: call.status,
    input: inputOf(call, home),
    ...(walk.toolOutputs && result !== undefined ? { output: { text: home(toolResultText(result.text, result.isError)), isError: result.isError } } : {}),
    ...(permission !== undefined && permission.state !== "asked"
      ? { permission: `${permission.state}${permission.decidedBy !== undefined ? ` by ${permission.decidedBy}` : ""}` }
      : {}),
  };
}

function agentOf(call: ToolCallRecord, record: SubagentRecord, walk: Walk, depth: number): ExportAgent {
  const { home } = walk;
  const items = itemsOf(record.blocks, walk, depth + 1);
  const report = record.summaryMarkdown !== undefined ? withoutAgentTrailer(record.summaryMarkdown).trim() : "";
  const lastAnswer = [...items].reverse().find((i) => i.kind === "answer");
  const facts: string[] = [];
  if (record.background) facts.push("background");
  if (record.toolUses !== undefined) facts.push(record.toolUses === 1 ? "1 tool use" : `${record.toolUses} tool uses`);
  if (record.totalTokens !== undefined) facts.push(`${record.totalTokens} tokens`);
  if (record.durationMs !== undefined) facts.push(`${(record.durationMs / 1000).toFixed(1)} s`);
  if (record.model !== undefined) facts.push(record.model);
  if (record.error !== undefined) facts.push(home(record.error));
  return {
    kind: "agent",
    depth,
    agentType: record.subagentType || call.name,
    description: home(record.description),
    status: record.status,
    facts,
    prompt: home(record.prompt),
    items,
    ...(report !== "" && (lastAnswer?.kind !== "answer" || lastAnswer.text.trim() !== home(report)) ? { report: home(report) } : {}),
    stepsMissing: record.droppedBlockCount,
  };
}

/** A Bash call's command, an edit's diff (the CLI's own patch, else its texts), else the input as JSON. */
function inputOf(call: ToolCallRecord, home: (text: string) => string): ExportCode {
  const input = call.input;
  if (call.name === "Bash" && typeof input["command"] === "string") return { language: "sh", text: home(input["command"]) };
  const diff = editDiff(call);
  if (diff !== undefined) return { language: "diff", text: home(diff) };
  return { language: "json", text: JSON.stringify(homeInJson(input, home), null, 2) };
}

/**
 * Edit, MultiEdit and Write as a unified diff: the CLI's structured patch when the result has one
 * (the main agent's calls), else the texts the call replaced and wrote (a subagent's results carry
 * no patch, and the file as it was is not in the transcript), else a Write's whole new file.
 */
function editDiff(call: ToolCallRecord): string | undefined {
  const input = call.input;
  const file = typeof input["file_path"] === "string" ? input["file_path"] : "";
  const header = `--- ${file}\n+++ ${file}\n`;
  const hunks = resultPatchOf(call.result?.structured)?.hunks;
  if ((call.name === "Edit" || call.name === "MultiEdit" || call.name === "Write") && hunks !== undefined && hunks.length > 0) {
    const body = hunks.map((h) => `@@ -${h.oldStart} +${h.newStart} @@\n${h.lines.join("\n")}`).join("\n");
    return `${header}${body}`;
  }
  if (call.name === "Edit") return `${header}${snippet(str(input["old_string"]), str(input["new_string"]))}`;
  if (call.name === "MultiEdit" && Array.isArray(input["edits"])) {
    const edits = (input["edits"] as readonly Json[]).filter((e): e is JsonObject => typeof e === "object" && e !== null && !Array.isArray(e));
    return `${header}${edits.map((e) => snippet(str(e["old_string"]), str(e["new_string"]))).join("\n")}`;
  }
  if (call.name === "Write" && typeof input["content"] === "string") return `--- /dev/null\n+++ ${file}\n${snippet("", input["content"])}`;
  return undefined;
}

function snippet(before: string, after: string): string {
  const lines = (text: string, mark: string): string[] => (text === "" ? [] : text.replace(/\n$/, "").split("\n").map((l) => `${mark}${l}`));
  return ["@@", ...lines(before, "-"), ...lines(after, "+")].join("\n");
}

function str(value: Json | undefined): string {
  return typeof value === "string" ? value : "";
}

function homeInJson(value: Json, home: (text: string) => string): Json {
  if (typeof value === "string") return home(value);
  if (Array.isArray(value)) return value.map((v) => homeInJson(v, home));
  // fromEntries defines each key as data (a `__proto__` key from the file stays a key).
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, homeInJson(v, home)]));
  return value;
}

function blockTimes(blocks: readonly Block[]): { from?: string; to?: string } {
  let from: string | undefined;
  let to: string | undefined;
  for (const block of blocks) {
    const at = block.timestamp;
    if (at === undefined) continue;
    if (from === undefined || at < from) from = at;
    if (to === undefined || at > to) to = at;
  }
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

// What the index keeps from one transcript line: searchable text rows, per-file facts (times,
// prompt count, titles, cwd, branch) and subagent bookkeeping. Every text is kept whole, however
// long (textPieces.ts cuts long ones into pieces for the index); a session's titles are rows too,
// and so is its project folder's name. Lines are turned into ClientEvents
// by the history reader's event stream (src/main/history/eventStream.ts, each line alone: the index
// resumes a file from a stored offset), so search sees what a restore shows.
import { toolResultText } from "../../shared/toolErrorText.js";
import { withoutAgentTrailer } from "../../shared/agentTrailer.js";
import { userTextKind } from "../../shared/commandEcho.js";
import { FirstPrompt } from "../../shared/sessionTitle.js";
import type { ClientEvent } from "../../shared/events.js";
import path from "node:path";
import type { Json, JsonObject } from "../../shared/protocol/messages.js";
import type { LineEvents } from "../history/index.js";

/**
 * What a row holds; its position here is its code in the index (rowPlaces.ts): append only, at
 * most eight. A title is a `custom-title`, `ai-title` or `summary` line's; a project row is the
 * name of a session's project folder (no line holds it).
 */
export const ROW_KINDS = ["prompt", "text", "thinking", "tool_input", "tool_output", "title", "project"] as const;
export type RowKind = (typeof ROW_KINDS)[number];

const TITLE_CHARS = 200;
/** Lines that name their session, and the field that holds the name. */
const TITLE_FIELDS: Readonly<Record<string, string>> = { "custom-title": "customTitle", "ai-title": "aiTitle", summary: "summary" };
const SPAWN_TOOLS = new Set(["Agent", "Task"]);

export interface TextRow {
  readonly text: string;
  readonly kind: RowKind;
  readonly time: string | null;
  /** The line's number in its file, and the event of that line the row comes from. */
  readonly line: number;
  readonly event: number;
  /** Byte offset of the row's line in its file: where its text is read back from (rowText.ts). */
  readonly offset: number;
}

/** `<line>#<event>`: where in its file a row comes from (what search hits name). */
export function refOf(row: { readonly line: number; readonly event: number }): string {
  return `${row.line}#${row.event}`;
}

/** Facts accumulated over a file; persisted with its indexed offset. */
export interface FileFacts {
  firstTime: string | null;
  lastTime: string | null;
  promptCount: number;
  cwd: string | null;
  gitBranch: string | null;
  customTitle: string | null;
  aiTitle: string | null;
  firstPrompt: string | null;
}

export interface SpawnSeen {
  readonly toolUseId: string;
}
export interface SpawnResult {
  readonly toolUseId: string;
  readonly status: string;
}
export interface Notified {
  readonly agentId: string;
  readonly status: string;
}

/** Everything one batch of lines produced; flushed to SQLite in one transaction. */
export interface Extracted<Rows = TextRow[]> {
  rows: Rows;
  spawns: SpawnSeen[];
  results: SpawnResult[];
  notified: Notified[];
}

export function emptyExtracted(): Extracted {
  return { rows: [], spawns: [], results: [], notified: [] };
}

/**
 * Adds what one line holds to `out`, its events read through `lines` (the file's stream: each line
 * alone). Returns whether it held values nested too deeply to keep (cut to a stand-in by the
 * history reader, so the rest of the line is still indexed).
 */
export function extractLine(
  lines: LineEvents,
  line: JsonObject,
  lineNumber: number,
  offset: number,
  isMain: boolean,
  facts: FileFacts,
  out: Extracted,
): boolean {
  const time = typeof line["timestamp"] === "string" ? line["timestamp"] : null;
  const titleField = TITLE_FIELDS[String(line["type"])];
  const title = titleField === undefined ? undefined : line[titleField];
  // The CLI writes the same title again and again: a row for each change of it.
  if (typeof title === "string" && title !== facts.customTitle && title !== facts.aiTitle) {
    push(out, title, "title", time, { line: lineNumber, event: 0, offset });
  }
  noteEnvelope(line, facts);
  const deepBefore = lines.tooDeepLines;
  const events = lines.line(line);
  for (let i = 0; i < events.length; i++) {
    extractEvent(events[i]!, { line: lineNumber, event: i, offset }, time, isMain, facts, out);
  }
  return lines.tooDeepLines > deepBefore;
}

/** Where a row comes from: its line (number and byte offset) and event. */
interface Place {
  readonly line: number;
  readonly event: number;
  readonly offset: number;
}

function noteEnvelope(line: JsonObject, facts: FileFacts): void {
  const type = line["type"];
  if (type === "custom-title" && typeof line["customTitle"] === "string") facts.customTitle = line["customTitle"];
  if (type === "ai-title" && typeof line["aiTitle"] === "string") facts.aiTitle = line["aiTitle"];
  const ts = line["timestamp"];
  if (typeof ts === "string") {
    if (facts.firstTime === null || ts < facts.firstTime) facts.firstTime = ts;
    if (facts.lastTime === null || ts > facts.lastTime) facts.lastTime = ts;
  }
  if (typeof line["cwd"] === "string" && facts.cwd === null) facts.cwd = line["cwd"];
  if (typeof line["gitBranch"] === "string") facts.gitBranch = line["gitBranch"];
}

function extractEvent(
  event: ClientEvent,
  at: Place,
  lineTime: string | null,
  isMain: boolean,
  facts: FileFacts,
  out: Extracted,
): void {
  switch (event.kind) {
    case "user_prompt": {
      const time = event.timestamp ?? lineTime;
      push(out, event.text, "prompt", time, at);
      if (isMain && event.isMeta !== true) {
        // As in the session list (diskMapper.ts): a command's output is no prompt, and the first
        // real prompt names the session (sessionTitle.ts).
        if (userTextKind(event.text) !== "output") facts.promptCount++;
        const first = firstPromptOf(facts);
        first.note(event.text);
        const value = first.value === undefined ? "" : oneLine(first.value);
        facts.firstPrompt = value === "" ? null : value.slice(0, TITLE_CHARS);
      }
      return;
    }
    case "assistant_block":
      extractBlock(event.block as unknown as JsonObject, at, event.timestamp ?? lineTime, out);
      return;
    case "tool_result":
      // A refused or failed call's message as the window shows it, without the CLI's <tool_use_error> tags.
      push(out, toolResultText(withoutAgentTrailer(event.text), event.isError === true), "tool_output", event.timestamp ?? lineTime, at);
      if (event.toolUseId !== "") out.results.push({ toolUseId: event.toolUseId, status: resultStatus(event) });
      return;
    case "task_notification":
      out.notified.push({ agentId: event.taskId, status: event.status });
      return;
    default:
      return;
  }
}

function extractBlock(block: JsonObject, at: Place, time: string | null, out: Extracted): void {
  const type = block["type"];
  if (type === "text" && typeof block["text"] === "string") {
    push(out, block["text"], "text", time, at);
  } else if (type === "thinking" && typeof block["thinking"] === "string") {
    push(out, block["thinking"], "thinking", time, at);
  } else if (type === "tool_use" || type === "server_tool_use" || type === "mcp_tool_use") {
    const name = typeof block["name"] === "string" ? block["name"] : "";
    push(out, `${name} ${flattenInput(block["input"])}`, "tool_input", time, at);
    if (SPAWN_TOOLS.has(name) && typeof block["id"] === "string") out.spawns.push({ toolUseId: block["id"] });
  }
}

/** How an Agent call ended, as far as its tool_result tells (an error, a denial or an interrupt leaves a string). */
function resultStatus(event: Extract<ClientEvent, { kind: "tool_result" }>): string {
  if (event.isError || typeof event.structured === "string") return "error";
  const s = event.structured;
  if (s !== null && typeof s === "object" && !Array.isArray(s)) {
    const status = (s as JsonObject)["status"];
    if (status === "async_launched") return "running";
    if (typeof status === "string") return status;
  }
  return "completed";
}

/** Tool input values as text (strings verbatim, the rest as JSON), not the JSON punctuation. */
function flattenInput(input: Json | undefined): string {
  if (input === null || input === undefined) return "";
  if (typeof input === "string") return input;
  if (typeof input !== "object") return String(input);
  const parts: string[] = [];
  const values = Array.isArray(input) ? input : Object.values(input as JsonObject);
  for (const v of values) parts.push(typeof v === "string" ? v : JSON.stringify(v));
  return parts.join("\n");
}

function push(out: Extracted, text: string, kind: RowKind, time: string | null, at: Place): void {
  if (text.trim() === "") return;
  out.rows.push({ text, kind, time, line: at.line, event: at.event, offset: at.offset });
}

/**
 * The row naming the project folder of the main transcript at `file` (`<projects>/<folder>/<id>.jsonl`):
 * line 0, before the file's first line, and read back from the path, not the file (rowText.ts).
 */
export function projectRow(file: string): TextRow {
  return { text: path.basename(path.dirname(file)), kind: "project", time: null, line: 0, event: 0, offset: 0 };
}

/**
 * The first-prompt picker of the file these facts are read into, for as long as they are. A file
 * resumed mid-way starts from the prompt stored with its facts, settled (a command read last
 * before the stop stays its title).
 */
const firstPrompts = new WeakMap<FileFacts, FirstPrompt>();

function firstPromptOf(facts: FileFacts): FirstPrompt {
  let first = firstPrompts.get(facts);
  if (first === undefined) {
    first = new FirstPrompt(facts.firstPrompt ?? undefined);
    firstPrompts.set(facts, first);
  }
  return first;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function emptyFacts(): FileFacts {
  return {
    firstTime: null,
    lastTime: null,
    promptCount: 0,
    cwd: null,
    gitBranch: null,
    customTitle: null,
    aiTitle: null,
    firstPrompt: null,
  };
}

// The agents of a Workflow run (CLI 2.1.197's Workflow tool: a script that runs agents in the
// background). None of their messages reach stdout, and no Agent call starts them, but the run
// leaves on disk, under the session's folder:
//   subagents/workflows/<runId>/agent-<id>.jsonl   each agent's transcript (a sidechain)
//   subagents/workflows/<runId>/journal.jsonl      {"type":"started"|"result", agentId, result?}
//   workflows/<runId>.json                         the run: `workflowProgress` lists each agent
//                                                  with its label, state, tokens and tool calls
// These become the events of one Agent call per agent under the Workflow's call (an id of its
// own, `<Workflow call id>/<agent id>`), its transcript, and its result, so the hub shows each
// agent as a card inside the Workflow's card, as for any subagent. The run's record appears when
// the run ends: a card read before then is named by its journal's label (CLI 2.1.332 writes it
// there at the start) or else by its prompt, and its result, read again at the end, gives it its label.

import fs from "node:fs/promises";
import path from "node:path";
import type { ClientEvent } from "../../shared/events.js";
import type { Json, JsonObject } from "../../shared/protocol/messages.js";
import { WorkflowAgentType } from "../../shared/transcript.js";
import { boundJsonDepth } from "../../shared/boundedJson.js";
import { isObject, num, str } from "../../shared/jsonFields.js";
import { eventStream } from "./eventStream.js";
import { readJsonl } from "./jsonlReader.js";
import { containedPath, isPlainId, quotedId } from "../platform/containedPath.js";
import { lineProblems, refusedPath, type HistoryProblem } from "./problems.js";
import { readRegularFileText } from "../platform/regularFile.js";

/** Where the run's agents keep their transcripts. */
export function workflowRunDir(sessionDir: string, runId: string): string {
  return path.join(sessionDir, "subagents", "workflows", runId);
}

/** The run's record, `<session>/workflows/<runId>.json`, written when the run ends. */
export function runRecordPath(runDir: string): string {
  return path.join(runDir, "..", "..", "..", "workflows", `${path.basename(runDir)}.json`);
}

/**
 * A run's folder as seen from its project folder (`<project>/<session>/subagents/workflows/<run>`),
 * which every file of the run must really lie inside (containedPath.ts). `dir`: its real path,
 * when it is there and inside.
 */
interface RunFolder {
  readonly root: string;
  /** `[session, "subagents", "workflows", run]`. */
  readonly names: readonly string[];
  readonly dir?: string;
  /** The folder is a link leading out of the project folder (reported once). */
  readonly refused: boolean;
}

async function runFolder(runDir: string, problems: HistoryProblem[]): Promise<RunFolder> {
  const root = path.resolve(runDir, "..", "..", "..", "..");
  const names = path.relative(root, path.resolve(runDir)).split(path.sep);
  const checked = await containedPath(root, ...names);
  if (checked.kind === "outside") problems.push(refusedPath(checked.path, "a Workflow run's folder", checked.reason));
  return { root, names, refused: checked.kind === "outside", ...(checked.kind === "inside" ? { dir: checked.real } : {}) };
}

/** The real path of one of the run's files, or undefined (missing; or refused, with a notice). */
async function runFile(run: RunFolder, names: readonly string[], what: string, problems: HistoryProblem[]): Promise<string | undefined> {
  const checked = await containedPath(run.root, ...names);
  if (checked.kind === "outside") problems.push(refusedPath(checked.path, what, checked.reason));
  return checked.kind === "inside" ? checked.real : undefined;
}

export interface RunAgent {
  readonly agentId: string;
  label?: string;
  readonly prompt?: string;
  readonly state?: string;
  readonly tokens?: number;
  readonly toolCalls?: number;
  readonly model?: string;
  result?: string;
}

/**
 * The events that put each agent of the run in `runDir` under the Workflow call `workflowCallId`,
 * in the order the run started them. A missing or damaged run record costs the labels and
 * figures, not the transcripts. `running`: the files may still grow, so a last line not yet
 * ended is left for the next read rather than reported.
 */
export async function workflowEvents(sessionId: string, workflowCallId: string, runDir: string, problems: HistoryProblem[], running = false): Promise<ClientEvent[]> {
  const run = await runFolder(runDir, problems);
  const agents = await runAgents(run, problems);
  const events: ClientEvent[] = [];
  for (const agent of agents) {
    const id = `${workflowCallId}/${agent.agentId}`;
    const name = `agent-${agent.agentId}.jsonl`;
    const file = path.join(runDir, name);
    const stream = eventStream({ kind: "sidechain", sessionId, toolUseId: id });
    const own: ClientEvent[] = [];
    // A run folder linked elsewhere was refused once (runFolder): its agents keep their cards, without steps.
    const checked = run.dir === undefined ? undefined : await containedPath(run.root, ...run.names, name);
    if (checked?.kind === "outside") problems.push(refusedPath(checked.path, "a Workflow agent's transcript", checked.reason));
    else if (checked?.kind === "inside") {
      try {
        const read = await readJsonl(checked.real, { final: !running, onRecord: ({ value }) => void own.push(...stream.line(value).map(unframedPrompt)) });
        problems.push(...lineProblems(file, read.stats, read.problems));
      } catch (error) {
        if (!(running && isMissing(error))) problems.push({ kind: "unreadable_sidechain", path: file, message: String(error) });
      }
    } else if (!running && !run.refused) {
      // Missing. A running run names an agent in its journal a moment before the agent's file is written.
      problems.push({ kind: "unreadable_sidechain", path: file, message: "its transcript file is missing" });
    }
    const prompt = agent.prompt ?? firstPrompt(own);
    // Its card waits for what names it: a card once shown keeps its first name until the run's end.
    if (running && prompt === "" && agent.label === undefined) continue;
    // The run's record (with the labels) is written when the run ends: until then, the prompt says what the agent does.
    const input: JsonObject = { description: agent.label ?? (firstLine(prompt) || agent.agentId), prompt, subagent_type: WorkflowAgentType };
    events.push({ kind: "assistant_block", messageId: id, parentToolUseId: workflowCallId, block: { type: "tool_use", id, name: "Agent", input } });
    events.push(...own);
    if (agent.result !== undefined || isFinished(agent.state)) events.push(resultEvent(workflowCallId, id, agent));
  }
  return events;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}

function isFinished(state: string | undefined): boolean {
  return state === "done" || state === "failed" || state === "error" || state === "skipped";
}

function resultEvent(workflowCallId: string, id: string, agent: RunAgent): ClientEvent {
  const failed = agent.state === "failed" || agent.state === "error";
  const text = agent.result ?? "";
  const structured: JsonObject = {
    status: failed ? "failed" : agent.state === "skipped" ? "stopped" : "completed",
    agentId: agent.agentId,
    agentType: WorkflowAgentType,
    content: [{ type: "text", text }],
    ...(agent.tokens !== undefined ? { totalTokens: agent.tokens } : {}),
    ...(agent.toolCalls !== undefined ? { totalToolUseCount: agent.toolCalls } : {}),
    ...(agent.model !== undefined ? { resolvedModel: agent.model } : {}),
    ...(agent.label !== undefined ? { description: agent.label } : {}),
  };
  return { kind: "tool_result", parentToolUseId: workflowCallId, toolUseId: id, text, isError: failed, structured };
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** CLI 2.1.332 wraps a Workflow agent's task in a notice (the record's `promptFramed`), its lines indented. */
const TaskFrame = /^\[Workflow harness[^\]\n]*\][^\n]*The computed task text follows:\n/;

/** The task a Workflow agent was given, without 2.1.332's frame around it. */
export function unframedTask(prompt: string): string {
  const frame = TaskFrame.exec(prompt);
  if (frame === null) return prompt;
  return prompt
    .slice(frame[0].length)
    .split("\n")
    .map((line) => (line.startsWith("  ") ? line.slice(2) : line))
    .join("\n");
}

function unframedPrompt(event: ClientEvent): ClientEvent {
  return event.kind === "user_prompt" ? { ...event, text: unframedTask(event.text) } : event;
}

function firstPrompt(events: readonly ClientEvent[]): string {
  for (const event of events) if (event.kind === "user_prompt") return event.text;
  return "";
}

/**
 * The run's agents: from its record when there is one, else its journal, else its files (an empty
 * file neither names is left out). An agent id that is not a plain name (`x/../..`) never becomes
 * a file name: it is refused with a notice.
 */
async function runAgents(run: RunFolder, problems: HistoryProblem[]): Promise<RunAgent[]> {
  const byId = new Map<string, RunAgent>();
  const refused = new Set<string>();
  const add = (agent: RunAgent, source: string): RunAgent | undefined => {
    if (!isPlainId(agent.agentId)) {
      if (!refused.has(agent.agentId)) problems.push(refusedPath(source, `the agent id ${quotedId(agent.agentId)} it names`, "it is not a plain name"));
      refused.add(agent.agentId);
      return undefined;
    }
    const known = byId.get(agent.agentId);
    if (known !== undefined) return known;
    byId.set(agent.agentId, agent);
    return agent;
  };
  const [session, , , runId] = run.names;
  const recordPath = path.join(run.root, session ?? "", "workflows", `${runId ?? ""}.json`);
  const record = await runFile(run, [session ?? "", "workflows", `${runId ?? ""}.json`], "a Workflow run's record", problems);
  for (const agent of recordedAgents(record === undefined ? undefined : await readJson(record))) add(agent, recordPath);
  const journal = run.dir === undefined ? undefined : await runFile(run, [...run.names, "journal.jsonl"], "a Workflow run's journal", problems);
  const journalPath = path.join(run.root, ...run.names, "journal.jsonl");
  for (const line of journal === undefined ? [] : await readLines(journal)) {
    const agentId = str(line, "agentId");
    if (agentId === undefined) continue;
    const agent = add({ agentId }, journalPath);
    if (agent === undefined) continue;
    // 2.1.332 names the agent's label in its "started" line, long before the record exists.
    const label = str(line, "label");
    if (agent.label === undefined && label !== undefined) agent.label = label;
    const result = line["result"];
    if (str(line, "type") === "result") agent.result = typeof result === "string" ? result : JSON.stringify(result ?? null);
  }
  let names: string[] = [];
  try {
    if (run.dir !== undefined) names = (await fs.readdir(run.dir)).sort();
  } catch {
    // No transcripts: the agents the record and journal name, without steps.
  }
  for (const name of names) {
    const agentId = /^agent-(.+)\.jsonl$/.exec(name)?.[1];
    if (agentId === undefined || byId.has(agentId)) continue;
    // A file named by neither the record nor the journal, and empty, is no agent (yet): nothing ran in it.
    if (run.dir !== undefined && (await isEmptyFile(path.join(run.dir, name)))) continue;
    add({ agentId }, path.join(run.root, ...run.names, name));
  }
  return [...byId.values()];
}

/**
 * The ids of the agents a run's cards show (workflowEvents' agents), in its order: for the session
 * list, which counts them without reading their transcripts.
 */
export async function workflowAgentIds(runDir: string, problems: HistoryProblem[] = []): Promise<string[]> {
  return (await runAgents(await runFolder(runDir, problems), problems)).map((a) => a.agentId);
}

async function isEmptyFile(file: string): Promise<boolean> {
  try {
    // Not followed: a link is checked where it leads when the transcript is read (containedPath).
    const st = await fs.lstat(file);
    return st.isFile() && st.size === 0;
  } catch {
    return false;
  }
}

/** The agents a run's record lists (its `workflowProgress`), in its order; none without a record. */
export function recordedAgents(record: Json | undefined): RunAgent[] {
  const progress = isObject(record) && Array.isArray(record["workflowProgress"]) ? record["workflowProgress"] : [];
  const out: RunAgent[] = [];
  for (const entry of progress) {
    if (!isObject(entry) || str(entry, "type") !== "workflow_agent") continue;
    const agentId = str(entry, "agentId");
    if (agentId === undefined) continue;
    out.push({
      agentId,
      label: str(entry, "label"),
      prompt: str(entry, "promptPreview"),
      state: str(entry, "state"),
      tokens: num(entry, "tokens"),
      toolCalls: num(entry, "toolCalls"),
      model: str(entry, "model"),
    } as RunAgent);
  }
  return out;
}

async function readJson(file: string): Promise<Json | undefined> {
  try {
    return boundJsonDepth(JSON.parse(await readRegularFileText(file)) as Json).value;
  } catch {
    return undefined;
  }
}

async function readLines(file: string): Promise<JsonObject[]> {
  let text: string;
  try {
    text = await readRegularFileText(file);
  } catch {
    return [];
  }
  const out: JsonObject[] = [];
  for (const line of text.split("\n")) {
    try {
      // Bounded: a journal result is JSON.stringify'd for its card (boundedJson.ts).
      const value = boundJsonDepth(JSON.parse(line) as Json).value;
      if (isObject(value)) out.push(value);
    } catch {
      // A half-written last line, or damage: the rest still counts.
    }
  }
  return out;
}

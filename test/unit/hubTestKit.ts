// Helpers shared by the hub tests: replay a recording through the real parser and mapper, and
// walk the resulting transcript.

import { existsSync } from "node:fs";
import type { ClientEvent } from "../../src/shared/events.js";
import type { Block, SubagentRecord, ToolCallRecord, Transcript } from "../../src/shared/transcript.js";
import { modelOf, type SessionModel } from "../../src/main/hub/index.js";
import { readStdinRecording, recordingEvents } from "../../src/main/hub/recordingEvents.js";
import { readJsonlLines, type Recording } from "../support/recordings.js";

export type Line = Record<string, any>;

export interface Replayed {
  readonly label: string;
  /** The recording's folder. */
  readonly dir: string;
  readonly lines: readonly Line[];
  readonly stdinLines: readonly Line[];
  readonly events: readonly ClientEvent[];
  /** The model after every event: a test that applies more to it changes it (build another with modelOf(events) to branch). */
  readonly model: SessionModel;
  /** The transcript after every event, taken before any test applied more. */
  readonly transcript: Transcript;
}

/** Each stdout file of a recording (run 1, run 2, …) replayed with its matching stdin file. */
export function replayRecording(r: Recording): Replayed[] {
  return r.streamFiles.map((streamFile) => {
    const stdinFile = streamFile.replace(/stream(\.run\d+)?\.jsonl$/, "stdin$1.jsonl");
    const streamLines = readJsonlLines(streamFile);
    const stdinText = existsSync(stdinFile) ? readJsonlLines(stdinFile) : [];
    const stdin = existsSync(stdinFile) ? readStdinRecording(stdinText) : undefined;
    const events = recordingEvents(streamLines, stdin);
    const model = modelOf(events);
    return {
      label: `${r.name}/${streamFile.split("/").pop() ?? ""}`,
      dir: r.dir,
      lines: streamLines.map((l) => JSON.parse(l.text) as Line),
      stdinLines: stdinText.map((l) => JSON.parse(l.text) as Line),
      events,
      model,
      transcript: model.transcript(),
    };
  });
}

/** Every tool call in the transcript, with the record it sits in (undefined = top level). */
export function allCalls(t: Transcript): { call: ToolCallRecord; owner: SubagentRecord | undefined }[] {
  const out: { call: ToolCallRecord; owner: SubagentRecord | undefined }[] = [];
  const walk = (blocks: readonly Block[], owner: SubagentRecord | undefined): void => {
    for (const b of blocks) {
      if (b.call === undefined) continue;
      out.push({ call: b.call, owner });
      if (b.call.subagent !== undefined) walk(b.call.subagent.blocks, b.call.subagent);
    }
  };
  walk(t.blocks, undefined);
  return out;
}

export function recordOf(t: Transcript, toolUseId: string): SubagentRecord | undefined {
  return allCalls(t).find((c) => c.call.toolUseId === toolUseId)?.call.subagent;
}

/** tool_use blocks of assistant lines, with the line's parent id. */
export function toolUses(lines: readonly Line[]): { id: string; name: string; input: Line; parent: string | null }[] {
  const out: { id: string; name: string; input: Line; parent: string | null }[] = [];
  for (const line of lines) {
    if (line.type !== "assistant") continue;
    for (const block of line.message.content as Line[]) {
      if (block.type === "tool_use") out.push({ id: block.id, name: block.name, input: block.input, parent: line.parent_tool_use_id });
    }
  }
  return out;
}

/** tool_result blocks of user lines, with the line's parent id and structured result. */
export function toolResults(lines: readonly Line[]): { id: string; isError: boolean; parent: string | null; structured: unknown; content: unknown }[] {
  const out: { id: string; isError: boolean; parent: string | null; structured: unknown; content: unknown }[] = [];
  for (const line of lines) {
    if (line.type !== "user" || typeof line.message.content === "string") continue;
    for (const block of line.message.content as Line[]) {
      if (block.type === "tool_result") {
        out.push({ id: block.tool_use_id, isError: block.is_error === true, parent: line.parent_tool_use_id, structured: line.tool_use_result, content: block.content });
      }
    }
  }
  return out;
}

export function systemLines(lines: readonly Line[], subtype: string): Line[] {
  return lines.filter((l) => l.type === "system" && l.subtype === subtype);
}

/** Small builders for hand-written event sequences. */
export const ev = {
  init: (sessionId = "s-1"): ClientEvent => ({
    kind: "session_init",
    sessionId,
    cwd: "/home/user/code/x",
    model: "claude-test",
    permissionMode: "default",
    tools: [],
    slashCommands: [],
    agents: [],
  }),
  prompt: (text: string, parent: string | null = null): ClientEvent => ({ kind: "user_prompt", parentToolUseId: parent, text }),
  text: (uuid: string, text: string, parent: string | null = null, messageId = `msg_${uuid}`): ClientEvent => ({
    kind: "assistant_block",
    uuid,
    messageId,
    parentToolUseId: parent,
    block: { type: "text", text },
  }),
  use: (id: string, name: string, input: Record<string, unknown>, parent: string | null = null): ClientEvent => ({
    kind: "assistant_block",
    uuid: `line-${id}`,
    messageId: `msg-${id}`,
    parentToolUseId: parent,
    block: { type: "tool_use", id, name, input: input as never },
  }),
  agent: (id: string, description: string, parent: string | null = null, extra: Record<string, unknown> = {}): ClientEvent =>
    ev.use(id, "Agent", { description, prompt: `do ${description}`, subagent_type: "general-purpose", ...extra }, parent),
  result: (id: string, text: string, parent: string | null = null, extra: { isError?: boolean; structured?: unknown } = {}): ClientEvent => ({
    kind: "tool_result",
    parentToolUseId: parent,
    toolUseId: id,
    text,
    isError: extra.isError ?? false,
    ...(extra.structured === undefined ? {} : { structured: extra.structured as never }),
  }),
  agentDone: (id: string, finalText: string, agentId: string): ClientEvent => ({
    kind: "tool_result",
    parentToolUseId: null,
    toolUseId: id,
    text: `${finalText}\nagentId: ${agentId} (use SendMessage with to: '${agentId}' to continue this agent)\n<usage>subagent_tokens: 9</usage>`,
    isError: false,
    content: [
      { type: "text", text: finalText },
      { type: "text", text: `agentId: ${agentId} (use SendMessage with to: '${agentId}' to continue this agent)\n<usage>subagent_tokens: 9</usage>` },
    ],
    structured: {
      status: "completed",
      agentId,
      agentType: "general-purpose",
      resolvedModel: "claude-sub",
      totalDurationMs: 1234,
      totalTokens: 999,
      totalToolUseCount: 3,
      content: [{ type: "text", text: finalText }],
    },
  }),
  started: (taskId: string, toolUseId: string, extra: Record<string, unknown> = {}): ClientEvent => ({
    kind: "task_started",
    taskId,
    toolUseId,
    description: `task ${taskId}`,
    subagentType: "general-purpose",
    taskType: "local_agent",
    prompt: `prompt of ${taskId}`,
    ...extra,
  }),
  progress: (taskId: string, description: string, lastToolName = "Bash", tokens = 10): ClientEvent => ({
    kind: "task_progress",
    taskId,
    description,
    lastToolName,
    usage: { total_tokens: tokens, tool_uses: 1, duration_ms: 5 },
  }),
  updated: (taskId: string, status: string): ClientEvent => ({ kind: "task_updated", taskId, status }),
  notified: (taskId: string, status: string, summary?: string): ClientEvent => ({
    kind: "task_notification",
    taskId,
    status,
    ...(summary === undefined ? {} : { summary }),
  }),
  ask: (requestId: string, toolUseId: string, agentId?: string): ClientEvent => ({
    kind: "permission_request",
    requestId,
    toolName: "Bash",
    toolUseId,
    input: { command: "touch x" },
    ...(agentId === undefined ? {} : { agentId }),
  }),
  answer: (requestId: string, behavior: "allow" | "deny", message?: string): ClientEvent => ({
    kind: "permission_resolved",
    requestId,
    behavior,
    decidedBy: "user",
    ...(message === undefined ? {} : { message }),
  }),
  turnEnd: (costUsd?: number, extra: Record<string, unknown> = {}): ClientEvent => ({
    kind: "turn_result",
    subtype: "success",
    isError: false,
    ...(costUsd === undefined ? {} : { costUsd }),
    ...extra,
  }),
};

/** The transcript, as JSON, that `events` build in a new model: what every other path must match. */
export function freshJson(events: readonly ClientEvent[]): string {
  return JSON.stringify(modelOf(events).transcript());
}

/** A new model with `events` applied, and its transcript. */
export function run(events: readonly ClientEvent[]): { model: SessionModel; t: Transcript } {
  const model = modelOf(events);
  return { model, t: model.transcript() };
}

/**
 * One new model per tail, each after `prefix` (one apply) and then its tail (another): what a test
 * that once reduced one state two ways builds now, since a model keeps no earlier state.
 */
export function branches<Tails extends readonly (readonly ClientEvent[])[]>(prefix: readonly ClientEvent[], ...tails: Tails): { [K in keyof Tails]: SessionModel } {
  return tails.map((tail) => {
    const model = modelOf(prefix);
    model.apply(tail);
    return model;
  }) as { [K in keyof Tails]: SessionModel };
}

/** A session with two parallel agents doing `steps` nested tool calls each, then finishing. */
export function twoAgents(steps: number): ClientEvent[] {
  const out: ClientEvent[] = [ev.init(), ev.prompt("go"), ev.agent("toolu_A", "a"), ev.started("a1", "toolu_A"), ev.agent("toolu_B", "b"), ev.started("b1", "toolu_B")];
  for (let s = 0; s < steps; s++) {
    for (const [agent, task] of [["toolu_A", "a1"], ["toolu_B", "b1"]] as const) {
      out.push(ev.progress(task, `step ${s}`, "Bash", s), ev.use(`${agent}_s${s}`, "Bash", { command: `step ${s}` }, agent));
      out.push(ev.result(`${agent}_s${s}`, `out ${s}`, agent, { isError: s % 5 === 4 }));
      if (s % 3 === 0) out.push(ev.text(`${agent}_u${s}`, `after ${s}`, agent));
    }
  }
  out.push(ev.agentDone("toolu_A", "a done", "a1"), ev.agentDone("toolu_B", "b done", "b1"), ev.text("u_end", "Done."), ev.turnEnd(0.01));
  return out;
}

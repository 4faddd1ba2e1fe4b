// A stdout stream for the render bench, made from a real recording: the repo's
// `fixtures/recordings/parallel-subagents` run (the CLI in stdio mode, two Agent calls in one
// message) scaled to N agents × S steps. Every line is a copy of one of the recording's lines with
// only its ids, counters and texts changed, so field sets and nesting are the CLI's own.

import { readFileSync } from "node:fs";
import path from "node:path";

type Json = Record<string, unknown>;

export interface ScaledRecording {
  /** The recording the line shapes come from (repo-relative). */
  readonly source: string;
  /** The answer to `initialize`, sent before the turn (its request_id is set by the replayer). */
  readonly initializeAnswer: string;
  /** The turn's stdout lines, from `system/init` to `result`. */
  readonly lines: readonly string[];
  readonly agents: number;
  readonly steps: number;
}

export const SourceRecording = "fixtures/recordings/parallel-subagents";

interface Templates {
  readonly answer: Json;
  readonly init: Json;
  readonly agentUse: Json;
  readonly taskStarted: Json;
  readonly subPrompt: Json;
  readonly progress: Json;
  readonly subToolUse: Json;
  readonly subToolResult: Json;
  readonly subText: Json;
  readonly taskUpdated: Json;
  readonly notification: Json;
  readonly agentResult: Json;
  readonly mainText: Json;
  readonly result: Json;
}

const obj = (v: unknown): Json => (typeof v === "object" && v !== null ? (v as Json) : {});
const content = (line: Json): Json => obj((obj(line.message).content as unknown[] | undefined)?.[0]);
const isSub = (line: Json): boolean => typeof line.parent_tool_use_id === "string";

function pick(lines: readonly Json[], name: string, test: (l: Json) => boolean, last = false): Json {
  const found = last ? [...lines].reverse().find(test) : lines.find(test);
  if (found === undefined) throw new Error(`${SourceRecording}/stream.jsonl has no ${name} line to copy`);
  return found;
}

function templates(repoRoot: string): Templates {
  const text = readFileSync(path.join(repoRoot, SourceRecording, "stream.jsonl"), "utf8");
  const lines = text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Json);
  const sys = (subtype: string) => (l: Json) => l.type === "system" && l.subtype === subtype;
  return {
    answer: pick(lines, "control_response", (l) => l.type === "control_response"),
    init: pick(lines, "system/init", sys("init")),
    agentUse: pick(lines, "Agent tool_use", (l) => l.type === "assistant" && !isSub(l) && content(l).name === "Agent"),
    taskStarted: pick(lines, "task_started", sys("task_started")),
    subPrompt: pick(lines, "subagent prompt", (l) => l.type === "user" && isSub(l) && content(l).type === "text"),
    progress: pick(lines, "task_progress", sys("task_progress")),
    subToolUse: pick(lines, "subagent tool_use", (l) => l.type === "assistant" && isSub(l) && content(l).type === "tool_use"),
    subToolResult: pick(lines, "subagent tool_result", (l) => l.type === "user" && isSub(l) && content(l).type === "tool_result"),
    subText: pick(lines, "subagent text", (l) => l.type === "assistant" && isSub(l) && content(l).type === "text"),
    taskUpdated: pick(lines, "task_updated", sys("task_updated")),
    notification: pick(lines, "task_notification", sys("task_notification")),
    agentResult: pick(lines, "Agent tool_result", (l) => l.type === "user" && !isSub(l) && l.tool_use_result !== undefined),
    mainText: pick(lines, "main text", (l) => l.type === "assistant" && !isSub(l) && content(l).type === "text", true),
    result: pick(lines, "result", (l) => l.type === "result"),
  };
}

/** Deep copy of a template with `edit` applied to the copy. */
function from(template: Json, edit: (line: Json, first: Json) => void): string {
  const line = structuredClone(template);
  edit(line, content(line));
  return JSON.stringify(line);
}

export function scaleRecording(repoRoot: string, agents: number, steps: number): ScaledRecording {
  const t = templates(repoRoot);
  let n = 0;
  const uuid = (): string => `00000000-0000-4000-8000-${(n++).toString(16).padStart(12, "0")}`;
  const stamp = (line: Json): void => {
    line.uuid = uuid();
    if (typeof line.timestamp === "string") line.timestamp = new Date(Date.UTC(2026, 10, 30, 3, 41) + n).toISOString();
  };
  const list = Array.from({ length: agents }, (_, i) => ({
    toolUseId: `toolu_main_t0_${i}`,
    taskId: `a${(0x9757b7533acf957dn + BigInt(i)).toString(16).slice(-16)}`,
    description: `Agent ${i + 1} task`,
    prompt: `[[SUB-${i + 1}]] do ${steps} steps`,
  }));
  const out: string[] = [from(t.init, stamp)];
  for (const a of list) {
    out.push(
      from(t.agentUse, (l, c) => {
        stamp(l);
        c.id = a.toolUseId;
        c.input = { ...obj(c.input), description: a.description, prompt: a.prompt };
      }),
      from(t.taskStarted, (l) => Object.assign(l, { task_id: a.taskId, tool_use_id: a.toolUseId, description: a.description, prompt: a.prompt }, { uuid: uuid() })),
      from(t.subPrompt, (l, c) => {
        stamp(l);
        Object.assign(l, { parent_tool_use_id: a.toolUseId, task_description: a.description });
        c.text = a.prompt;
      }),
    );
  }
  for (let s = 0; s < steps; s++) {
    list.forEach((a, i) => {
      const use = `toolu_SUB-${i + 1}_t${s}_0`;
      out.push(
        from(t.progress, (l) => {
          Object.assign(l, { task_id: a.taskId, tool_use_id: a.toolUseId, description: `Running ${a.description} step ${s + 1}` }, { uuid: uuid() });
          l.usage = { ...obj(l.usage), total_tokens: 100 + s, tool_uses: s + 1, duration_ms: 50 * (s + 1) };
        }),
        from(t.subToolUse, (l, c) => {
          stamp(l);
          Object.assign(l, { parent_tool_use_id: a.toolUseId, task_description: a.description });
          obj(l.message).id = `msg_SUB-${i + 1}_t${s}_r${s + 3}`;
          c.id = use;
          c.input = { command: `echo agent-${i + 1}-${s + 1}`, description: `${a.description} step ${s + 1}` };
        }),
        from(t.subToolResult, (l, c) => {
          stamp(l);
          Object.assign(l, { parent_tool_use_id: a.toolUseId, task_description: a.description });
          Object.assign(c, { tool_use_id: use, content: `agent-${i + 1}-${s + 1}` });
        }),
      );
    });
  }
  for (const a of list) {
    const done = `${a.description} done.`;
    out.push(
      from(t.subText, (l, c) => {
        stamp(l);
        Object.assign(l, { parent_tool_use_id: a.toolUseId, task_description: a.description });
        c.text = done;
      }),
      from(t.taskUpdated, (l) => Object.assign(l, { task_id: a.taskId }, { uuid: uuid() })),
      from(t.notification, (l) => {
        Object.assign(l, { task_id: a.taskId, tool_use_id: a.toolUseId, summary: a.description }, { uuid: uuid() });
        l.usage = { ...obj(l.usage), tool_uses: steps };
      }),
      from(t.agentResult, (l, c) => {
        stamp(l);
        const recap = `agentId: ${a.taskId} (use SendMessage with to: '${a.taskId}', summary: '<5-10 word recap>' to continue this agent)\n<usage>subagent_tokens: 103\ntool_uses: ${steps}\nduration_ms: 710</usage>`;
        Object.assign(c, { tool_use_id: a.toolUseId, content: [{ type: "text", text: done }, { type: "text", text: recap }] });
        l.tool_use_result = { ...obj(l.tool_use_result), prompt: a.prompt, agentId: a.taskId, content: [{ type: "text", text: done }], totalToolUseCount: steps };
      }),
    );
  }
  out.push(
    from(t.mainText, (l, c) => {
      stamp(l);
      c.text = `All ${agents} subagents finished.`;
    }),
    from(t.result, (l) => Object.assign(l, { result: `All ${agents} subagents finished.` }, { uuid: uuid() })),
  );
  return { source: SourceRecording, initializeAnswer: JSON.stringify(t.answer), lines: out, agents, steps };
}

/** Steps per agent for about `lines` lines in all (3 lines per step per agent, plus fixed ones). */
export function stepsFor(lines: number, agents: number): number {
  return Math.max(1, Math.round((lines - 2 - 7 * agents - 1) / (3 * agents)));
}

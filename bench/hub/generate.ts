// A synthetic stdout stream shaped like the CLI's (PROTOCOL.md §2): turns in which the main agent
// launches many parallel subagents whose task_progress, tool_use, tool_result and text lines
// interleave, then their notifications and final Agent results.
//
// Content sizes: "small" gives every tool call a short command and a three-line result; "real"
// sizes tool inputs, results and texts as in real sessions, cycling through the 20-quantiles
// (0th, 5th … 95th percentile) of their lengths in the 34 real transcripts beside the repository
// (../shared/wild), as `contentSizes.ts` prints them. The tail above the 95th percentile is left
// out, so these contents are smaller on average than real ones (results: 0.8 k characters here,
// 2.2 k there).

export interface StreamShape {
  /** Subagents running in parallel in each turn. */
  readonly parallel: number;
  /** Tool calls each subagent makes per turn (over MaxNestedBlocks, so the cap is exercised). */
  readonly stepsPerAgent: number;
  readonly sizes: "small" | "real";
}

/** Lengths in characters, 20-quantiles: a tool_result's content, a tool_use's input as JSON, a text block. */
const RealSizes = {
  result: [0, 14, 31, 58, 83, 98, 124, 142, 160, 163, 182, 276, 414, 586, 787, 1011, 1465, 2169, 3172, 5935],
  input: [2, 51, 66, 77, 89, 98, 111, 125, 141, 159, 188, 234, 316, 440, 566, 674, 906, 1143, 1548, 2981],
  text: [2, 8, 25, 35, 43, 52, 60, 68, 75, 84, 94, 106, 119, 139, 161, 194, 276, 584, 1230, 2370],
} as const;

const listingLine = "drwxr-xr-x  5 user user 4096 Nov 30 02:23 src/renderer/transcript/SubagentCard.tsx\n";

/** `head + small`, or with real sizes `head` followed by a directory listing up to the `k`th quantile of `kind` (never shorter than `head`). */
function content(shape: StreamShape, kind: keyof typeof RealSizes, k: number, head: string, small: string): string {
  if (shape.sizes === "small") return head + small;
  const size = RealSizes[kind][k % 20] as number;
  if (head.length >= size) return head;
  return (head + listingLine.repeat(Math.ceil((size - head.length) / listingLine.length))).slice(0, size);
}

const session = "3e935211-5331-430a-afd5-266ff79618c8";
let uuidCounter = 0;
const uuid = (): string => `00000000-0000-4000-8000-${(uuidCounter++).toString(16).padStart(12, "0")}`;
const usage = { input_tokens: 100, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function assistant(id: string, parent: string | null, block: object): string {
  return JSON.stringify({
    type: "assistant",
    message: { id, type: "message", role: "assistant", model: "claude-opus-4-8", content: [block], stop_reason: null, stop_sequence: null, usage, context_management: null },
    parent_tool_use_id: parent,
    session_id: session,
    uuid: uuid(),
    ...(parent === null ? {} : { subagent_type: "general-purpose", task_description: "Bench task" }),
  });
}

function toolResult(toolUseId: string, parent: string | null, content: unknown, extra: object = {}): string {
  return JSON.stringify({
    type: "user",
    message: { role: "user", content: [{ tool_use_id: toolUseId, type: "tool_result", content }] },
    parent_tool_use_id: parent,
    session_id: session,
    uuid: uuid(),
    timestamp: "2026-11-30T02:23:52.940Z",
    ...extra,
  });
}

function system(subtype: string, fields: object): string {
  return JSON.stringify({ type: "system", subtype, ...fields, uuid: uuid(), session_id: session });
}

function* turn(t: number, shape: StreamShape): Generator<string> {
  yield system("init", { cwd: "/home/user/code/bench", tools: ["Task", "Bash"], mcp_servers: [], model: "claude-opus-4-8[1m]", permissionMode: "bypassPermissions", slash_commands: [], apiKeySource: "ANTHROPIC_API_KEY", claude_code_version: "2.1.197", output_style: "default", agents: ["general-purpose"] });
  yield assistant(`msg_main_t${t}_r0`, null, { type: "text", text: `Turn ${t}: launching ${shape.parallel} agents.` });
  const agents = Array.from({ length: shape.parallel }, (_, a) => ({ id: `toolu_main_t${t}_${a}`, task: `a${t.toString(16).padStart(8, "0")}${a.toString(16).padStart(8, "0")}` }));
  for (const { id, task } of agents) {
    const input = { description: `Agent ${id}`, prompt: `[[SUB]] work on part ${id}`, subagent_type: "general-purpose" };
    yield assistant(`msg_main_t${t}_r1`, null, { type: "tool_use", id, name: "Agent", input });
    yield system("task_started", { task_id: task, tool_use_id: id, description: input.description, subagent_type: "general-purpose", task_type: "local_agent", prompt: input.prompt });
    yield JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text: input.prompt }] }, parent_tool_use_id: id, session_id: session, uuid: uuid(), timestamp: "2026-11-30T02:23:52.940Z", subagent_type: "general-purpose", task_description: input.description });
  }
  for (let s = 0; s < shape.stepsPerAgent; s++) {
    for (const { id, task } of agents) {
      const use = `${id}_s${s}`;
      yield system("task_progress", { task_id: task, tool_use_id: id, description: `Running step ${s} of ${id}`, subagent_type: "general-purpose", usage: { total_tokens: 100 + s, tool_uses: s + 1, duration_ms: 10 * s }, last_tool_name: "Bash" });
      // With real sizes the command alone has the length of a whole input.
      const command = content(shape, "input", s * 7, `echo step ${s} && ls -la /home/user/code/bench/src`, "");
      yield assistant(`msg_${id}_r${s}`, id, { type: "tool_use", id: use, name: "Bash", input: { command, description: `Step ${s}` } });
      yield toolResult(use, id, content(shape, "result", s * 11 + t, `step ${s} output\n`, "total 48\ndrwxr-xr-x  5 user user 4096 Nov 30 02:23 ."));
      if (s % 4 === 3) yield assistant(`msg_${id}_t${s}`, id, { type: "text", text: content(shape, "text", (s >> 2) * 7, `Finished step ${s}; `, "moving on to the next one.") });
    }
  }
  for (const { id, task } of agents) {
    const final = `Agent ${id} finished all ${shape.stepsPerAgent} steps.`;
    yield system("task_updated", { task_id: task, patch: { status: "completed", end_time: 1796005420438 } });
    yield system("task_notification", { task_id: task, tool_use_id: id, status: "completed", output_file: "", summary: `Agent ${id}`, usage: { total_tokens: 900, tool_uses: shape.stepsPerAgent, duration_ms: 1200 } });
    yield toolResult(id, null, [{ type: "text", text: final }, { type: "text", text: `agentId: ${task} (use SendMessage with to: '${task}', summary: '<5-10 word recap>' to continue this agent)\n<usage>subagent_tokens: 900\ntool_uses: ${shape.stepsPerAgent}\nduration_ms: 1200</usage>` }], {
      tool_use_result: { status: "completed", prompt: "[[SUB]]", agentId: task, agentType: "general-purpose", content: [{ type: "text", text: final }], resolvedModel: "claude-opus-4-8[1m]", totalDurationMs: 1200, totalTokens: 900, totalToolUseCount: shape.stepsPerAgent },
    });
  }
  yield assistant(`msg_main_t${t}_r9`, null, { type: "text", text: `Turn ${t} done.` });
  yield JSON.stringify({ type: "result", subtype: "success", is_error: false, duration_ms: 2000, num_turns: 2, result: `Turn ${t} done.`, session_id: session, total_cost_usd: 0.01 * (t + 1), usage, permission_denials: [], uuid: uuid() });
}

/** At least `minLines` lines (whole turns), produced lazily. */
export function* generateStream(minLines: number, shape: StreamShape): Generator<string> {
  let count = 0;
  for (let t = 0; count < minLines; t++) {
    for (const line of turn(t, shape)) {
      count++;
      yield line;
    }
  }
}

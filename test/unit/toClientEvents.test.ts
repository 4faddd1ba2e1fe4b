import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import type { ProtocolMessage } from "../../src/shared/protocol/messages.js";
import { parseLine, parseMessage } from "../../src/shared/protocol/parseMessage.js";
import { toClientEvents } from "../../src/shared/protocol/toClientEvents.js";
import { findRecording, listRecordings, readJsonlLines, warnIfNoRecordings } from "../support/recordings.js";

interface Line {
  readonly lineNumber: number;
  readonly message: ProtocolMessage;
  readonly events: ClientEvent[];
}

/** Every stdout line of a recording, parsed and mapped. */
function linesOf(name: string): Line[] {
  const recording = findRecording(name);
  if (recording === undefined) throw new Error(`recording ${name} not found`);
  return recording.streamFiles.flatMap((file) =>
    readJsonlLines(file).map(({ text, lineNumber }) => {
      const result = parseLine(text, lineNumber);
      if (!result.ok) throw new Error(`${name}:${lineNumber}: ${result.problem.reason}`);
      return { lineNumber, message: result.message, events: toClientEvents(result.message, lineNumber) };
    }),
  );
}

function eventsOf(name: string): ClientEvent[] {
  return linesOf(name).flatMap((l) => l.events);
}

function ofKind<K extends ClientEvent["kind"]>(events: readonly ClientEvent[], kind: K): Extract<ClientEvent, { kind: K }>[] {
  return events.filter((e): e is Extract<ClientEvent, { kind: K }> => e.kind === kind);
}

function message(value: unknown): ProtocolMessage {
  const result = parseMessage(value);
  if (!result.ok) throw new Error(result.reason);
  return result.message;
}

const session = { session_id: "s-1", uuid: "u-1" };
const recordings = listRecordings();
const noRecordings = warnIfNoRecordings("toClientEvents");
const has = (name: string) => recordings.some((r) => r.name === name);

describe.skipIf(noRecordings)("toClientEvents on recorded CLI output", () => {
  it("maps every line of every recording without a protocol problem", () => {
    for (const recording of recordings) {
      const problems = linesOf(recording.name).flatMap((l) => ofKind(l.events, "protocol_problem"));
      expect(problems, recording.name).toEqual([]);
    }
  });

  it("gives every subagent assistant/user event the line's parent tool_use id", () => {
    let subagentLines = 0;
    for (const recording of recordings) {
      for (const { message: m, events } of linesOf(recording.name)) {
        if ((m.type !== "assistant" && m.type !== "user") || m.parent_tool_use_id === null) continue;
        subagentLines++;
        expect(events.length).toBeGreaterThan(0);
        for (const event of events) expect(event).toMatchObject({ parentToolUseId: m.parent_tool_use_id });
        if (m.type === "assistant") expect(events).toHaveLength(m.message.content.length);
      }
    }
    expect(subagentLines).toBeGreaterThan(0);
  });

  it.skipIf(!has("a-subagent"))("a-subagent: the task, the Agent call and the subagent's lines share one tool_use id", () => {
    const events = eventsOf("a-subagent");
    const [started] = ofKind(events, "task_started");
    const [notification] = ofKind(events, "task_notification");
    expect(started).toBeDefined();
    expect(notification).toMatchObject({ taskId: started!.taskId, toolUseId: started!.toolUseId, status: "completed" });
    const agentCall = ofKind(events, "assistant_block").find((e) => e.block.type === "tool_use" && e.block.name === "Agent");
    expect(agentCall?.block).toMatchObject({ id: started!.toolUseId });
    expect(agentCall?.parentToolUseId).toBeNull();
    const [prompt] = ofKind(events, "user_prompt");
    expect(prompt).toMatchObject({ parentToolUseId: started!.toolUseId, text: started!.prompt });
    const [updated] = ofKind(events, "task_updated");
    expect(updated).toMatchObject({ taskId: started!.taskId, status: "completed" });
    expect(typeof updated!.endTime).toBe("number");
  });

  it.skipIf(!has("a-subagent"))("a-subagent: the Agent tool_result carries text and structured output; the result its context window", () => {
    const events = eventsOf("a-subagent");
    const agentResult = ofKind(events, "tool_result").find((e) => e.parentToolUseId === null);
    expect(agentResult?.structured).toMatchObject({ status: "completed", agentId: ofKind(events, "task_started")[0]!.taskId });
    // A list of text blocks is joined into one text.
    expect(Array.isArray(agentResult?.content)).toBe(true);
    expect(agentResult?.text).toContain("agentId: ");
    const [turn] = ofKind(events, "turn_result");
    expect(turn).toMatchObject({ subtype: "success", isError: false });
    expect(turn!.contextWindow).toBeGreaterThan(0);
  });

  it.skipIf(!has("g1-permissions-stdio"))("g1: a subagent's can_use_tool becomes a permission_request with its agentId", () => {
    const events = eventsOf("g1-permissions-stdio");
    const requests = ofKind(events, "permission_request");
    const [task] = ofKind(events, "task_started");
    const fromSubagent = requests.filter((r) => r.agentId !== undefined);
    expect(fromSubagent.length).toBeGreaterThan(0);
    for (const r of fromSubagent) expect(r.agentId).toBe(task!.taskId);
    const fromMain = requests.filter((r) => r.agentId === undefined);
    expect(fromMain.length).toBeGreaterThan(0);
    expect(fromMain[0]).toMatchObject({ toolName: "Bash", input: { command: expect.any(String) } });
    expect(fromMain[0]!.suggestions?.length).toBeGreaterThan(0);
    expect(fromMain[0]!.blockedPath).toEqual(expect.any(String));
  });

  it.skipIf(!has("c3-main-api-error"))("c3: a retry and the synthetic API-error answer are flagged", () => {
    const events = eventsOf("c3-main-api-error");
    expect(ofKind(events, "api_retry")[0]).toMatchObject({ attempt: 1, errorStatus: 500, error: "server_error" });
    const blocks = ofKind(events, "assistant_block");
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({ apiError: "server_error", model: "<synthetic>" });
    expect(ofKind(events, "turn_result")[0]).toMatchObject({ isError: true });
  });

  it.skipIf(!has("i1-interrupt-subagent"))("i1: an interrupt yields a killed task, an error tool_result and an interrupt marker", () => {
    const events = eventsOf("i1-interrupt-subagent");
    expect(ofKind(events, "task_updated")[0]).toMatchObject({ status: "killed" });
    expect(ofKind(events, "task_notification")[0]).toMatchObject({ status: "stopped" });
    expect(ofKind(events, "tool_result").find((e) => e.parentToolUseId === null)).toMatchObject({ isError: true });
    expect(ofKind(events, "interrupt_marker")).toEqual([
      { kind: "interrupt_marker", parentToolUseId: null, text: "[Request interrupted by user for tool use]" },
    ]);
    expect(ofKind(events, "turn_result")[0]).toMatchObject({ subtype: "error_during_execution", isError: true });
  });

  it.skipIf(!has("l-misc-system-messages"))("l: hooks, a bash task, compaction and suggestions", () => {
    const events = eventsOf("l-misc-system-messages");
    expect(ofKind(events, "hook").map((h) => h.phase)).toEqual(["started", "response"]);
    expect(ofKind(events, "hook")[1]).toMatchObject({ hookEvent: "PreToolUse", exitCode: 0, outcome: "success" });
    expect(ofKind(events, "task_started")[0]).toMatchObject({ taskType: "local_bash" });
    expect(ofKind(events, "status").map((s) => s.status)).toEqual(["compacting", null]);
    expect(ofKind(events, "compact_boundary")[0]).toMatchObject({ trigger: "manual", preTokens: expect.any(Number) });
    expect(ofKind(events, "prompt_suggestion").length).toBeGreaterThan(0);
    const prompts = ofKind(events, "user_prompt");
    expect(prompts.map((p) => p.isMeta === true)).toEqual([true, false]);
    expect(prompts[0]!.text).toMatch(/^This session is being continued/);
  });

  it.skipIf(!has("k-initialize-hooks-agents"))("k: replayed prompt keeps the client's uuid; control lines yield no events", () => {
    const lines = linesOf("k-initialize-hooks-agents");
    const replay = lines.find((l) => l.message.type === "user" && l.message.isReplay === true);
    expect(replay?.events).toEqual([expect.objectContaining({ kind: "user_prompt", uuid: replay!.message.type === "user" ? replay!.message.uuid : "", parentToolUseId: null })]);
    const control = lines.filter((l) => l.message.type === "control_response" || (l.message.type === "control_request" && l.message.request.subtype === "hook_callback"));
    expect(control.length).toBeGreaterThan(0);
    for (const l of control) expect(l.events).toEqual([]);
  });

  it.skipIf(!has("f-partial-messages"))("f: stream events become stream_delta; thinking_tokens yields nothing", () => {
    const lines = linesOf("f-partial-messages");
    const stream = lines.filter((l) => l.message.type === "stream_event");
    expect(stream.length).toBeGreaterThan(0);
    for (const l of stream) {
      expect(l.events).toEqual([{ kind: "stream_delta", parentToolUseId: null, event: l.message.type === "stream_event" ? l.message.event : null }]);
    }
    const thinking = lines.filter((l) => l.message.type === "system" && l.message.subtype === "thinking_tokens");
    expect(thinking.length).toBeGreaterThan(0);
    for (const l of thinking) expect(l.events).toEqual([]);
  });
});

describe("toClientEvents", () => {
  it("maps init to session_init", () => {
    const events = toClientEvents(
      message({ type: "system", subtype: "init", cwd: "/home/user/code/x", tools: ["Task", "Bash"], mcp_servers: [], model: "m", permissionMode: "default", slash_commands: ["a"], claude_code_version: "2.1.197", ...session }),
    );
    expect(events).toEqual([
      expect.objectContaining({ kind: "session_init", sessionId: "s-1", cwd: "/home/user/code/x", tools: ["Task", "Bash"], slashCommands: ["a"], agents: [], cliVersion: "2.1.197" }),
    ]);
  });

  it("maps each assistant content block to its own event", () => {
    const blocks = [
      { type: "thinking", thinking: "hm" },
      { type: "text", text: "hi" },
      { type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } },
    ];
    const events = toClientEvents(
      message({ type: "assistant", message: { id: "msg1", role: "assistant", model: "m", content: blocks, stop_reason: null }, parent_tool_use_id: "toolu_p", ...session }),
    );
    expect(events).toEqual(
      blocks.map((block) => ({ kind: "assistant_block", uuid: "u-1", messageId: "msg1", parentToolUseId: "toolu_p", block, model: "m", apiError: undefined })),
    );
  });

  it("marks a <synthetic> answer without an error field as an API error", () => {
    const [event] = toClientEvents(
      message({ type: "assistant", message: { id: "x", model: "<synthetic>", content: [{ type: "text", text: "API Error: 500" }] }, parent_tool_use_id: null, ...session }),
    );
    expect(event).toMatchObject({ kind: "assistant_block", apiError: expect.any(String) });
  });

  it("maps a user line with several tool results and text, in order", () => {
    const events = toClientEvents(
      message({
        type: "user",
        message: {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "a", content: [{ type: "text", text: "one" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "AA" } }, { type: "text", text: "two" }] },
            { type: "tool_result", tool_use_id: "b", is_error: true },
          ],
        },
        parent_tool_use_id: null,
        tool_use_result: { ambiguous: true },
        ...session,
      }),
    );
    expect(events).toMatchObject([
      { kind: "tool_result", toolUseId: "a", text: "one\ntwo", isError: false },
      { kind: "tool_result", toolUseId: "b", text: "", isError: true },
    ]);
    // With two results on one line, the line's structured output cannot be attributed.
    expect(events.some((e) => "structured" in e)).toBe(false);
  });

  it("keeps a subagent's error string as the structured result", () => {
    const [event] = toClientEvents(
      message({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t", content: "Error: Exit code 3\noops", is_error: true }] }, parent_tool_use_id: "p", tool_use_result: "Error: Exit code 3\noops", ...session }),
    );
    expect(event).toMatchObject({ kind: "tool_result", parentToolUseId: "p", structured: "Error: Exit code 3\noops", isError: true });
  });

  it("treats a plain-string interrupt text as an interrupt marker", () => {
    const events = toClientEvents(message({ type: "user", message: { content: "[Request interrupted by user]" }, parent_tool_use_id: null, ...session }));
    expect(events).toEqual([{ kind: "interrupt_marker", parentToolUseId: null, text: "[Request interrupted by user]" }]);
  });

  it("keeps pasted images on a replayed prompt", () => {
    const [event] = toClientEvents(
      message({ type: "user", message: { content: [{ type: "text", text: "look" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } }] }, parent_tool_use_id: null, isReplay: true, ...session }),
    );
    expect(event).toMatchObject({ kind: "user_prompt", text: "look", images: [{ mediaType: "image/png", data: "AAAA" }] });
  });

  it("maps task_updated's patch, cancel requests and silent kinds", () => {
    expect(toClientEvents(message({ type: "system", subtype: "task_updated", task_id: "a1", patch: { status: "killed", end_time: 5 }, ...session }))).toEqual([
      { kind: "task_updated", taskId: "a1", status: "killed", endTime: 5 },
    ]);
    expect(toClientEvents(message({ type: "control_cancel_request", request_id: "r9" }))).toEqual([{ kind: "permission_cancelled", requestId: "r9" }]);
    expect(toClientEvents(message({ type: "keep_alive" }))).toEqual([]);
    expect(toClientEvents(message({ type: "system", subtype: "session_state_changed", state: "idle", ...session }))).toEqual([]);
    expect(toClientEvents(message({ type: "control_request", request_id: "r", request: { subtype: "mcp_message", server_name: "s", message: {} } }))).toEqual([]);
  });

  it("picks the largest context window and lists permission denials", () => {
    const [event] = toClientEvents(
      message({
        type: "result",
        subtype: "success",
        is_error: false,
        modelUsage: { "claude-haiku": { contextWindow: 200000 }, "claude-opus[1m]": { contextWindow: 1000000 } },
        permission_denials: [{ tool_name: "Bash", tool_use_id: "t1", tool_input: {} }],
        ...session,
      }),
    );
    expect(event).toMatchObject({ kind: "turn_result", contextWindow: 1000000, permissionDenials: [{ toolName: "Bash", toolUseId: "t1" }] });
  });

  it("reports an unknown message as a protocol problem with its line number", () => {
    const events = toClientEvents(message({ type: "system", subtype: "brand_new", ...session }), 17);
    expect(events).toEqual([{ kind: "protocol_problem", lineNumber: 17, reason: "unknown message type system/brand_new", excerpt: expect.stringContaining("brand_new") }]);
    const [other] = toClientEvents(message({ type: "tool_forecast", data: "x".repeat(500) }));
    expect(other).toMatchObject({ kind: "protocol_problem", lineNumber: 0, reason: "unknown message type tool_forecast" });
    expect((other as { excerpt: string }).excerpt.length).toBeLessThanOrEqual(201);
  });
});

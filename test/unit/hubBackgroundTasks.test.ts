// The session's status with background agents (which 2.1.332 makes of Agent calls by default, see
// docs/features.md "Steering"): "running" (shown as working) while a background agent of it lives,
// even after the turn's result, and idle once the last one is done and its report's turn answered.
// 2.1.332 says what lives (system/background_tasks_changed); on 2.1.197, which never does, the
// hub's own cards say it.

import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../../src/shared/events.js";
import { parseLine } from "../../src/shared/protocol/parseMessage.js";
import { toClientEvents } from "../../src/shared/protocol/toClientEvents.js";
import { modelOf, SessionModel } from "../../src/main/hub/index.js";
import { readStdinRecording, recordingEvents } from "../../src/main/hub/recordingEvents.js";
import { fixtureRecordingsDir, readJsonlLines } from "../support/recordings.js";
import { recordOf } from "./hubTestKit.js";

const Sid = "f67e72d7-607b-433c-8faf-64825100454b";

// stdout lines in the shapes 2.1.332 sent (a probe of two background agents, then an interrupt), trimmed.
const line = {
  init: () => ({ type: "system", subtype: "init", cwd: "/home/user/code/probe", session_id: Sid, tools: ["Task", "Bash"], mcp_servers: [], model: "claude-opus-5-5", permissionMode: "bypassPermissions", slash_commands: [], claude_code_version: "2.1.332" }),
  agentUse: (id: string, description: string) => ({
    type: "assistant",
    message: { id: `msg_${id}`, type: "message", role: "assistant", model: "claude-opus-5-5", content: [{ type: "tool_use", id, name: "Agent", input: { description, prompt: `[[SUB]] ${description}`, subagent_type: "general-purpose" } }] },
    parent_tool_use_id: null,
    session_id: Sid,
  }),
  level: (...tasks: { id: string; description: string; type?: string; ambient?: boolean; awaited?: boolean }[]) => ({
    type: "system",
    subtype: "background_tasks_changed",
    tasks: tasks.map((t) => ({
      task_id: t.id,
      run_id: `0mx58b9ou-${t.id}`,
      task_type: t.type ?? "local_agent",
      ...(t.type === undefined ? { subagent_type: "general-purpose" } : {}),
      description: t.description,
      ...(t.ambient === undefined ? {} : { ambient: t.ambient }),
      ...(t.awaited === undefined ? {} : { awaited: t.awaited }),
    })),
    uuid: "92f38837-dcc3-4c67-93cf-0e40c2f172fa",
    session_id: Sid,
  }),
  started: (taskId: string, toolUseId: string, description: string) => ({
    type: "system", subtype: "task_started", task_id: taskId, run_id: `0mx58b9ou-${taskId}`, tool_use_id: toolUseId, description, subagent_type: "general-purpose",
    is_backgrounded: true, spawn_depth: 1, task_type: "local_agent", prompt: `[[SUB]] ${description}`, session_id: Sid,
  }),
  launched: (toolUseId: string, agentId: string) => ({
    type: "user",
    message: { role: "user", content: [{ tool_use_id: toolUseId, type: "tool_result", content: [{ type: "text", text: `Async agent launched successfully.\nagentId: ${agentId}` }] }] },
    parent_tool_use_id: null,
    session_id: Sid,
    tool_use_result: { isAsync: true, status: "async_launched", agentId, description: "d", prompt: "p", outputFile: "/tmp/x.output", canReadOutputFile: true, canContinueAgent: true },
  }),
  text: (id: string, text: string, parent: string | null = null) => ({
    type: "assistant",
    message: { id, type: "message", role: "assistant", model: "claude-opus-5-5", content: [{ type: "text", text }] },
    parent_tool_use_id: parent,
    session_id: Sid,
  }),
  result: (text: string) => ({ type: "result", subtype: "success", is_error: false, result: text, session_id: Sid, num_turns: 1, total_cost_usd: 0.003 }),
  updated: (taskId: string, status: string) => ({ type: "system", subtype: "task_updated", task_id: taskId, run_id: `0mx58b9ou-${taskId}`, patch: { status, end_time: 1796161723725 }, session_id: Sid }),
  notified: (taskId: string, toolUseId: string, status: string) => ({
    type: "system", subtype: "task_notification", task_id: taskId, run_id: `0mx58b9ou-${taskId}`, tool_use_id: toolUseId, status, output_file: "/tmp/x.output", summary: "Slow one", session_id: Sid,
  }),
};

function eventsOf(lines: readonly object[]): ClientEvent[] {
  return lines.flatMap((l, i) => {
    const parsed = parseLine(JSON.stringify(l), i + 1);
    if (!parsed.ok) throw new Error(parsed.problem.reason);
    return toClientEvents(parsed.message, i + 1);
  });
}

const prompt: ClientEvent = { kind: "user_prompt", uuid: "5412c328-c2c0-4d68-8c4d-78551f5c6f92", parentToolUseId: null, text: "go" };

/** Two background agents launched, the main turn answered: what 2.1.332 sent up to the first result. */
const twoLaunched: ClientEvent[] = [
  prompt,
  ...eventsOf([
    line.init(),
    line.agentUse("toolu_main_t0_0", "Slow one"),
    line.level({ id: "ab488c3d7ddd1f85e", description: "Slow one" }),
    line.started("ab488c3d7ddd1f85e", "toolu_main_t0_0", "Slow one"),
    line.launched("toolu_main_t0_0", "ab488c3d7ddd1f85e"),
    line.agentUse("toolu_main_t0_1", "Slow two"),
    line.level({ id: "ab488c3d7ddd1f85e", description: "Slow one" }, { id: "ae2a1d0a1d260400c", description: "Slow two" }),
    line.started("ae2a1d0a1d260400c", "toolu_main_t0_1", "Slow two"),
    line.launched("toolu_main_t0_1", "ae2a1d0a1d260400c"),
    line.text("msg_main_t1_r2", "Started both."),
    line.result("Started both."),
  ]),
];

function statusAfter(events: readonly ClientEvent[]): { status: string; backgroundAgents: number | undefined } {
  const t = modelOf(events).transcript();
  return { status: t.status, backgroundAgents: t.backgroundAgents };
}

describe("session status with background agents, 2.1.332", () => {
  it("background_tasks_changed becomes an event listing the live tasks", () => {
    const [event] = eventsOf([line.level({ id: "a1", description: "Slow one" }, { id: "b2", description: "tail -f", type: "local_bash", ambient: true })]);
    expect(event).toEqual({
      kind: "background_tasks",
      tasks: [
        { taskId: "a1", taskType: "local_agent", description: "Slow one", subagentType: "general-purpose" },
        { taskId: "b2", taskType: "local_bash", description: "tail -f", ambient: true },
      ],
    });
    // A damaged entry is left out; the rest of the set still counts.
    const parsed = parseLine(JSON.stringify({ ...line.level({ id: "a1", description: "x" }), tasks: [7, { task_type: "local_agent" }, { task_id: "a1", task_type: "local_agent", description: "x" }] }), 1);
    expect(parsed.ok && toClientEvents(parsed.message)).toEqual([{ kind: "background_tasks", tasks: [{ taskId: "a1", taskType: "local_agent", description: "x" }] }]);
  });

  it("stays working after the turn's result while background agents live, and counts them", () => {
    expect(statusAfter(twoLaunched)).toEqual({ status: "running", backgroundAgents: 2 });
  });

  it("is idle once the set is empty (an interrupt that kills both, with no result)", () => {
    const killed = eventsOf([
      line.updated("ab488c3d7ddd1f85e", "killed"),
      line.notified("ab488c3d7ddd1f85e", "toolu_main_t0_0", "stopped"),
      line.level({ id: "ae2a1d0a1d260400c", description: "Slow two" }),
      line.updated("ae2a1d0a1d260400c", "killed"),
      line.notified("ae2a1d0a1d260400c", "toolu_main_t0_1", "stopped"),
    ]);
    const oneLeft = statusAfter([...twoLaunched, ...killed.slice(0, 3)]);
    expect(oneLeft).toEqual({ status: "running", backgroundAgents: 1 });
    const before = statusAfter([...twoLaunched, ...killed]);
    // The level still lists nothing new: the last entry is gone only with the empty set.
    expect(before.status).toBe("running");
    const after = modelOf([...twoLaunched, ...killed, ...eventsOf([line.level()])]).transcript();
    expect(after).toEqual(expect.objectContaining({ status: "idle" }));
    expect(after.backgroundAgents).toBeUndefined();
    expect(recordOf(after, "toolu_main_t0_0")?.status).toBe("stopped");
  });

  it("an agent that finishes keeps the session working until the turn that hands its report over has answered", () => {
    const model = modelOf(twoLaunched);
    const seen: string[] = [];
    const steps = eventsOf([
      line.text("msg_sub_a", "A done", "toolu_main_t0_0"),
      line.updated("ab488c3d7ddd1f85e", "completed"),
      line.notified("ab488c3d7ddd1f85e", "toolu_main_t0_0", "completed"),
      line.level({ id: "ae2a1d0a1d260400c", description: "Slow two" }),
      line.text("msg_sub_b", "B done", "toolu_main_t0_1"),
      line.updated("ae2a1d0a1d260400c", "completed"),
      line.notified("ae2a1d0a1d260400c", "toolu_main_t0_1", "completed"),
      line.level(),
      // The notification turn: no prompt of the person's, the CLI's own init and result.
      line.init(),
      line.text("msg_main_t2", "Both agents finished."),
      line.result("Both agents finished."),
    ]);
    for (const event of steps) {
      model.apply([event]);
      seen.push(model.transcript().status);
    }
    expect(seen.slice(0, -1)).toEqual(seen.slice(0, -1).map(() => "running"));
    expect(seen.at(-1)).toBe("idle");
    expect(model.transcript().backgroundAgents).toBeUndefined();
  });

  it("watchers (ambient) keep nothing working; awaited runs are the turn's own, not counted as background", () => {
    const ended = [...twoLaunched, ...eventsOf([line.notified("ab488c3d7ddd1f85e", "toolu_main_t0_0", "stopped"), line.notified("ae2a1d0a1d260400c", "toolu_main_t0_1", "stopped")])];
    expect(statusAfter([...ended, ...eventsOf([line.level({ id: "w1", description: "watch", type: "local_bash", ambient: true })])])).toEqual({ status: "idle", backgroundAgents: undefined });
    expect(statusAfter([...ended, ...eventsOf([line.level({ id: "b1", description: "npm test", type: "local_bash" })])])).toEqual({ status: "running", backgroundAgents: undefined });
    expect(statusAfter([...twoLaunched.slice(0, 2), ...eventsOf([line.level({ id: "r1", description: "resumed", awaited: true })])]).backgroundAgents).toBeUndefined();
  });

  it("the level belongs to one CLI process: after it exits, nothing it listed keeps the session working", () => {
    const exited = statusAfter([...twoLaunched, { kind: "process_exit", code: 0, signal: null }]);
    expect(exited).toEqual({ status: "idle", backgroundAgents: undefined });
  });
});

/** A committed 2.1.197 recording's events, with the prompts Baton sent (stdin). */
function recorded(name: string): ClientEvent[] {
  const dir = path.join(fixtureRecordingsDir, name);
  return recordingEvents(readJsonlLines(path.join(dir, "stream.jsonl")), readStdinRecording(readJsonlLines(path.join(dir, "stdin.jsonl"))));
}

describe("session status with background agents, 2.1.197 (no background_tasks_changed)", () => {
  const events = recorded("background-subagent");
  const statuses = (): { kind: string; status: string; agents: number | undefined }[] => {
    const model = new SessionModel();
    return events.map((e) => {
      model.apply([e]);
      const t = model.transcript();
      return { kind: e.kind, status: t.status, agents: t.backgroundAgents };
    });
  };

  it("the recording holds no level: the hub's cards are all it has", () => {
    expect(events.some((e) => e.kind === "background_tasks")).toBe(false);
    expect(events.filter((e) => e.kind === "turn_result").length).toBe(2);
  });

  it("working from the prompt until the notification turn's result, never idle between; then idle", () => {
    const seen = statuses();
    const results = seen.flatMap((s, i) => (s.kind === "turn_result" ? [i] : []));
    const [first, last] = [results[0]!, results.at(-1)!];
    expect(seen[first]).toEqual({ kind: "turn_result", status: "running", agents: 1 });
    expect(seen.slice(first, last).map((s) => `${s.kind}:${s.status}`)).toEqual(seen.slice(first, last).map((s) => `${s.kind}:running`));
    expect(seen[last]).toEqual({ kind: "turn_result", status: "idle", agents: undefined });
  });

  it("a foreground agent ends with its turn: idle at the result", () => {
    const fg = recorded("subagent");
    const model = new SessionModel();
    const seen: string[] = [];
    for (const e of fg) {
      model.apply([e]);
      if (e.kind === "turn_result") seen.push(model.transcript().status);
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s === "idle")).toBe(true);
  });
});

// The routing rules of the hub, one test each, on hand-written event sequences.

import { describe, expect, it } from "vitest";
import type { AssistantBlockEvent, ClientEvent } from "../../src/shared/events.js";
import { MaxNestedBlocks, type Block } from "../../src/shared/transcript.js";
import { allCalls, branches, ev, recordOf, run } from "./hubTestKit.js";
import { eventsOf, S } from "./cli332Lines.js";

const start = [ev.init(), ev.prompt("go")];

/** Every block, at the top level and inside every record, depth first. */
function everyBlock(blocks: readonly Block[]): Block[] {
  return blocks.flatMap((b) => [b, ...everyBlock(b.call?.subagent?.blocks ?? [])]);
}

describe("subagent records", () => {
  it.each(["Agent", "Task"])("a tool_use named %s gets a record", (name) => {
    const { t } = run([...start, ev.use("toolu_A", name, { description: "d", prompt: "p" })]);
    expect(t.blocks.at(-1)?.call?.subagent).toEqual(expect.objectContaining({ toolUseId: "toolu_A", description: "d", prompt: "p", status: "running" }));
  });

  it("any tool whose input names a subagent_type gets a record; others do not", () => {
    const { t } = run([...start, ev.use("toolu_X", "Spawn", { subagent_type: "Explore" }), ev.use("toolu_B", "Bash", { command: "ls" })]);
    expect(recordOf(t, "toolu_X")?.subagentType).toBe("Explore");
    expect(recordOf(t, "toolu_B")).toBeUndefined();
  });

  it("task_started fills the record whether it comes before or after the tool_use", () => {
    const after = run([...start, ev.agent("toolu_A", "d"), ev.started("a1", "toolu_A")]).t;
    const before = run([...start, ev.started("a1", "toolu_A"), ev.agent("toolu_A", "d")]).t;
    for (const t of [after, before]) {
      expect(recordOf(t, "toolu_A")).toEqual(expect.objectContaining({ taskId: "a1", description: "task a1", prompt: "prompt of a1" }));
      expect(t.blocks.filter((b) => b.kind === "tool")).toHaveLength(1);
    }
  });

  it("a SendMessage continuation's task events go to the original record", () => {
    const { t } = run([
      ...start,
      ev.agent("toolu_A", "d"),
      ev.started("a1", "toolu_A"),
      ev.agentDone("toolu_A", "first answer", "a1"),
      ev.use("toolu_SM", "SendMessage", { to: "a1", message: "more" }),
      ev.started("a1", "toolu_SM", { prompt: "more" }),
      ev.result("toolu_SM", "resumed in the background"),
      ev.use("toolu_in", "Bash", { command: "echo more" }, "toolu_A"),
      ev.progress("a1", "Running more"),
      ev.notified("a1", "completed", "more done"),
    ]);
    const record = recordOf(t, "toolu_A");
    expect(record?.progressLine).toBe("Running more");
    expect(record?.status).toBe("completed");
    expect(record?.blocks.map((b) => b.id)).toEqual(["toolu_in"]);
    expect(recordOf(t, "toolu_SM")).toBeUndefined();
  });

  it("a continued run counts on top of the runs before it, keeps running past its turn's end, and restores the same", () => {
    const usage = (tool_uses: number, duration_ms: number) => ({ total_tokens: 50 + tool_uses, tool_uses, duration_ms });
    const ran = (toolUseId: string) => [
      ev.use("toolu_in", "Bash", { command: "echo more" }, "toolu_A"),
      { kind: "task_progress", taskId: "a1", toolUseId, description: "Running more", lastToolName: "Bash", usage: usage(1, 40) },
    ] as ClientEvent[];
    const done = (toolUseId: string, summary: string): ClientEvent => ({ kind: "task_notification", taskId: "a1", toolUseId, status: "completed", summary, usage: usage(2, 70) });
    const firstRun = [...start, ev.agent("toolu_A", "d"), ev.started("a1", "toolu_A"), ev.agentDone("toolu_A", "first answer", "a1")];
    const resume = [ev.use("toolu_SM", "SendMessage", { to: "a1", message: "more" }), ev.result("toolu_SM", "resumed in the background")];
    // Live: the run's task_started names the SendMessage call, and the conductor's turn ends first.
    const liveRunning = run([...firstRun, ...resume, ev.started("a1", "toolu_SM", { prompt: "more" }), ...ran("toolu_SM"), ev.turnEnd()]).t;
    expect(recordOf(liveRunning, "toolu_A")).toEqual(expect.objectContaining({ status: "running", toolUses: 4, durationMs: 1274 }));
    // The live notification's summary is only a label; the run's answer is its last text.
    const live = run([
      ...firstRun,
      ...resume,
      ev.started("a1", "toolu_SM", { prompt: "more" }),
      ...ran("toolu_SM"),
      ev.text("u-more", "more done", "toolu_A"),
      ev.turnEnd(),
      done("toolu_SM", 'Agent "d" finished'),
    ]).t;
    // Restored: no task_started on disk; the run's notification (a <task-notification> prompt) names the SendMessage
    // call, and its summary is the run's answer (its <result>).
    const restored = run([...firstRun, ...resume, ev.turnEnd(), done("toolu_SM", "more done")]).t;
    for (const t of [live, restored]) {
      // The first run's result said 3 tool uses in 1234 ms; this run made 2 in 70 ms. Tokens are the latest context, not a sum.
      expect(recordOf(t, "toolu_A")).toEqual(expect.objectContaining({ status: "completed", toolUses: 5, durationMs: 1304, totalTokens: 52, summaryMarkdown: "more done" }));
    }
  });
});

describe("routing by parent tool_use id", () => {
  it("subagent text and tool calls go into the record, the prompt echo becomes its prompt", () => {
    const { t, model } = run([
      ...start,
      // No prompt in the input: the record's prompt can only come from the echo.
      ev.use("toolu_A", "Agent", { description: "d", subagent_type: "general-purpose" }),
      ev.prompt("the real prompt", "toolu_A"),
      ev.text("u1", "sub thinking aloud", "toolu_A"),
      ev.use("toolu_s1", "Bash", { command: "ls" }, "toolu_A"),
      ev.result("toolu_s1", "file", "toolu_A"),
    ]);
    expect(t.blocks.map((b) => b.kind)).toEqual(["user", "tool"]);
    const record = recordOf(t, "toolu_A");
    expect(record?.blocks.map((b) => b.kind)).toEqual(["text", "tool"]);
    expect(record?.prompt).toBe("the real prompt");
    expect(everyBlock(t.blocks).filter((b) => b.kind === "user").map((b) => b.text)).toEqual(["go"]);
    expect(model.findToolCall("toolu_s1")).toEqual(expect.objectContaining({ status: "completed", result: { text: "file", isError: false } }));
  });

  it("a parent id that matches no record gets a card of its own: a subagent's blocks never read as the conductor's", () => {
    const { t } = run([...start, ev.text("u1", "lost", "toolu_nobody"), ev.use("toolu_x", "Bash", {}, "toolu_nobody")]);
    expect(t.blocks.map((b) => b.id)).toEqual([expect.any(String), "toolu_nobody"]);
    expect(t.blocks[1]?.call?.name).toBe("Agent");
    expect(recordOf(t, "toolu_nobody")?.blocks.map((b) => b.id)).toEqual(["u1:0", "toolu_x"]);
    // Its call's description was never read: the agent's own prompt names the card, on one line.
    const prompted = run([...start, ev.prompt("Look through\n  the config   files for stale keys", "toolu_nobody"), ev.text("u1", "lost", "toolu_nobody")]).t;
    expect(recordOf(prompted, "toolu_nobody")).toMatchObject({ description: "Look through the config files for stale keys", prompt: "Look through\n  the config   files for stale keys" });
    // A card whose call was read keeps its own description.
    expect(recordOf(run([...start, ev.agent("toolu_A", "d"), ev.prompt("the prompt", "toolu_A")]).t, "toolu_A")?.description).toBe("d");
  });

  it("blocks that came before their Agent call sit in a card for it, which the call then takes over; sent again, nothing is added", () => {
    const early = [ev.text("u1", "before the card", "toolu_A"), ev.use("toolu_s1", "Bash", {}, "toolu_A")];
    const { t } = run([...start, ...early, ev.agent("toolu_A", "d"), ...early, ev.result("toolu_s1", "ok", "toolu_A")]);
    expect(t.blocks.map((b) => b.id)).toEqual([expect.any(String), "toolu_A"]);
    expect(t.blocks[1]?.call).toMatchObject({ name: "Agent", input: { description: "d" } });
    expect(recordOf(t, "toolu_A")).toMatchObject({ description: "d", blocks: [{ id: "u1:0" }, { id: "toolu_s1", call: { status: "completed" } }] });
    expect(recordOf(t, "toolu_A")?.blocks).toHaveLength(2);
  });

  it("events for a completed record (lazy history load) append without changing its status, and are not duplicated", () => {
    const live = [...start, ev.agent("toolu_A", "d"), ev.started("a1", "toolu_A"), ev.use("toolu_s1", "Bash", {}, "toolu_A"), ev.result("toolu_s1", "ok", "toolu_A"), ev.agentDone("toolu_A", "done", "a1"), ev.turnEnd()];
    const sidechain = [ev.text("u-side", "thought from disk", "toolu_A"), ev.use("toolu_s1", "Bash", {}, "toolu_A"), ev.result("toolu_s1", "ok", "toolu_A")];
    const { t } = run([...live, ...sidechain, ...sidechain]);
    const record = recordOf(t, "toolu_A");
    expect(record?.status).toBe("completed");
    expect(record?.blocks.map((b) => b.id)).toEqual(["toolu_s1", "u-side:0"]);
  });
});

describe("streaming", () => {
  const delta = (parent: string | null, event: object) => ({ kind: "stream_delta", parentToolUseId: parent, event }) as const;
  const msg = "msg_1";
  const opening = [
    delta(null, { type: "message_start", message: { id: msg } }),
    delta(null, { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    delta(null, { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } }),
    delta(null, { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "lo" } }),
  ];

  it("deltas build a streaming block that the complete assistant line replaces in place", () => {
    const streaming = run([...start, ...opening] as never).t;
    expect(streaming.blocks.at(-1)).toEqual(expect.objectContaining({ kind: "text", text: "Hello", streaming: true }));
    const done = run([...start, ...opening, ev.text("u1", "Hello", null, msg), delta(null, { type: "content_block_stop", index: 0 })] as never).t;
    expect(done.blocks.filter((b) => b.kind === "text")).toEqual([expect.objectContaining({ id: "u1:0", text: "Hello" })]);
    expect(done.blocks.at(-1)?.streaming).toBeUndefined();
  });

  it("stream events with a parent id never touch the top level, even between a top-level message's events", () => {
    const sub = (event: object) => delta("toolu_A", event);
    // A whole parented message (the same block index as the top-level one) inside the top-level stream.
    const events = [
      ...start,
      ev.agent("toolu_A", "d"),
      opening[0],
      sub({ type: "message_start", message: { id: "msg_sub" } }),
      opening[1],
      sub({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
      opening[2],
      sub({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "SUB" } }),
      sub({ type: "content_block_stop", index: 0 }),
      sub({ type: "message_delta", delta: { stop_reason: "end_turn" } }),
      sub({ type: "message_stop" }),
      opening[3],
    ] as ClientEvent[];
    const streaming = run(events).t;
    expect(streaming.blocks.map((b) => b.id)).toEqual([expect.any(String), "toolu_A", `${msg}:stream:0`]);
    expect(streaming.blocks.at(-1)).toEqual(expect.objectContaining({ kind: "text", text: "Hello", streaming: true }));
    expect(recordOf(streaming, "toolu_A")?.blocks).toEqual([]);
    const done = run([
      ...events,
      sub({ type: "message_start", message: { id: "msg_sub2" } }),
      ev.text("u1", "Hello", null, msg),
      sub({ type: "message_stop" }),
      delta(null, { type: "content_block_stop", index: 0 }),
      delta(null, { type: "message_delta", delta: { stop_reason: "end_turn" } }),
      delta(null, { type: "message_stop" }),
    ] as ClientEvent[]).t;
    expect(done.blocks.map((b) => b.id)).toEqual([expect.any(String), "toolu_A", "u1:0"]);
    expect(done.blocks.at(-1)).toEqual({ kind: "text", id: "u1:0", text: "Hello" });
  });

  it("a stream cut off by the end of the turn keeps its text and stops streaming", () => {
    const { t } = run([...start, ...opening, ev.turnEnd()] as never);
    expect(t.blocks.find((b) => b.kind === "text")).toEqual(expect.objectContaining({ text: "Hello", streaming: false }));
  });
});

describe("nested agents", () => {
  it("depth 2: a task_started that names an Agent call inside a subagent makes a child card there, even before the tool_use", () => {
    const { t } = run([
      ...start,
      ev.agent("toolu_A", "outer"),
      ev.started("a_out", "toolu_A"),
      ev.progress("a_out", "inner", "Agent"),
      ev.started("a_in", "toolu_sub_1", { description: "inner" }),
      ev.agent("toolu_sub_1", "inner", "toolu_A"),
      ev.progress("a_in", "Running echo"),
      // The inner agent's own Bash never appears on stdout; its permission request does.
      ev.ask("req_in", "toolu_subB_0", "a_in"),
      ev.answer("req_in", "deny"),
      ev.notified("a_in", "completed", "inner done"),
    ]);
    const inner = recordOf(t, "toolu_A")?.blocks.find((b) => b.id === "toolu_sub_1")?.call?.subagent;
    expect(inner).toEqual(expect.objectContaining({ taskId: "a_in", spawnDepth: 2, status: "completed", progressLine: "Running echo" }));
    expect(inner?.permissionHistory).toEqual([expect.objectContaining({ requestId: "req_in", toolUseId: "toolu_subB_0", state: "denied" })]);
    expect(t.blocks.some((b) => b.id === "toolu_sub_1")).toBe(false);
  });

  // Depth 3 on 2.1.197, which streams nothing below depth 1 but task_* events
  // (docs/protocol-notes.md "Subagents"; fixtures/recordings/deep-nesting): the deepest agent's
  // Agent call is in the middle agent's sidechain, never on stdout. The middle agent's
  // task_progress (last_tool_name "Agent", the call's description) says who is calling; the
  // deepest agent's task events name the unseen call.
  const deep = {
    before: [ev.progress("a_mid", "deepest", "Agent"), ev.started("a_deep", "toolu_hidden", { description: "deepest" })],
    after: [ev.started("a_deep", "toolu_hidden", { description: "deepest" }), ev.progress("a_mid", "deepest", "Agent")],
  };
  const middle = [...start, ev.agent("toolu_A", "outer"), ev.started("a_out", "toolu_A"), ev.agent("toolu_B", "middle", "toolu_A"), ev.started("a_mid", "toolu_B")];
  const deepRuns = [
    ev.progress("a_deep", "Running ls"),
    ev.ask("req_deep", "toolu_hidden_bash", "a_deep"),
    ev.answer("req_deep", "allow"),
    ev.updated("a_deep", "completed"),
    ev.notified("a_deep", "completed", "deep done"),
  ];

  it.each(["before", "after"] as const)("depth 3: with the caller's hint %s the task_started, the deepest card shows live inside the middle agent's", (order) => {
    const { t, model } = run([...middle, ...deep[order], ...deepRuns, ev.turnEnd()]);
    expect(t.blocks.map((b) => b.kind)).toEqual(["user", "tool"]);
    const mid = recordOf(t, "toolu_B");
    expect(mid?.blocks.map((b) => b.id)).toEqual(["toolu_hidden"]);
    const card = mid?.blocks[0]?.call;
    expect(card).toEqual(expect.objectContaining({ name: "Agent", input: { description: "deepest", prompt: "prompt of a_deep", subagent_type: "general-purpose" } }));
    expect(card?.subagent).toEqual(expect.objectContaining({ taskId: "a_deep", status: "completed", progressLine: "Running ls", spawnDepth: 3 }));
    expect(card?.subagent?.permissionHistory).toEqual([expect.objectContaining({ requestId: "req_deep", state: "allowed" })]);
    // Its result is never streamed: the call ends as its subagent did, not stopped.
    expect(card?.status).toBe("completed");
    expect(model.findToolCall("toolu_hidden")).toBeDefined();
    // The real call, once the middle agent's sidechain is read, takes the stand-in's place.
    model.apply([ev.use("toolu_hidden", "Agent", { description: "deepest", prompt: "the real prompt", subagent_type: "Explore", model: "haiku" }, "toolu_B")]);
    const later = model.transcript();
    const replaced = recordOf(later, "toolu_B")?.blocks ?? [];
    expect(replaced.map((b) => b.id)).toEqual(["toolu_hidden"]);
    expect(replaced[0]?.call?.input).toEqual({ description: "deepest", prompt: "the real prompt", subagent_type: "Explore", model: "haiku" });
    expect(replaced[0]?.call?.subagent).toEqual(expect.objectContaining({ taskId: "a_deep", status: "completed", progressLine: "Running ls" }));
    expect(model.findToolCall("toolu_hidden")).toBe(replaced[0]?.call);
    // The transcript taken before still shows the stand-in.
    expect(recordOf(t, "toolu_B")?.blocks[0]?.call?.input).toEqual({ description: "deepest", prompt: "prompt of a_deep", subagent_type: "general-purpose" });
  });

  it("depth 3: an ambiguous hint places nothing; the record waits for its call", () => {
    const twoMiddles = [...middle, ev.agent("toolu_C", "middle 2", "toolu_A"), ev.started("a_mid2", "toolu_C"), ev.progress("a_mid2", "deepest", "Agent")];
    const { t, model } = run([...twoMiddles, ...deep.before, ...deepRuns, ev.turnEnd()]);
    expect(allCalls(t).map((c) => c.call.toolUseId)).toEqual(["toolu_A", "toolu_B", "toolu_C"]);
    expect(model.findToolCall("toolu_hidden")).toBeUndefined();
    // If the call turns up later (history), the pending record is attached with what it learned.
    model.apply([ev.agent("toolu_hidden", "deepest", "toolu_C")]);
    const later = model.transcript();
    expect(recordOf(later, "toolu_C")?.blocks.map((b) => b.id)).toEqual(["toolu_hidden"]);
    expect(recordOf(later, "toolu_hidden")).toEqual(expect.objectContaining({ taskId: "a_deep", status: "completed", progressLine: "Running ls", spawnDepth: 3 }));
  });

  it("depth 2: a task_started before its streamed Agent call makes no stand-in, even with its caller's hint", () => {
    const events = [...start, ev.agent("toolu_A", "outer"), ev.started("a_out", "toolu_A"), ev.progress("a_out", "middle", "Agent"), ev.started("a_mid", "toolu_B", { description: "middle" })];
    const { t: before } = run(events);
    expect(recordOf(before, "toolu_A")?.blocks).toEqual([]);
    const { t } = run([...events, ev.agent("toolu_B", "middle", "toolu_A", { model: "haiku" })]);
    const blocks = recordOf(t, "toolu_A")?.blocks ?? [];
    expect(blocks.map((b) => b.id)).toEqual(["toolu_B"]);
    expect(blocks[0]?.call?.input).toEqual(expect.objectContaining({ model: "haiku" }));
  });

  // A Bash that runs longer than about 3 s is a task too (task_type "local_bash"): its
  // task_started names the Bash call, which a local_agent task_started would turn into a card
  // (after the tool_use) or a draft record that the tool_use then picks up (before it), and its
  // notification would settle that card.
  it.each(["before", "after"])("a local_bash task_started %s its Bash call makes no card, and its task events leave the call alone", (order) => {
    const bash = (id: string, parent: string | null) => ev.use(id, "Bash", { command: "sleep 5" }, parent);
    const started = (task: string, id: string) => ev.started(task, id, { taskType: "local_bash", subagentType: undefined, prompt: undefined });
    const both = (task: string, id: string, parent: string | null) => (order === "before" ? [started(task, id), bash(id, parent)] : [bash(id, parent), started(task, id)]);
    const running = [
      ...start,
      ...both("b1", "toolu_b", null),
      ev.agent("toolu_A", "fg"),
      ev.started("a1", "toolu_A"),
      ...both("b2", "toolu_sb", "toolu_A"),
      ev.notified("b1", "completed", "slow"),
      ev.notified("b2", "stopped", "slow"),
    ];
    const mid = run(running);
    expect(allCalls(mid.t).filter((c) => c.call.subagent !== undefined).map((c) => c.call.toolUseId)).toEqual(["toolu_A"]);
    expect(recordOf(mid.t, "toolu_A")?.blocks.map((b) => b.id)).toEqual(["toolu_sb"]);
    expect(mid.model.findToolCall("toolu_b")?.status).toBe("running");
    expect(mid.model.findToolCall("toolu_sb")?.status).toBe("running");
    const { model } = run([...running, ev.result("toolu_b", "Exit code 1\nslow", null, { isError: true }), ev.result("toolu_sb", "slept", "toolu_A")]);
    expect(model.findToolCall("toolu_b")).toEqual(expect.objectContaining({ status: "failed", result: { text: "Exit code 1\nslow", isError: true } }));
    expect(model.findToolCall("toolu_sb")).toEqual(expect.objectContaining({ status: "completed", result: { text: "slept", isError: false } }));
    expect(model.findToolCall("toolu_b")?.subagent).toBeUndefined();
    expect(model.findToolCall("toolu_sb")?.subagent).toBeUndefined();
    expect(model.findToolCall("toolu_A")?.subagent?.status).toBe("running");
  });
});

describe("status", () => {
  const bg = [...start, ev.agent("toolu_A", "bg", null, { run_in_background: true }), ev.started("a1", "toolu_A"), ev.result("toolu_A", "Async agent launched", null, { structured: { isAsync: true, status: "async_launched", agentId: "a1" } })];

  it("a background agent stays running after its launch result and its turn, then completes on its notification", () => {
    const mid = run([...bg, ev.turnEnd(), ev.use("toolu_s", "Bash", {}, "toolu_A")]);
    expect(recordOf(mid.t, "toolu_A")).toEqual(expect.objectContaining({ status: "running", background: true }));
    expect(mid.model.findToolCall("toolu_s")?.status).toBe("running");
    const done = run([...bg, ev.turnEnd(), ev.notified("a1", "completed", 'Agent "bg" finished')]).t;
    expect(recordOf(done, "toolu_A")?.status).toBe("completed");
  });

  it("a background agent completes on a terminal task_updated alone", () => {
    expect(recordOf(run([...bg, ev.turnEnd(), ev.updated("a1", "completed")]).t, "toolu_A")?.status).toBe("completed");
  });

  it("foreground subagents and tool calls still running at turn end become stopped", () => {
    const { t, model } = run([...start, ev.agent("toolu_A", "fg"), ev.started("a1", "toolu_A"), ev.use("toolu_s", "Bash", {}, "toolu_A"), ev.use("toolu_m", "Read", {}), ev.turnEnd()]);
    expect(recordOf(t, "toolu_A")?.status).toBe("stopped");
    expect(model.findToolCall("toolu_s")?.status).toBe("stopped");
    expect(model.findToolCall("toolu_m")?.status).toBe("stopped");
  });

  it("an interrupt stops foreground work; killed maps to stopped", () => {
    const { t } = run([...start, ev.agent("toolu_A", "fg"), ev.started("a1", "toolu_A"), { kind: "interrupt_marker", parentToolUseId: null, text: "[Request interrupted by user]" }]);
    expect(recordOf(t, "toolu_A")?.status).toBe("stopped");
    expect(recordOf(run([...start, ev.agent("toolu_A", "fg"), ev.started("a1", "toolu_A"), ev.updated("a1", "killed")]).t, "toolu_A")?.status).toBe("stopped");
  });

  it.each([
    ["task_updated", ev.updated("a1", "stopped")],
    ["task_notification", ev.notified("a1", "stopped")],
  ])("%s with status stopped stops the card and the call it was running", (_kind, stopped) => {
    const { t, model } = run([...start, ev.agent("toolu_A", "fg"), ev.started("a1", "toolu_A"), ev.use("toolu_s", "Bash", {}, "toolu_A"), stopped]);
    expect(recordOf(t, "toolu_A")?.status).toBe("stopped");
    expect(model.findToolCall("toolu_s")?.status).toBe("stopped");
  });

  it("the final tool_result has the last word over task events", () => {
    const { t } = run([...start, ev.agent("toolu_A", "fg"), ev.started("a1", "toolu_A"), ev.updated("a1", "killed"), ev.agentDone("toolu_A", "all good", "a1"), ev.notified("a1", "stopped")]);
    expect(recordOf(t, "toolu_A")).toEqual(
      expect.objectContaining({ status: "completed", model: "claude-sub", durationMs: 1234, totalTokens: 999, toolUses: 3, summaryMarkdown: "all good" }),
    );
  });

  it("a subagent answering with a synthetic API error is failed with the error visible", () => {
    const { t } = run([...start, ev.agent("toolu_A", "fg"), ev.started("a1", "toolu_A"), ev.notified("a1", "completed"), ev.agentDone("toolu_A", "API Error: 400 bad request", "a1")]);
    expect(recordOf(t, "toolu_A")).toEqual(expect.objectContaining({ status: "failed", summaryMarkdown: "API Error: 400 bad request" }));
  });

  it("tool status: failed on is_error, denied on denial text", () => {
    const { model } = run([...start, ev.use("t1", "Bash", {}), ev.result("t1", "Exit code 3", null, { isError: true }), ev.use("t2", "Bash", {}), ev.result("t2", "The user doesn't want to proceed with this tool use.", null, { isError: true })]);
    expect(model.findToolCall("t1")?.status).toBe("failed");
    expect(model.findToolCall("t2")?.status).toBe("denied");
  });

  // TaskStop kills a background agent; the CLI answers the Bash it was running with the text a
  // rejected call gets (recording taskstop-background). That call was cut, not refused.
  it.each([
    ["no request was made", [], "stopped"],
    ["its request was denied", [ev.ask("req_b", "toolu_b", "a_bg"), ev.answer("req_b", "deny", "no")], "denied"],
  ] as const)("a call cut by TaskStop is stopped when %s", (_case, asked, status) => {
    const rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";
    const events = [
      ...start,
      ev.agent("toolu_bg", "slow", null, { run_in_background: true }),
      ev.started("a_bg", "toolu_bg"),
      ev.use("toolu_b", "Bash", { command: "sleep 20" }, "toolu_bg"),
      ...asked,
      ev.use("toolu_stop", "TaskStop", { task_id: "a_bg" }),
      ev.updated("a_bg", "killed"),
      ev.result("toolu_stop", '{"message":"Successfully stopped task: a_bg (slow)","task_id":"a_bg"}'),
      ev.result("toolu_b", rejected, "toolu_bg", { isError: true, structured: "User rejected tool use" }),
    ];
    const { model } = run(events);
    expect(model.findToolCall("toolu_b")?.status).toBe(status);
    // With nothing killing the agent, the same rejection is a refusal (a person can reject a call in a terminal).
    const stopping = (e: ClientEvent): boolean =>
      ("toolUseId" in e && e.toolUseId === "toolu_stop") || (e.kind === "assistant_block" && e.block.type === "tool_use" && e.block.id === "toolu_stop") || e.kind === "task_updated";
    const { model: plain } = run(events.filter((e) => !stopping(e)));
    expect(plain.findToolCall("toolu_b")?.status).toBe("denied");
  });

  // CLI 2.1.332: an interrupt kills the background agents, and their open calls' rejections are
  // streamed after the task events said so (recordings interrupt-subagent and
  // interrupt-pending-permission): the person's interrupt cut those calls, nobody refused them.
  const rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";
  const killedByInterrupt = (asked: readonly ClientEvent[]): ClientEvent[] => [
    ...start,
    ev.agent("toolu_bg", "slow", null, { run_in_background: true }),
    ev.started("a_bg", "toolu_bg"),
    ev.use("toolu_b", "Bash", { command: "sleep 20" }, "toolu_bg"),
    ...asked,
    ev.updated("a_bg", "killed"),
    ev.notified("a_bg", "stopped", "slow"),
    ev.result("toolu_b", rejected, "toolu_bg", { isError: true, structured: "User rejected tool use" }),
  ];

  it("a background agent's call cut by an interrupt is stopped, though its rejection streams after the kill", () => {
    const { model } = run(killedByInterrupt([]));
    expect(model.findToolCall("toolu_b")?.status).toBe("stopped");
    expect(recordOf(model.transcript(), "toolu_bg")?.status).toBe("stopped");
  });

  it("a call whose question the interrupt withdrew is stopped, though the turn's permission_denials list it", () => {
    const cancelled: ClientEvent = { kind: "permission_cancelled", requestId: "req_b" };
    const denials = { permissionDenials: [{ toolName: "Bash", toolUseId: "toolu_b" }] };
    const { model } = run([...killedByInterrupt([ev.ask("req_b", "toolu_b", "a_bg"), cancelled]), ev.turnEnd(undefined, denials)]);
    expect(model.findToolCall("toolu_b")).toMatchObject({ status: "stopped", permission: { state: "cancelled" } });
    // A question the person answered "no" stays denied, killed agent or not.
    const { model: refused } = run([...killedByInterrupt([ev.ask("req_b", "toolu_b", "a_bg"), ev.answer("req_b", "deny", "no")]), ev.turnEnd(undefined, denials)]);
    expect(refused.findToolCall("toolu_b")?.status).toBe("denied");
  });

  it("a killed agent that a SendMessage runs again: the new run's rejections are refusals again", () => {
    const { model } = run([
      ...killedByInterrupt([]),
      ev.use("toolu_SM", "SendMessage", { to: "a_bg", message: "go on" }),
      ev.started("a_bg", "toolu_SM", { prompt: "go on" }),
      ev.use("toolu_c", "Bash", { command: "touch y" }, "toolu_bg"),
      ev.result("toolu_c", rejected, "toolu_bg", { isError: true, structured: "User rejected tool use" }),
    ]);
    expect(model.findToolCall("toolu_b")?.status).toBe("stopped");
    expect(model.findToolCall("toolu_c")?.status).toBe("denied");
  });

  // What the CLI (2.1.197) answers in default mode when no permission prompt tool can ask anyone: it
  // refuses the call itself, sends no control request, and its tool_result is the refusal text. The
  // call is denied, not failed, before the turn's permission_denials say so.
  it.each([
    ["Write", "Claude requested permissions to write to /home/user/notes.txt, but you haven't granted it yet."],
    ["WebFetch", "Claude requested permissions to use WebFetch, but you haven't granted it yet."],
    ["Bash", "touch in '/home/user/code/x/a.txt' was blocked. For security, Claude Code may only create or modify files in the allowed working directories for this session: '/home/user/code/x'."],
  ])("a %s call auto-denied for want of a prompt is denied", (name, text) => {
    const { model } = run([...start, ev.use("t1", name, {}), ev.result("t1", text, null, { isError: true, structured: `Error: ${text}` })]);
    expect(model.findToolCall("t1")?.status).toBe("denied");
  });
});

describe("live card data", () => {
  it("task_progress feeds the card; the tool_result text beats the notification summary and loses its trailer", () => {
    const events = [...start, ev.agent("toolu_A", "fg"), ev.started("a1", "toolu_A"), ev.progress("a1", "Running ls", "Bash", 77)];
    expect(recordOf(run(events).t, "toolu_A")).toEqual(expect.objectContaining({ progressLine: "Running ls", lastToolName: "Bash", totalTokens: 77, toolUses: 1, durationMs: 5 }));
    expect(recordOf(run([...events, ev.notified("a1", "completed", "short")]).t, "toolu_A")?.summaryMarkdown).toBe("short");
    const plain = { ...(ev.agentDone("toolu_A", "Final **answer**", "a1") as object), structured: undefined };
    expect(recordOf(run([...events, ev.notified("a1", "completed", "short"), plain as never]).t, "toolu_A")?.summaryMarkdown).toBe("Final **answer**");
  });

  it(`keeps at most ${MaxNestedBlocks} nested blocks and counts the dropped ones`, () => {
    const extra = 7;
    const nested = Array.from({ length: MaxNestedBlocks + extra }, (_, i) => ev.text(`u${i}`, `step ${i}`, "toolu_A"));
    const { t } = run([...start, ev.agent("toolu_A", "fg"), ev.use("toolu_first", "Bash", {}, "toolu_A"), ...nested, ev.result("toolu_first", "late", "toolu_A")]);
    const record = recordOf(t, "toolu_A");
    expect(record?.blocks).toHaveLength(MaxNestedBlocks);
    expect(record?.droppedBlockCount).toBe(extra + 1);
    expect(record?.blocks.at(-1)?.text).toBe(`step ${MaxNestedBlocks + extra - 1}`);
  });
});

describe("the nested block cap", () => {
  const nestedAgent = [...start, ev.agent("toolu_A", "outer"), ev.agent("toolu_B", "inner", "toolu_A"), ev.use("toolu_b1", "Bash", {}, "toolu_B")];
  const filler = Array.from({ length: MaxNestedBlocks }, (_, i) => ev.text(`f${i}`, `step ${i}`, "toolu_A"));

  it("a line of an agent whose card was dropped by its parent's cap never surfaces at the top level", () => {
    const { t } = run([...nestedAgent, ...filler, ev.text("late", "inner agent still talking", "toolu_B"), ev.result("toolu_b1", "ok", "toolu_B"), ev.use("toolu_b2", "Bash", {}, "toolu_B")]);
    expect(t.blocks.map((b) => b.id)).toEqual([expect.any(String), "toolu_A"]);
    expect(recordOf(t, "toolu_A")?.droppedBlockCount).toBe(1);
  });

  it("an agent dropped by its parent's cap is gone from the session, not only from the card", () => {
    const { model } = run([...nestedAgent, ...filler]);
    expect(model.findToolCall("toolu_B")).toBeUndefined();
    expect(model.findToolCall("toolu_b1")).toBeUndefined();
    expect(model.findToolCall("toolu_A")?.subagent?.droppedBlockCount).toBe(1);
  });

  it("a dropped call's late result and a second copy of a dropped line are ignored", () => {
    const { t } = run([...nestedAgent, ...filler, ev.result("toolu_B", "inner done", "toolu_A"), ev.text("f0", "step 0", "toolu_A")]);
    const record = recordOf(t, "toolu_A");
    expect(record?.blocks.map((b) => b.id)).toEqual(filler.map((_, i) => `f${i}:0`));
    expect(t.blocks).toHaveLength(2);
  });

  it("a turn-end denial finds a nested call that already has its result", () => {
    const events = [...start, ev.agent("toolu_A", "d"), ev.use("toolu_s1", "Bash", {}, "toolu_A"), ev.result("toolu_s1", "Bash failed: refused", "toolu_A", { isError: true })];
    const { t } = run([...events, ev.turnEnd(undefined, { permissionDenials: [{ toolName: "Bash", toolUseId: "toolu_s1", toolInput: {} }] })]);
    expect(recordOf(t, "toolu_A")?.blocks[0]?.call?.status).toBe("denied");
  });
});

describe("permissions", () => {
  it("main agent: the request after the tool_use marks it pending, the answer decides", () => {
    const askedEvents = [...start, ev.use("t1", "Bash", {}), ev.ask("r1", "t1")];
    const asked = run(askedEvents).model;
    expect(asked.findToolCall("t1")).toEqual(expect.objectContaining({ status: "pending", permission: { requestId: "r1", state: "asked" } }));
    const [denied, allowed] = branches(askedEvents, [ev.answer("r1", "deny", "no")], [ev.answer("r1", "allow")]);
    expect(denied.findToolCall("t1")).toEqual(expect.objectContaining({ status: "denied", permission: expect.objectContaining({ state: "denied", decidedBy: "user", message: "no" }) }));
    expect(allowed.findToolCall("t1")?.status).toBe("running");
  });

  it("foreground subagent: the request before its tool_use lands on the call and in the record's history", () => {
    const { model, t } = run([...start, ev.agent("toolu_A", "fg"), ev.started("a1", "toolu_A"), ev.ask("r1", "toolu_s", "a1"), ev.answer("r1", "allow"), ev.use("toolu_s", "Bash", {}, "toolu_A")]);
    expect(model.findToolCall("toolu_s")).toEqual(expect.objectContaining({ status: "running", permission: expect.objectContaining({ state: "allowed" }) }));
    expect(recordOf(t, "toolu_A")?.permissionHistory).toEqual([{ requestId: "r1", toolName: "Bash", toolUseId: "toolu_s", state: "allowed", decidedBy: "user" }]);
  });

  it("a withdrawn request is cancelled", () => {
    const { model } = run([...start, ev.use("t1", "Bash", {}), ev.ask("r1", "t1"), { kind: "permission_cancelled", requestId: "r1" }]);
    expect(model.findToolCall("t1")).toEqual(expect.objectContaining({ status: "running", permission: { requestId: "r1", state: "cancelled" } }));
  });
});

describe("session", () => {
  it("init repeated every turn updates the header only; status runs from prompt to result; cost is per process", () => {
    const { t } = run([ev.init("s-1"), ev.prompt("one"), ev.turnEnd(0.5), ev.init("s-1"), ev.prompt("two"), ev.turnEnd(0.75), { kind: "process_exit", code: 0, signal: null }, ev.init("s-1"), ev.turnEnd(0.25)]);
    expect(t.blocks.map((b) => b.kind)).toEqual(["user", "user"]);
    expect(t.sessionId).toBe("s-1");
    expect(t.costUsd).toBeCloseTo(1.0);
    expect(t.status).toBe("idle");
    expect(run([ev.init(), ev.prompt("x")]).t.status).toBe("running");
  });

  it("cost on 2.1.332 is the sum of what each result says its calls since the previous one cost: a resumed or forked run's total_cost_usd carries the earlier runs", () => {
    const result = (total: number, since: number): ClientEvent => ({ kind: "turn_result", subtype: "success", isError: false, costUsd: total, sinceLastCostUsd: since });
    const exit: ClientEvent = { kind: "process_exit", code: 0, signal: null };
    // A first run of two turns (0.25, then 0.5), then a resumed run whose total_cost_usd starts from the first run's 0.75.
    const { t } = run([ev.init("s-1"), result(0.25, 0.25), result(0.75, 0.5), exit, ev.init("s-1"), result(1.0, 0.25)]);
    expect(t.costUsd).toBeCloseTo(1.0);
    expect(eventsOf([{ type: "result", subtype: "success", is_error: false, total_cost_usd: 1, model_usage_since_last_result: { a: { costUSD: 0.25 }, b: { costUSD: 0.5, inputTokens: 3 } }, session_id: S }])[0]).toMatchObject({ costUsd: 1, sinceLastCostUsd: 0.75 });
  });

  it("the context gauge follows the conductor's last model call, not the turn's sum nor a subagent's calls", () => {
    const usage = (input: number) => ({ input_tokens: input, output_tokens: 5, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0 });
    const withUsage = (e: ClientEvent, input: number): ClientEvent => ({ ...(e as AssistantBlockEvent), usage: usage(input) });
    const { t } = run([
      ...start,
      withUsage(ev.text("u1", "first call", null), 100),
      ev.agent("toolu_A", "d"),
      withUsage(ev.text("u2", "subagent call", "toolu_A"), 90_000),
      withUsage(ev.text("u3", "second call", null), 300),
      ev.turnEnd(0.1, { usage: usage(400), contextWindow: 1_000_000 }),
    ]);
    expect(t.contextUsage?.input_tokens).toBe(300);
    expect(t.usage?.input_tokens).toBe(400);
    expect(t.contextWindow).toBe(1_000_000);
  });

  it("errors become notices; status, compaction, title and a crash are shown", () => {
    const { t } = run([
      ev.init(),
      { kind: "api_retry", attempt: 1, maxRetries: 3, retryDelayMs: 500, errorStatus: 529, error: "overloaded" },
      ev.turnEnd(undefined, { isError: true, result: "API Error: 500", errors: ["diag"] }),
      { kind: "status", status: null, permissionMode: "plan" },
      { kind: "compact_boundary", trigger: "manual", preTokens: 10, postTokens: 5 },
      { kind: "title", title: "My session", source: "ai" },
      { kind: "process_exit", code: null, signal: "SIGKILL", error: "claude crashed" },
    ]);
    expect(t.blocks.map((b) => `${b.level}:${b.text}`)).toEqual([
      expect.stringMatching(/^warning:.*529.*retry 1\/3/),
      "error:API Error: 500",
      "error:diag",
      expect.stringMatching(/^info:Conversation compacted/),
      "error:claude crashed",
    ]);
    expect(t).toEqual(expect.objectContaining({ permissionMode: "plan", title: "My session", status: "error" }));
  });
});

describe("purity", () => {
  it("a transcript never changes after it is built, and models built from the same events go their own ways", () => {
    const events = [...start, ev.agent("toolu_A", "fg"), ev.started("a1", "toolu_A")];
    const [a, b] = branches(events, [], []);
    const shown = a.transcript();
    const snapshot = JSON.stringify(shown);
    a.apply([ev.use("toolu_x", "Bash", {}, "toolu_A")]);
    b.apply([ev.use("toolu_y", "Bash", {}, "toolu_A")]);
    expect(JSON.stringify(shown)).toBe(snapshot);
    expect(recordOf(shown, "toolu_A")?.blocks).toEqual([]);
    expect(a.findToolCall("toolu_y")).toBeUndefined();
    expect(b.findToolCall("toolu_x")).toBeUndefined();
    expect(recordOf(a.transcript(), "toolu_A")?.blocks.map((x) => x.id)).toEqual(["toolu_x"]);
    expect(recordOf(b.transcript(), "toolu_A")?.blocks.map((x) => x.id)).toEqual(["toolu_y"]);
    const running = a.transcript();
    a.apply([ev.result("toolu_x", "ok", "toolu_A")]);
    expect(a.findToolCall("toolu_x")?.status).toBe("completed");
    expect(recordOf(running, "toolu_A")?.blocks[0]?.call?.status).toBe("running");
  });

  it("an update inside one card shares every other block", () => {
    const { model, t: t0 } = run([...start, ev.agent("toolu_A", "a"), ev.agent("toolu_B", "b"), ev.started("a1", "toolu_A"), ev.started("b1", "toolu_B")]);
    model.apply([ev.progress("a1", "moving")]);
    const t1 = model.transcript();
    expect(t1.blocks[2]).toBe(t0.blocks[2]);
    expect(t1.blocks[0]).toBe(t0.blocks[0]);
    expect(t1.blocks[1]).not.toBe(t0.blocks[1]);
    expect(recordOf(t0, "toolu_A")?.progressLine).toBeUndefined();
    expect(recordOf(t1, "toolu_A")?.progressLine).toBe("moving");
    expect(model.transcript()).toBe(t1);
  });
});

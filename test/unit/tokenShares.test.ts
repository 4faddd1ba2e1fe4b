// Each agent card's share of its session's tokens (issue 37): the agent's own model calls'
// input-side tokens over the session's (the turn results' modelUsage, cumulative within one CLI
// process, summed over processes). Checked against the recorded subagent session of both CLIs:
// three calls of 100 input tokens each out of the process's 500.

import { describe, expect, it } from "vitest";
import { modelOf } from "../../src/main/hub/index.js";
import type { ClientEvent } from "../../src/shared/events.js";
import type { SubagentRecord } from "../../src/shared/transcript.js";
import { shareView } from "../../src/renderer/util/tokenShare.js";
import { findRecording, RECORDING_VERSIONS } from "../support/recordings.js";
import { recordOf, replayRecording } from "./hubTestKit.js";
import { eventsOf, S } from "./cli332Lines.js";

const result = (modelUsage: object) => ({ type: "result", subtype: "success", is_error: false, result: "Done.", modelUsage, session_id: S });

describe("the session's total from the turn results", () => {
  it("sums input, cache read and cache creation tokens over the models; output is left out", () => {
    const [event] = eventsOf([result({ big: { inputTokens: 100, outputTokens: 9, cacheReadInputTokens: 30, cacheCreationInputTokens: 5 }, small: { inputTokens: 20, outputTokens: 1 } })]);
    expect(event).toMatchObject({ kind: "turn_result", processInputTokens: 155 });
    expect(eventsOf([result({ odd: { inputTokens: "x" } })])[0]).toMatchObject({ processInputTokens: 0 });
    expect(eventsOf([{ type: "result", subtype: "success", is_error: false, session_id: S }])[0]).toMatchObject({ processInputTokens: undefined });
  });

  it("is cumulative within a process and adds up over processes", () => {
    const turn = (total: number): ClientEvent => ({ kind: "turn_result", subtype: "success", isError: false, processInputTokens: total });
    const exit: ClientEvent = { kind: "process_exit", code: 0, signal: null };
    expect(modelOf([turn(200), turn(500)]).transcript().sessionInputTokens).toBe(500);
    // A resumed session: the second process starts counting again.
    expect(modelOf([turn(200), turn(500), exit, turn(100), turn(300)]).transcript().sessionInputTokens).toBe(800);
    // A smaller total without an exit seen is a new process too.
    expect(modelOf([turn(500), turn(100)]).transcript().sessionInputTokens).toBe(600);
    expect(modelOf([]).transcript().sessionInputTokens).toBeUndefined();
  });

  it("sums the calls since each result where the result says them (2.1.332: a resumed run's modelUsage carries the earlier runs)", () => {
    const since = (cumulative: number, turn: number) =>
      eventsOf([{ ...result({ m: { inputTokens: cumulative } }), model_usage_since_last_result: { m: { inputTokens: turn - 10, cacheReadInputTokens: 10, outputTokens: 3 } } }])[0]!;
    expect(since(300, 100)).toMatchObject({ kind: "turn_result", processInputTokens: 300, sinceLastInputTokens: 100 });
    const exit: ClientEvent = { kind: "process_exit", code: 0, signal: null };
    // A first run of two turns (100, then 200), then a resumed run whose modelUsage starts from the first run's 300.
    expect(modelOf([since(100, 100), since(300, 200), exit, since(350, 50)]).transcript().sessionInputTokens).toBe(350);
    // A fork's run: its modelUsage holds the original's whole session; the turns it continues count from their lines.
    const earlier: ClientEvent = { kind: "assistant_block", messageId: "msg_1", parentToolUseId: null, block: { type: "text", text: "Earlier." }, usage: { input_tokens: 100 } };
    expect(modelOf([earlier, exit, since(900, 100)]).transcript().sessionInputTokens).toBe(200);
  });

  it("counts the calls no total covers from their own lines: a fork's earlier turns, then its process", () => {
    const call: ClientEvent = { kind: "assistant_block", messageId: "msg_1", parentToolUseId: null, block: { type: "text", text: "Earlier." }, usage: { input_tokens: 100 } };
    const turn = (total: number): ClientEvent => ({ kind: "turn_result", subtype: "success", isError: false, processInputTokens: total });
    const exit: ClientEvent = { kind: "process_exit", code: 0, signal: null };
    // The fork's tab shows the turns it continues (read from history, in no process's total), then its own process's results.
    expect(modelOf([call, exit, turn(300)]).transcript().sessionInputTokens).toBe(400);
    // Covered by a result before the exit: counted once.
    expect(modelOf([call, turn(100), exit, turn(300)]).transcript().sessionInputTokens).toBe(400);
  });
});

describe("calls no process total covers", () => {
  const turn = (total: number): ClientEvent => ({ kind: "turn_result", subtype: "success", isError: false, processInputTokens: total });
  const exit = (error?: string): ClientEvent => ({ kind: "process_exit", code: error === undefined ? 0 : 1, signal: null, ...(error !== undefined ? { error } : {}) });
  const line = (messageId: string, parent: string | null, tokens: { input: number; cacheRead?: number; cacheWrite?: number }, text = "Step."): ClientEvent => ({
    kind: "assistant_block",
    messageId,
    parentToolUseId: parent,
    block: { type: "text", text },
    usage: { input_tokens: tokens.input, cache_read_input_tokens: tokens.cacheRead ?? 0, cache_creation_input_tokens: tokens.cacheWrite ?? 0, output_tokens: 1 },
  });
  const agentCall = (id: string, parent: string | null, messageId: string, tokens: number): ClientEvent => ({
    kind: "assistant_block",
    messageId,
    parentToolUseId: parent,
    block: { type: "tool_use", id, name: "Agent", input: { description: `Agent ${id}`, prompt: "Look.", subagent_type: "general-purpose" } },
    usage: { input_tokens: tokens },
  });

  it("history's calls (main thread and an agent's) and then a live process's total add up", () => {
    const history = [line("msg_m1", null, { input: 60, cacheRead: 30, cacheWrite: 10 }), agentCall("toolu_a", null, "msg_m2", 100), line("msg_a1", "toolu_a", { input: 150, cacheRead: 50 }), line("msg_a1", "toolu_a", { input: 150, cacheRead: 50 }, "Second block of the same call."), exit()];
    const model = modelOf([...history, turn(300), turn(500)]);
    const t = model.transcript();
    // 100 + 100 + 200 from the lines (the agent's call once, though two blocks carried it), then the process's cumulative 500.
    expect(t.sessionInputTokens).toBe(900);
    expect(recordOf(t, "toolu_a")?.inputTokens).toBe(200);
  });

  it("a line fed again counts nothing twice, on the card or in the total", () => {
    const events = [agentCall("toolu_a", null, "msg_m1", 100), line("msg_a1", "toolu_a", { input: 40 }), line("msg_a2", "toolu_a", { input: 60 }), exit()];
    const model = modelOf(events);
    model.apply(events.filter((e) => e.kind === "assistant_block"));
    model.apply([exit()]);
    const t = model.transcript();
    expect(t.sessionInputTokens).toBe(200);
    expect(recordOf(t, "toolu_a")?.inputTokens).toBe(100);
  });

  it("a CLI that died mid-turn: the calls after its last result count from their lines, then the next process adds its own", () => {
    const model = modelOf([line("msg_1", null, { input: 100 }), turn(200), line("msg_2", null, { input: 70 }), line("msg_3", null, { input: 30 })]);
    // Mid-turn: the last result's total and the calls since.
    expect(model.transcript().sessionInputTokens).toBe(300);
    model.apply([exit("claude exited with code 1")]);
    expect(model.transcript().sessionInputTokens).toBe(300);
    // The next process covers its own calls with its results.
    model.apply([line("msg_4", null, { input: 100 }), turn(150)]);
    expect(model.transcript().sessionInputTokens).toBe(450);
  });

  it("a live tab's own files read later count on the card only: its process's total has them", () => {
    const model = modelOf([agentCall("toolu_a", null, "msg_m1", 100), turn(400)]);
    model.readingOwnFiles = true;
    model.apply([line("msg_a1", "toolu_a", { input: 120 })]);
    model.readingOwnFiles = false;
    model.apply([exit()]);
    const t = model.transcript();
    expect(t.sessionInputTokens).toBe(400);
    expect(recordOf(t, "toolu_a")?.inputTokens).toBe(120);
  });

  it("a fork's earlier agents' calls, read from the original's files, stay in the total once the fork's run reports its own", () => {
    const model = modelOf([agentCall("toolu_a", null, "msg_m1", 100), exit()]);
    model.countRecordedCalls([{ parentToolUseId: "toolu_a", messageId: "msg_a1", usage: { input_tokens: 50 } }]);
    model.apply([line("msg_f1", null, { input: 100 }), turn(100)]);
    const t = model.transcript();
    expect(t.sessionInputTokens).toBe(250);
    expect(recordOf(t, "toolu_a")?.inputTokens).toBe(50);
  });

  it("calls counted from a file before their card exists go on the card when it appears; opening it later counts nothing twice", () => {
    const model = modelOf([agentCall("toolu_a", null, "msg_m1", 100), exit()]);
    model.setFilesUncounted(true);
    expect(model.transcript().sessionInputTokens).toBeUndefined();
    // The usage pass reads the nested agent's file before its parent's card was opened.
    model.countRecordedCalls([
      { parentToolUseId: "toolu_a", messageId: "msg_a1", usage: { input_tokens: 50 } },
      { parentToolUseId: "toolu_b", messageId: "msg_b1", usage: { input_tokens: 30 } },
      { parentToolUseId: "toolu_b", messageId: "msg_b1", usage: { input_tokens: 30 } },
      { parentToolUseId: "toolu_b", messageId: "msg_b2", usage: { input_tokens: 20 } },
    ]);
    model.setFilesUncounted(false);
    expect(model.transcript().sessionInputTokens).toBe(200);
    expect(recordOf(model.transcript(), "toolu_a")?.inputTokens).toBe(50);
    // The parent's card is opened: its lines, the nested Agent call among them; then the nested card.
    model.apply([line("msg_a1", "toolu_a", { input: 50 }), agentCall("toolu_b", "toolu_a", "msg_a2", 10), line("msg_b1", "toolu_b", { input: 30 }), line("msg_b2", "toolu_b", { input: 20 }), exit()]);
    const t = model.transcript();
    expect(recordOf(t, "toolu_b")?.inputTokens).toBe(50);
    expect(recordOf(t, "toolu_a")?.inputTokens).toBe(60);
    expect(t.sessionInputTokens).toBe(210);
  });
});

describe.each(RECORDING_VERSIONS)("an agent's own calls on its card (recording subagent, CLI %s)", (version) => {
  const recording = findRecording("subagent", version);
  it.skipIf(recording === undefined)("counts each of its calls once, however many blocks the call had", () => {
    const [replayed] = replayRecording(recording!);
    const t = replayed!.transcript;
    const agentCall = t.blocks.find((b) => b.call?.subagent !== undefined)!.call!.toolUseId;
    const record = recordOf(t, agentCall)!;
    // Three calls of 100 input tokens (its first answer came in two lines); the process read 500.
    expect(record.inputTokens).toBe(300);
    expect(t.sessionInputTokens).toBe(500);
    expect(shareView(record, t.sessionInputTokens)).toEqual({
      text: "60% of session",
      why: expect.stringMatching(/^300 of the session's 500 tokens: input, cache read and cache write tokens of this agent's own model calls/),
    });
    // The same lines fed again (the card's steps loaded from its file) count nothing twice.
    replayed!.model.apply(replayed!.events.filter((e) => e.kind === "assistant_block" && e.parentToolUseId === agentCall));
    expect(recordOf(replayed!.model.transcript(), agentCall)?.inputTokens).toBe(300);
  });
});

describe("what the card shows", () => {
  const record = (over: Partial<SubagentRecord>): SubagentRecord => ({
    toolUseId: "toolu_1", taskId: "a1", subagentType: "general-purpose", description: "Look around", prompt: "", background: false, status: "completed", blocks: [], droppedBlockCount: 0, ...over,
  });

  it("nothing before the session's total is known (no call yet; a restored session's files still being read)", () => {
    expect(shareView(record({ inputTokens: 100 }), undefined)).toBeUndefined();
  });

  it("a small share is <1%, never 0%", () => {
    expect(shareView(record({ inputTokens: 3 }), 1000)?.text).toBe("<1% of session");
    expect(shareView(record({ inputTokens: 0 }), 1000)?.text).toBe("0% of session");
  });

  it("says it is not known when none of the agent's calls arrived (2.1.197's nested agents), never a guess", () => {
    expect(shareView(record({ spawnDepth: 2, status: "running" }), 1000)).toEqual({ text: "share —", why: expect.stringContaining("streams the calls of first-level agents only") });
    expect(shareView(record({ status: "completed" }), 1000)?.text).toBe("share —");
    // A first-level agent that has just started: its calls are still to come.
    expect(shareView(record({ status: "running" }), 1000)).toBeUndefined();
  });

  it("a restored session's share says it is of what the files record", () => {
    expect(shareView(record({ inputTokens: 200 }), 400, true)).toEqual({
      text: "50% of session",
      why: expect.stringMatching(/^200 of the 400 input-side tokens the session's files record: input, cache read and cache write tokens/),
    });
    expect(shareView(record({ status: "completed" }), 400, true)?.why).toMatch(/^Share of the session's tokens: not known\. None of this agent's model calls is in the session's files/);
  });

  it("says it is not known when the agent's calls outnumber the runs the total counts (history read before a resume)", () => {
    expect(shareView(record({ inputTokens: 2000 }), 1000)).toEqual({ text: "share —", why: expect.stringContaining("only the Claude Code runs since Baton started it") });
  });
});


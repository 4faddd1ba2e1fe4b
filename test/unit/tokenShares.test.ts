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

  it("is unknown once calls were seen that no total covers (a fork's earlier turns, a CLI that died mid-turn)", () => {
    const call: ClientEvent = { kind: "assistant_block", messageId: "msg_1", parentToolUseId: null, block: { type: "text", text: "Earlier." }, usage: { input_tokens: 100 } };
    const turn = (total: number): ClientEvent => ({ kind: "turn_result", subtype: "success", isError: false, processInputTokens: total });
    const exit: ClientEvent = { kind: "process_exit", code: 0, signal: null };
    // The fork's tab shows the turns it continues, then its own process's results.
    expect(modelOf([call, exit, turn(300)]).transcript().sessionInputTokens).toBeUndefined();
    // Covered by a result before the exit: known.
    expect(modelOf([call, turn(100), exit, turn(300)]).transcript().sessionInputTokens).toBe(400);
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

  it("nothing before the session's total is known (a turn to end; a restored session)", () => {
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

  it("says it is not known when the agent's calls outnumber the runs the total counts (history read before a resume)", () => {
    expect(shareView(record({ inputTokens: 2000 }), 1000)).toEqual({ text: "share —", why: expect.stringContaining("only the Claude Code runs since Baton started it") });
  });
});


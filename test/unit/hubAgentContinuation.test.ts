// A SendMessage continuation in the shape 2.1.332 gives a run it resumes under the Agent call: its
// task events name the original Agent call, the run has a new run_id under the same task, and its
// progress names no call. (Observed for a message queued to a background agent that finished
// before reading it; a SendMessage to a finished agent names the SendMessage call instead, on both
// CLIs: docs/protocol-notes.md "Subagents".) The card goes back to running, counts the new run's
// steps on top of the first run's, and ends with the newer answer, live and restored; 2.1.197's
// shape still works.

import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DiskMapper } from "../../src/main/history/diskMapper.js";
import { modelOf } from "../../src/main/hub/index.js";
import type { Transcript } from "../../src/shared/transcript.js";
import type { JsonObject } from "../../src/shared/protocol/messages.js";
import { findRecording } from "../support/recordings.js";
import { recordOf } from "./hubTestKit.js";
import { completedEnvelope, handBackText, line, live, S } from "./cli332Lines.js";

const A = "a71622b92898ae7a7";
const first = [
  line.init(),
  line.agentUse("toolu_main_t0_0", "Two-part helper", { run_in_background: false }),
  line.taskStarted(A, "0mx58efpg-0d0f0eae", "toolu_main_t0_0"),
  line.use("toolu_SUB-A_t0_0", "Bash", { command: "echo first-part" }, "toolu_main_t0_0", A),
  line.taskProgress(A, "0mx58efpg-0d0f0eae", 1, "Running Run the first part", "toolu_main_t0_0"),
  line.text("t-first", "First part done.", "toolu_main_t0_0", A),
  line.taskNotification(A, "0mx58efpg-0d0f0eae", "toolu_main_t0_0", "completed", "First part done.", 1, { summary_is_report: true }),
  line.result("toolu_main_t0_0", [{ type: "text", text: handBackText(A, "First part done.", ["Bash"], { tokens: 104, toolUses: 1, durationMs: 156 }) }], {
    tool_use_result: { ...completedEnvelope(A, "First part done.", ["Bash"]), totalToolUseCount: 1 },
  }),
  line.use("toolu_main_t1_0", "SendMessage", { to: A, summary: "second part", message: "Now do the second part." }),
];
const secondRun = "0mx5c0nt-11aa22bb";
const resumed = [
  line.taskStarted(A, secondRun, "toolu_main_t0_0", { prompt: "Now do the second part." }),
  line.result("toolu_main_t1_0", [{ type: "text", text: '{"success":true,"message":"Agent resumed."}' }]),
  line.use("toolu_SUB-A_t1_0", "Bash", { command: "echo second-part" }, "toolu_main_t0_0", A),
  line.taskProgress(A, secondRun, 1, "Running Run the second part"),
  line.use("toolu_SUB-A_t1_1", "Bash", { command: "echo third" }, "toolu_main_t0_0", A),
  line.taskProgress(A, secondRun, 2, "Running the third step"),
];
const ended = [
  line.text("t-second", "Second part done.", "toolu_main_t0_0", A),
  line.taskUpdated(A, secondRun, { status: "completed", end_time: 1796161869348 }),
  line.taskNotification(A, secondRun, "toolu_main_t0_0", "completed", "Second part done.", 2, { summary_is_report: true }),
];

describe("a 2.1.332 SendMessage continuation, live", () => {
  it("goes back to running while the agent runs again, counting the new run's tools on top of the first's", () => {
    const { t } = live([...first, ...resumed]);
    const record = recordOf(t, "toolu_main_t0_0");
    expect(record).toMatchObject({ status: "running", runId: secondRun, progressLine: "Running the third step", toolUses: 1 + 2 });
    expect(record?.blocks.filter((b) => b.kind === "tool").map((b) => b.id)).toEqual(["toolu_SUB-A_t0_0", "toolu_SUB-A_t1_0", "toolu_SUB-A_t1_1"]);
  });

  it("keeps running past the end of the turn that resumed it", () => {
    const turnEnd = { type: "result", subtype: "success", is_error: false, session_id: S, result: "Sent the helper its second part." };
    expect(recordOf(live([...first, ...resumed, turnEnd]).t, "toolu_main_t0_0")?.status).toBe("running");
  });

  it("ends with the newer answer", () => {
    const record = recordOf(live([...first, ...resumed, ...ended]).t, "toolu_main_t0_0");
    expect(record).toMatchObject({ status: "completed", summaryMarkdown: "Second part done.", toolUses: 1 + 2 });
  });

  it("a SendMessage to an agent still running is no new run (the same run_id goes on)", () => {
    const running = [
      line.init(),
      line.agentUse("toolu_bg", "Slow helper"),
      line.taskStarted(A, "r1", "toolu_bg", { is_backgrounded: true }),
      line.taskProgress(A, "r1", 1, "Running A slow step", "toolu_bg"),
      line.use("toolu_sm", "SendMessage", { to: A, message: "Also do the extra step." }),
      line.taskProgress(A, "r1", 2, "Running The extra step", "toolu_bg"),
      line.taskNotification(A, "r1", "toolu_bg", "completed", "Done, with the extra step.", 2, { summary_is_report: true }),
    ];
    expect(recordOf(live(running).t, "toolu_bg")).toMatchObject({ status: "completed", toolUses: 2, runId: "r1", summaryMarkdown: "Done, with the extra step." });
  });
});

describe("a continuation, restored", () => {
  /** The main file of a 2.1.332 session whose foreground agent was continued (the disk has no task events). */
  function restored(): Transcript {
    const m = new DiskMapper({ sessionId: S });
    let n = 0;
    const at = () => `2026-12-01T21:51:0${n++}.000Z`;
    const assistant = (id: string, name: string, input: object) => ({ type: "assistant", uuid: `a-${id}`, sessionId: S, timestamp: at(), message: { id: `msg_${id}`, role: "assistant", model: "claude-opus-5-5", content: [{ type: "tool_use", id, name, input }] } });
    const result = (id: string, text: string, toolUseResult?: object) => ({ type: "user", uuid: `r-${id}`, sessionId: S, timestamp: at(), message: { role: "user", content: [{ tool_use_id: id, type: "tool_result", content: [{ type: "text", text }] }] }, ...(toolUseResult ? { toolUseResult } : {}) });
    const notification = `<task-notification>\n<task-id>${A}</task-id>\n<tool-use-id>toolu_main_t0_0</tool-use-id>\n<output-file>/tmp/claude-0/x/tasks/${A}.output</output-file>\n<status>completed</status>\n<summary>Agent "Two-part helper" finished</summary>\n<result>Second part done.</result>\n<usage><subagent_tokens>105</subagent_tokens><tool_uses>2</tool_uses><duration_ms>819</duration_ms></usage>\n</task-notification>`;
    const disk = [
      { type: "user", uuid: "p1", sessionId: S, timestamp: at(), message: { role: "user", content: "go" } },
      assistant("toolu_main_t0_0", "Agent", { description: "Two-part helper", prompt: "[[SUB-A]] do the first part", subagent_type: "general-purpose", run_in_background: false }),
      result("toolu_main_t0_0", handBackText(A, "First part done.", ["Bash"]), { ...completedEnvelope(A, "First part done.", ["Bash"]), totalToolUseCount: 1 }),
      assistant("toolu_main_t1_0", "SendMessage", { to: A, summary: "second part", message: "Now do the second part." }),
      result("toolu_main_t1_0", '{"success":true,"message":"Agent resumed."}'),
      { type: "user", uuid: "n1", sessionId: S, timestamp: at(), isMeta: true, message: { role: "user", content: notification } },
    ] as unknown as JsonObject[];
    return modelOf(disk.flatMap((l) => m.map(l)), { sessionId: S }).transcript();
  }

  it("ends with the newer answer and counts both runs' tools", () => {
    expect(recordOf(restored(), "toolu_main_t0_0")).toMatchObject({ status: "completed", summaryMarkdown: "Second part done.", toolUses: 1 + 2 });
  });
});

describe("the 2.1.197 shape still works", () => {
  it("replays the 2.1.197 sendmessage-continue recording to the newer answer", (ctx) => {
    const recording = findRecording("sendmessage-continue", "2.1.197");
    if (recording === undefined) return ctx.skip();
    const lines = readFileSync(path.join(recording.dir, "stream.jsonl"), "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
    const stdout = lines.filter((l) => l["type"] !== "control_request" && l["type"] !== "control_response");
    const record = recordOf(live(stdout).t, "toolu_main_t0_0");
    expect(record).toMatchObject({ status: "completed", summaryMarkdown: "Second part done.", toolUses: 2 });
  });
});

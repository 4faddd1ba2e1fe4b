// The stdout types and fields CLI 2.1.332 added (command_lifecycle, system/permission_denied,
// system/informational, session_title_changed, the task events' run_id, spawn_depth, error and
// the like) become events a person sees: none of them stays an "unknown message type".

import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findRecording, listRecordings } from "../support/recordings.js";
import { recordOf } from "./hubTestKit.js";
import { eventsOf, line, live, S } from "./cli332Lines.js";
import { SessionModel } from "../../src/main/hub/index.js";

const prompt = (uuid: string, text: string) => ({ kind: "user_prompt" as const, uuid, parentToolUseId: null, text });
const lifecycle = (uuid: string, state: string) => ({ type: "command_lifecycle", command_uuid: uuid, state, uuid: `cl-${uuid}-${state}`, session_id: S });

describe("command_lifecycle", () => {
  it("a prompt shows as queued from `queued` until `started`", () => {
    // The live client adds the prompt itself when it sends it (claudeClient.send).
    const sent = live([line.init()]).model;
    sent.apply([prompt("22222222-0000-4000-8000-000000000001", "second question")]);
    const queued = live([lifecycle("22222222-0000-4000-8000-000000000001", "queued")], sent);
    expect(queued.t.blocks.find((b) => b.kind === "user")).toMatchObject({ text: "second question", queued: true });
    const started = live([lifecycle("22222222-0000-4000-8000-000000000001", "started")], queued.model);
    expect(started.t.blocks.find((b) => b.kind === "user")?.queued).toBeUndefined();
    const completed = live([lifecycle("22222222-0000-4000-8000-000000000001", "completed")], started.model);
    expect(completed.t.blocks.find((b) => b.kind === "user")?.queued).toBeUndefined();
  });
});

describe("system/permission_denied", () => {
  it("a subagent's call refused without a prompt is denied on that agent's card, with its reason", () => {
    const reason = "touch in '/home/user/code/x' needs approval, and auto mode cannot check it in this session.";
    const { t } = live([
      line.init(),
      line.agentUse("toolu_main_t0_0", "Helper"),
      line.taskStarted("a5ce01", "r1", "toolu_main_t0_0"),
      line.use("toolu_S_t0_0", "Bash", { command: "touch x" }, "toolu_main_t0_0", "a5ce01"),
      { type: "system", subtype: "permission_denied", tool_name: "Bash", tool_use_id: "toolu_S_t0_0", agent_id: "a5ce01", message: reason, decision_reason_type: "classifier", decision_reason_code: "auto_mode_no_check_in_session", decision_reason: "Classifier unavailable", uuid: "pd1", session_id: S },
    ]);
    const record = recordOf(t, "toolu_main_t0_0");
    expect(record?.blocks.find((b) => b.id === "toolu_S_t0_0")?.call).toMatchObject({ status: "denied", permission: { state: "denied", message: reason } });
    expect(record?.permissionHistory).toEqual([expect.objectContaining({ toolName: "Bash", toolUseId: "toolu_S_t0_0", state: "denied" })]);
  });
});

describe("system/informational and session_title_changed", () => {
  it("a notice shows in the transcript with its level", () => {
    const text = "Auto mode can't check actions in this session, so every action that needs approval is refused.";
    const { t } = live([line.init(), { type: "system", subtype: "informational", content: text, isMeta: false, level: "warning", tag: "auto_mode_no_server_check", timestamp: "2026-12-01T21:50:00.000Z", uuid: "i1", session_id: S }]);
    expect(t.blocks.at(-1)).toMatchObject({ kind: "notice", level: "warning", text });
  });

  it("the session's title becomes the transcript's (the tab's) title", () => {
    expect(live([line.init(), { type: "system", subtype: "session_title_changed", title: "Harness title", uuid: "st1", session_id: S }]).t.title).toBe("Harness title");
  });
});

describe("the new task fields", () => {
  it("task_updated.patch.error says on the card why the agent died", () => {
    const error = "Agent terminated early due to an API error: API Error: 400 scripted bad request (HTTP 400, model sent to the API: claude-opus-5-5)";
    const { t } = live([line.init(), line.agentUse("toolu_A", "Broken"), line.taskStarted("a1", "r1", "toolu_A"), line.taskUpdated("a1", "r1", { status: "failed", end_time: 1796161872072, error })]);
    expect(recordOf(t, "toolu_A")).toMatchObject({ status: "failed", error });
  });

  it("spawn_depth, parent_task_id and run_id reach the record", () => {
    const { t } = live([
      line.init(),
      line.agentUse("toolu_outer", "Outer"),
      line.taskStarted("a6e0", "r-outer", "toolu_outer"),
      line.use("toolu_subA_t0_1", "Agent", { description: "Inner agent", prompt: "[[SUB-B]] run echo", subagent_type: "general-purpose" }, "toolu_outer", "a6e0"),
      line.taskStarted("affa", "r-inner", "toolu_subA_t0_1", { spawn_depth: 2, parent_task_id: "a6e0", description: "Inner agent" }),
    ]);
    const inner = recordOf(t, "toolu_outer")?.blocks.find((b) => b.id === "toolu_subA_t0_1")?.call?.subagent;
    expect(inner).toMatchObject({ spawnDepth: 2, parentTaskId: "a6e0", runId: "r-inner" });
  });

  it("summary_is_report: the notification's summary is the card's answer, not the agent's last words", () => {
    const { t } = live([
      line.init(),
      line.agentUse("toolu_bg", "Bg"),
      line.taskStarted("a1", "r1", "toolu_bg"),
      line.text("t-last", "Let me write it up.", "toolu_bg", "a1"),
      line.taskNotification("a1", "r1", "toolu_bg", "completed", "The report itself.", 1, { summary_is_report: true }),
    ]);
    expect(recordOf(t, "toolu_bg")?.summaryMarkdown).toBe("The report itself.");
  });

  it("tool_progress.subagent_retry shows on the subagent's card until its progress resumes", () => {
    const retry = { type: "tool_progress", tool_use_id: "agent_msg_main_t0_r1", tool_name: "Agent", parent_tool_use_id: "toolu_main_t0_0", elapsed_time_seconds: 0, subagent_type: "general-purpose", subagent_retry: { agent_id: "a4b2", attempt: 2, max_retries: 3, retry_delay_ms: 620, error_status: 529, error_category: "overloaded" }, uuid: "tp1", session_id: S };
    const retrying = live([line.init(), line.agentUse("toolu_main_t0_0", "Fg", { run_in_background: false }), line.taskStarted("a4b2", "r1", "toolu_main_t0_0"), retry]);
    expect(recordOf(retrying.t, "toolu_main_t0_0")?.retry).toEqual({ attempt: 2, maxRetries: 3, reason: "overloaded" });
    const resumed = live([line.taskProgress("a4b2", "r1", 1, "Running echo", "toolu_main_t0_0")], retrying.model);
    expect(recordOf(resumed.t, "toolu_main_t0_0")?.retry).toBeUndefined();
  });

  it("result subagent_stats is kept on the session", () => {
    const result = {
      type: "result", subtype: "success", is_error: false, session_id: S, result: "done",
      subagent_stats: { spawned: 3, requested: { background: 2, foreground: 1, unset: 0 }, started_in_background: 2, max_depth: 2, spawned_by_subagents: 1, completed: 2, failed: 1, killed: { parent: 0, user: 1, system: 0 }, refused: { depth_limit: 0, concurrency_limit: 0, budget: 0 }, by_type: { "general-purpose": 3 } },
    };
    expect(live([line.init(), result]).t.subagentStats).toEqual({ spawned: 3, startedInBackground: 2, completed: 2, failed: 1, killed: 1, refused: 0, maxDepth: 2 });
  });
});

describe("the 2.1.332 recordings", () => {
  const recordings = listRecordings("2.1.332");
  it.skipIf(recordings.length === 0).each(recordings.map((r) => [r.name, r] as const))("%s: no line is an unknown message type", (_name, recording) => {
    for (const file of recording.streamFiles) {
      const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
      const unknown = eventsOf(lines).filter((e) => e.kind === "protocol_problem");
      expect(unknown, path.basename(file)).toEqual([]);
    }
  });

  it("subagent-api-errors: the card of the agent that died says why", (ctx) => {
    const recording = findRecording("subagent-api-errors", "2.1.332");
    if (recording === undefined) return ctx.skip();
    const lines = readFileSync(path.join(recording.dir, "stream.jsonl"), "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
    const died = lines.filter((l) => l["subtype"] === "task_updated" && typeof (l["patch"] as Record<string, unknown>)["error"] === "string");
    expect(died.length).toBeGreaterThan(0);
    const model = new SessionModel();
    for (const e of eventsOf(lines)) model.apply([e]);
    const t = model.transcript();
    const errors = JSON.stringify(t);
    for (const d of died) expect(errors).toContain(JSON.stringify((d["patch"] as Record<string, string>)["error"]).slice(1, -1));
  });
});

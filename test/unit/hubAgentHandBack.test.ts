// A foreground Agent call's hand-back on its card (CLI 2.1.332): the summary is the report alone,
// the tools it used and its usage figures are fields, never raw tags, live and restored. And an
// Agent call refused before it started is a refused tool call, not a subagent card.

import { describe, expect, it } from "vitest";
import { DiskMapper } from "../../src/main/history/diskMapper.js";
import { modelOf } from "../../src/main/hub/index.js";
import type { JsonObject } from "../../src/shared/protocol/messages.js";
import { recordOf } from "./hubTestKit.js";
import { completedEnvelope, handBackText, line, live, S } from "./cli332Lines.js";

const report = "Both commands ran.\n\n- first: ok\n- second: ok";
const agentId = "aba0cf0b08c87dabf";

describe("a 2.1.332 foreground hand-back", () => {
  it("live: the card's summary is the report, de-indented; tools used and usage are record fields", () => {
    const { t } = live([
      line.init(),
      line.agentUse("toolu_main_t0_1", "Run two commands", { run_in_background: false }),
      line.taskStarted(agentId, "0mx5-a", "toolu_main_t0_1"),
      line.result("toolu_main_t0_1", [{ type: "text", text: handBackText(agentId, report, ["Bash", "Read"]) }], { tool_use_result: completedEnvelope(agentId, report, ["Bash", "Read"]) }),
    ]);
    const record = recordOf(t, "toolu_main_t0_1");
    expect(record).toMatchObject({ status: "completed", summaryMarkdown: report, toolsUsed: ["Bash", "Read"], totalTokens: 105, toolUses: 2, durationMs: 2182 });
  });

  it("inside a sidechain (no envelope): the text alone gives the report, the tools and the figures", () => {
    const { t } = live([
      line.init(),
      line.agentUse("toolu_outer", "Outer"),
      line.taskStarted("a_outer", "r-outer", "toolu_outer"),
      line.use("toolu_inner", "Agent", { description: "Inner agent", prompt: "[[SUB-B]] run echo", subagent_type: "general-purpose" }, "toolu_outer", "a_outer"),
      line.result("toolu_inner", [{ type: "text", text: handBackText("a_inner", "Inner report.", ["Bash"], { tokens: 142, toolUses: 1, durationMs: 119 }) }], {}, "toolu_outer"),
    ]);
    const inner = recordOf(t, "toolu_outer")?.blocks.find((b) => b.id === "toolu_inner")?.call?.subagent;
    expect(inner).toMatchObject({ taskId: "a_inner", summaryMarkdown: "Inner report.", toolsUsed: ["Bash"], totalTokens: 142, toolUses: 1, durationMs: 119 });
  });

  it("restored: `toolUseResult.content` and `toolsUsed` give the same card", () => {
    const m = new DiskMapper({ sessionId: S });
    const disk: JsonObject[] = [
      { type: "user", uuid: "p1", parentUuid: null, sessionId: S, timestamp: "2026-12-01T21:50:29.000Z", message: { role: "user", content: "go" } },
      { type: "assistant", uuid: "a1", parentUuid: "p1", sessionId: S, timestamp: "2026-12-01T21:50:29.100Z", message: { id: "msg_1", role: "assistant", model: "claude-opus-5-5", content: [{ type: "tool_use", id: "toolu_main_t0_1", name: "Agent", input: { description: "Run two commands", prompt: "[[SUB-A]] go", subagent_type: "general-purpose", run_in_background: false } }] } },
      {
        type: "user",
        uuid: "r1",
        parentUuid: "a1",
        sessionId: S,
        timestamp: "2026-12-01T21:50:31.318Z",
        message: { role: "user", content: [{ tool_use_id: "toolu_main_t0_1", type: "tool_result", content: [{ type: "text", text: handBackText(agentId, report, ["Bash"]) }] }] },
        toolUseResult: completedEnvelope(agentId, report, ["Bash"]),
      },
    ] as unknown as JsonObject[];
    const t = modelOf(disk.flatMap((l) => m.map(l)), { sessionId: S }).transcript();
    expect(recordOf(t, "toolu_main_t0_1")).toMatchObject({ status: "completed", summaryMarkdown: report, toolsUsed: ["Bash"], taskId: agentId });
  });

  it("2.1.197's report and trailer blocks still give the report alone, with no tools list", () => {
    const trailer = `agentId: ${agentId} (use SendMessage with to: '${agentId}', summary: '<5-10 word recap>' to continue this agent)\n<usage>subagent_tokens: 104\ntool_uses: 1\nduration_ms: 156</usage>`;
    const { t } = live([line.init(), line.agentUse("toolu_A", "Old"), line.result("toolu_A", [{ type: "text", text: "First part done." }, { type: "text", text: trailer }])]);
    const record = recordOf(t, "toolu_A");
    expect(record).toMatchObject({ summaryMarkdown: "First part done.", totalTokens: 104, toolUses: 1, durationMs: 156 });
    expect(record?.toolsUsed).toBeUndefined();
  });
});

describe("an Agent call refused before it starts", () => {
  it("plan mode's permission_denied: a denied tool call with the CLI's reason, no subagent card", () => {
    const reason = "Plan mode is active: Agent calls are not allowed until the plan is approved.";
    const { t } = live([
      line.init(),
      line.agentUse("toolu_main_t0_0", "Explore the code"),
      { type: "system", subtype: "permission_denied", tool_name: "Agent", tool_use_id: "toolu_main_t0_0", message: reason, decision_reason_type: "mode", uuid: "pd-1", session_id: S },
      line.result("toolu_main_t0_0", reason, { is_error: true }),
    ]);
    const block = t.blocks.find((b) => b.id === "toolu_main_t0_0");
    expect(block?.call?.subagent).toBeUndefined();
    expect(block?.call).toMatchObject({ name: "Agent", status: "denied", permission: { state: "denied", message: reason } });
  });

  it("an Agent call that did start and then failed keeps its card", () => {
    const { t } = live([
      line.init(),
      line.agentUse("toolu_A", "Broken"),
      line.taskStarted("a_broken", "r1", "toolu_A"),
      line.result("toolu_A", "Agent terminated early due to an API error", { is_error: true }),
    ]);
    expect(recordOf(t, "toolu_A")).toMatchObject({ taskId: "a_broken", status: "failed" });
  });
});

// A turn where the main agent starts a subagent that runs Bash, through the real CLI.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InitializeResult } from "../../src/main/cli/initializeResult.js";
import { openSession, type Session } from "../support/scenarios/harness.js";

const AGENT_ID = "toolu_main_t0_0";

describe("client: foreground subagent with a nested Bash call", () => {
  let session: Session;
  let init: InitializeResult;

  beforeAll(async () => {
    session = await openSession(
      {
        main: [
          // Foreground on every CLI: 2.1.332 backgrounds an Agent call unless told not to.
          { blocks: [{ type: "tool_use", name: "Agent", input: { description: "Echo via subagent", prompt: "[[SUB-A]] run echo", subagent_type: "general-purpose", run_in_background: false } }] },
          { blocks: [{ type: "text", text: "All done." }] },
        ],
        "SUB-A": [
          { blocks: [{ type: "thinking", thinking: "I will echo." }, { type: "tool_use", name: "Bash", input: { command: "echo hello-from-sub > sub.txt", description: "Echo a greeting" } }] },
          { blocks: [{ type: "text", text: "Echoed." }] },
        ],
      },
      { cwdName: "client-subagent", decidePermission: async () => ({ behavior: "allow", decidedBy: "test" }) },
    );
    init = await session.client.start();
  });
  afterAll(() => session?.close());

  it("returns what initialize reported and runs the turn to a result", async () => {
    expect(init.commands.length).toBeGreaterThan(0);
    expect(init.agents.map((a) => a.name)).toContain("general-purpose");
    const result = await session.turn("please delegate");
    expect(result).toMatchObject({ subtype: "success", isError: false, result: "All done." });
    expect(session.client.sessionId).toBe(session.log.of("session_init")[0]?.sessionId);
    expect(existsSync(path.join(session.env.cwd, "sub.txt"))).toBe(true);
  });

  it("tags every subagent message with the spawning Agent tool_use id", () => {
    const { log } = session;
    const subBlocks = log.of("assistant_block").filter((e) => e.messageId.startsWith("msg_SUB-A"));
    // thinking (forwardSubagentText), tool_use, final text
    expect(subBlocks.map((e) => e.block.type)).toEqual(["thinking", "tool_use", "text"]);
    expect(subBlocks.every((e) => e.parentToolUseId === AGENT_ID)).toBe(true);
    const subResults = log.of("tool_result").filter((e) => e.toolUseId.startsWith("toolu_SUB-A"));
    expect(subResults).toHaveLength(1);
    expect(subResults[0]!.parentToolUseId).toBe(AGENT_ID);
    const prompt = log.of("user_prompt").find((e) => e.parentToolUseId !== null);
    expect(prompt).toMatchObject({ parentToolUseId: AGENT_ID, text: "[[SUB-A]] run echo" });
    const mainBlocks = log.of("assistant_block").filter((e) => e.messageId.startsWith("msg_main"));
    expect(mainBlocks.every((e) => e.parentToolUseId === null)).toBe(true);
    expect(log.of("tool_result").find((e) => e.toolUseId === AGENT_ID)?.parentToolUseId).toBeNull();
  });

  it("reports the task lifecycle with matching taskId and toolUseId, in order", () => {
    const { events } = session.log;
    const started = session.log.of("task_started");
    expect(started).toHaveLength(1);
    const taskId = started[0]!.taskId;
    expect(taskId).toMatch(/^a[0-9a-f]{16}$/);
    expect(started[0]).toMatchObject({ toolUseId: AGENT_ID, taskType: "local_agent", description: "Echo via subagent" });
    const progress = session.log.of("task_progress");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.taskId === taskId && p.toolUseId === AGENT_ID)).toBe(true);
    const done = session.log.of("task_notification");
    expect(done).toEqual([expect.objectContaining({ taskId, toolUseId: AGENT_ID, status: "completed" })]);
    const index = (e: unknown) => events.indexOf(e as never);
    expect(index(started[0])).toBeLessThan(index(progress[0]));
    expect(index(progress.at(-1))).toBeLessThan(index(done[0]));
    expect(index(done[0])).toBeLessThan(index(session.log.of("turn_result")[0]));
  });
});

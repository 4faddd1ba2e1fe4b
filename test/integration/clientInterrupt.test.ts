// Interrupt while a subagent's Bash is running: the turn ends with a result, the task is stopped,
// and the same client runs the next message normally.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, type Session } from "../support/scenarios/harness.js";

describe("client: interrupt during a running subagent", () => {
  let session: Session;

  beforeAll(async () => {
    session = await openSession(
      {
        main: [
          // Foreground on every CLI: 2.1.332 backgrounds an Agent call unless told not to.
          { blocks: [{ type: "tool_use", name: "Agent", input: { description: "Long task", prompt: "[[SUB-A]] long", subagent_type: "general-purpose", run_in_background: false } }] },
          { blocks: [{ type: "text", text: "still here" }] },
        ],
        "SUB-A": [
          { blocks: [{ type: "tool_use", name: "Bash", input: { command: "sleep 20", description: "Sleep a long time" } }] },
          { blocks: [{ type: "text", text: "never reached" }] },
        ],
      },
      { cwdName: "client-interrupt", permissionMode: "bypassPermissions" },
    );
    await session.client.start();
  });
  afterAll(() => session?.close());

  it("ends the turn, stops the task, and stays usable", async () => {
    const { log, client } = session;
    const from = log.mark;
    client.send("start a long subagent");
    const sleeping = await log.waitFor(
      "assistant_block",
      (e) => e.parentToolUseId === "toolu_main_t0_0" && e.block.type === "tool_use",
      { from },
    );
    expect(sleeping.block).toMatchObject({ name: "Bash" });
    const started = Date.now();
    await client.interrupt();
    const result = await log.waitFor("turn_result", () => true, { from });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result).toMatchObject({ subtype: "error_during_execution", isError: true });
    const taskId = log.of("task_started")[0]!.taskId;
    expect(log.of("task_notification").find((e) => e.taskId === taskId)?.status).toBe("stopped");
    expect(log.of("interrupt_marker").length).toBeGreaterThan(0);

    const next = await session.turn("are you still there?");
    expect(next).toMatchObject({ subtype: "success", isError: false, result: "still here" });
    expect(client.running).toBe(true);
  });
});

import { lastAgentId } from "./sendMessageContinue.js";
import { agentCall, bashCall, text, type Scenario } from "./types.js";

/**
 * The conductor stops its own background agent with TaskStop while the agent's Bash runs: the
 * task is killed, and the cut Bash gets the same rejection text a denied call gets.
 */
export const taskStop: Scenario = {
  name: "taskstop-background",
  description: "TaskStop on a running background subagent: task_updated killed, its in-flight Bash answered with the rejection text",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [agentCall("Slow helper", "[[SUB-A]] sleep", { run_in_background: true })] },
      // Late enough that the helper's Bash is running.
      { blocks: (request) => [{ type: "tool_use", name: "TaskStop", input: { task_id: lastAgentId(request) } }], delayMs: 1500 },
      { blocks: [text("Stopped the slow helper.")] },
      { blocks: [text("Noted that it stopped.")] },
    ],
    "SUB-A": [{ blocks: [bashCall("sleep 20", "Sleep long")] }, { blocks: [text("Woke up.")] }],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    await ctx.turn("start a slow helper, then stop it");
    await ctx.log.waitFor("task_notification", () => true, { from });
    // The notification starts a turn of its own; wait for its result.
    await ctx.log.waitFor("turn_result", (r) => r.result === "Noted that it stopped.", { from });
  },
};

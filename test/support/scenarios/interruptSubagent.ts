import { agentCall, bashCall, text, type Scenario } from "./types.js";

export const interruptSubagent: Scenario = {
  name: "interrupt-subagent",
  description: "interrupt while a subagent's Bash sleeps; then a normal turn in the same process",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [agentCall("Long task", "[[SUB-A]] long")] },
      { blocks: [text("Still here.")] },
    ],
    "SUB-A": [
      // Under 25 s: CLI 2.1.332 refuses a Bash call that sleeps that long.
      { blocks: [bashCall("sleep 20", "Sleep a long time")] },
      { blocks: [text("never reached")] },
    ],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    ctx.client.send("start a long subagent");
    await ctx.log.waitFor("assistant_block", (e) => e.parentToolUseId !== null && e.block.type === "tool_use", { from });
    await ctx.client.interrupt();
    await ctx.log.waitFor("turn_result", () => true, { from });
    await ctx.turn("are you still there?");
  },
};

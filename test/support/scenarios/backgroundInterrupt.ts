import { agentCall, bashCall, text, type Scenario } from "./types.js";

/**
 * Two subagents that 2.1.332 runs in the background by default (no `run_in_background`), still
 * working when the main turn has answered; then an interrupt, which kills both. On 2.1.332 the
 * interrupt's answer is `{still_queued: []}` and no `result` follows.
 * The sleeps stay under 25 s: 2.1.332 refuses longer ones that start with `sleep`.
 */
export const backgroundInterrupt: Scenario = {
  name: "background-interrupt",
  description: "two default-background subagents outlive the main turn; an interrupt then stops both, with no result on 2.1.332",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [agentCall("Slow survey", "[[SUB-A]] survey slowly"), agentCall("Slow audit", "[[SUB-B]] audit slowly")] },
      { blocks: [text("Both agents are working in the background.")] },
      { blocks: [text("Still here.")] },
    ],
    "SUB-A": [{ blocks: [bashCall("sleep 20", "Survey step")] }, { blocks: [text("Survey never finished.")] }],
    "SUB-B": [{ blocks: [bashCall("sleep 20", "Audit step")] }, { blocks: [text("Audit never finished.")] }],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    await ctx.turn("survey and audit in the background");
    await ctx.log.waitFor("assistant_block", (e) => e.parentToolUseId !== null && e.block.type === "tool_use", { from });
    await ctx.client.interrupt();
    await ctx.log.waitFor("task_notification", (e) => e.status === "stopped", { from });
  },
};

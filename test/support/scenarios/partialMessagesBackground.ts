import { agentCall, bashCall, text, thinking, type Scenario } from "./types.js";

export const partialMessagesBackground: Scenario = {
  name: "partial-messages-background",
  description: "--include-partial-messages with a background subagent that streams while the conductor streams its own answer",
  options: { permissionMode: "bypassPermissions", includePartialMessages: true },
  script: {
    main: [
      { blocks: [text("Starting a background helper."), agentCall("Streaming helper", "[[SUB-BG]] stream something", { run_in_background: true })] },
      { blocks: [thinking("While it runs, answer at length."), text("Meanwhile, a long answer from the conductor that streams in pieces.")], chunkDelayMs: 60 },
      { blocks: [text("The helper has finished.")] },
    ],
    "SUB-BG": [
      { blocks: [thinking("Helper thinking."), text("Helper streaming text."), bashCall("echo helper-step", "Helper step")], chunkDelayMs: 40 },
      { blocks: [text("Helper done.")], chunkDelayMs: 40 },
    ],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    await ctx.turn("start a helper and talk meanwhile");
    await ctx.log.waitFor("task_notification", () => true, { from });
    await ctx.log.waitFor("turn_result", (r) => r.result === "The helper has finished.", { from });
  },
};

import { agentCall, bashCall, text, type Scenario } from "./types.js";

export const parallelSubagents: Scenario = {
  name: "parallel-subagents",
  description: "two Agent calls in one message, running at the same time",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [agentCall("Alpha task", "[[SUB-A]] do two steps"), agentCall("Beta task", "[[SUB-B]] do two steps")] },
      { blocks: [text("Both subagents finished.")] },
    ],
    "SUB-A": [
      { blocks: [bashCall("echo alpha-1", "Alpha step one")], delayMs: 100 },
      { blocks: [bashCall("echo alpha-2", "Alpha step two")] },
      { blocks: [text("Alpha done.")] },
    ],
    "SUB-B": [
      { blocks: [bashCall("echo beta-1", "Beta step one")] },
      { blocks: [bashCall("echo beta-2", "Beta step two")], delayMs: 100 },
      { blocks: [text("Beta done.")] },
    ],
  },
  async drive(ctx) {
    await ctx.turn("run two things in parallel");
  },
};

import { agentCall, bashCall, text, thinking, type Scenario } from "./types.js";

export const partialMessages: Scenario = {
  name: "partial-messages",
  description: "--include-partial-messages: stream_event deltas for the main agent (thinking, text), none for its subagent",
  options: { permissionMode: "bypassPermissions", includePartialMessages: true },
  script: {
    main: [
      { blocks: [thinking("Main is thinking about delegating."), text("Delegating now."), agentCall("Echo", "[[SUB-A]] echo")] },
      { blocks: [text("The subagent finished; here is a longer closing sentence to stream.")] },
    ],
    "SUB-A": [{ blocks: [thinking("Sub thinks."), bashCall("echo partial", "Echo")] }, { blocks: [text("Sub done.")] }],
  },
  async drive(ctx) {
    await ctx.turn("stream it");
  },
};

import { agentCall, bashCall, text, type Scenario } from "./types.js";

export const resume: Scenario = {
  name: "resume",
  description: "a turn with a subagent, stop, then --resume in a new process and a second turn",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [agentCall("Echo via subagent", "[[SUB-A]] echo")] },
      { blocks: [text("First turn done.")] },
      { blocks: [text("Resumed and answered.")] },
    ],
    "SUB-A": [{ blocks: [bashCall("echo resumed-history", "Echo")] }, { blocks: [text("Echoed.")] }],
  },
  async drive(ctx) {
    await ctx.turn("first message");
    await ctx.resume();
    await ctx.turn("second message after resume");
  },
};

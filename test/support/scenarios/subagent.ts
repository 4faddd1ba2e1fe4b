import { agentCall, bashCall, text, thinking, type Scenario } from "./types.js";

export const subagent: Scenario = {
  name: "subagent",
  description: "one foreground subagent with thinking, two nested Bash calls and a final text",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [thinking("Delegate this."), agentCall("Echo via subagent", "[[SUB-A]] run two commands and report", { run_in_background: false })] },
      { blocks: [text("All done. The subagent reported back.")] },
    ],
    "SUB-A": [
      { blocks: [thinking("First echo."), bashCall("echo hello-from-sub", "Echo a greeting")] },
      { blocks: [bashCall("echo second > second.txt", "Write a file")] },
      { blocks: [text("Both commands ran.")] },
    ],
  },
  async drive(ctx) {
    await ctx.turn("please delegate this");
  },
};

import { agentCall, bashCall, text, type Scenario } from "./types.js";

export const nestedSubagents: Scenario = {
  name: "nested-subagents",
  description: "a subagent that spawns a subagent (spawnDepth 2) which runs Bash",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [agentCall("Outer agent", "[[SUB-A]] delegate further")] },
      { blocks: [text("Nested work finished.")] },
    ],
    "SUB-A": [
      { blocks: [text("Delegating to an inner agent."), agentCall("Inner agent", "[[SUB-B]] run echo")] },
      { blocks: [text("Inner agent reported back.")] },
    ],
    "SUB-B": [
      { blocks: [bashCall("echo from-depth-two", "Echo from the inner agent")] },
      { blocks: [text("Inner done.")] },
    ],
  },
  async drive(ctx) {
    await ctx.turn("nest two agents");
  },
};

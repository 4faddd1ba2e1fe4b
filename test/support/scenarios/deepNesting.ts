import { agentCall, bashCall, text, type Scenario } from "./types.js";

/**
 * Three levels of agents. The depth-3 agent's Agent call exists only in the depth-2 agent's
 * sidechain: on stdout the only hints are the depth-2 agent's task_progress (last_tool_name
 * "Agent", the inner call's description) and the depth-3 task events, which name that unseen call.
 */
export const deepNesting: Scenario = {
  name: "deep-nesting",
  description: "an agent that spawns an agent that spawns an agent (spawnDepth 3) which runs Bash",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [agentCall("Top agent", "[[SUB-A]] delegate twice")] },
      { blocks: [text("Three levels finished.")] },
    ],
    "SUB-A": [
      { blocks: [agentCall("Middle agent", "[[SUB-B]] delegate once more")] },
      { blocks: [text("Middle agent reported back.")] },
    ],
    "SUB-B": [
      { blocks: [text("Handing the work to the deepest agent."), agentCall("Deepest agent", "[[SUB-C]] run echo")] },
      { blocks: [text("Deepest agent reported back.")] },
    ],
    "SUB-C": [
      { blocks: [bashCall("echo from-depth-three", "Echo from the deepest agent")] },
      { blocks: [text("Depth three done.")] },
    ],
  },
  async drive(ctx) {
    await ctx.turn("nest three agents");
  },
};

import { agentCall, bashCall, text, type Scenario } from "./types.js";

export const backgroundSubagent: Scenario = {
  name: "background-subagent",
  description: "a run_in_background subagent: the turn ends at once, a second turn follows its notification",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [agentCall("Background job", "[[SUB-BG]] slow work", { run_in_background: true })] },
      { blocks: [text("Started it in the background.")] },
      { blocks: [text("The background job has finished.")] },
    ],
    "SUB-BG": [
      { blocks: [text("Working in the background."), bashCall("echo bg-step", "Background step")], delayMs: 300 },
      { blocks: [text("Background work complete.")] },
    ],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    await ctx.turn("start a background job");
    await ctx.log.waitFor("task_notification", () => true, { from });
    // The notification starts a turn of its own; wait for its result.
    await ctx.log.waitFor("turn_result", (r) => r.result === "The background job has finished.", { from });
  },
};

export const backgroundOneShot: Scenario = {
  name: "background-oneshot",
  description: "one-shot: a run_in_background subagent with stdin closed after the prompt; the CLI holds the first result back until the agent is done",
  // The same job as background-subagent; only the input closes at once.
  options: backgroundSubagent.options,
  script: backgroundSubagent.script,
  async drive(ctx) {
    ctx.client.send("start a background job");
    ctx.client.endInput();
    await ctx.client.waitForExit();
  },
};

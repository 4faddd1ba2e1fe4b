import { agentCall, allowUnlessDeny, bashCall, text, type Scenario } from "./types.js";

export const nestedPermission: Scenario = {
  name: "nested-permission",
  description: "a depth-2 subagent asks for permission (allowed, then denied): its Agent call exists only inside its parent's transcript",
  options: { permissionMode: "default", decidePermission: allowUnlessDeny },
  script: {
    main: [
      { blocks: [agentCall("Outer agent", "[[SUB-A]] delegate further")] },
      { blocks: [text("The nested agent asked twice.")] },
    ],
    "SUB-A": [
      { blocks: [agentCall("Inner agent", "[[SUB-B]] touch files")] },
      { blocks: [text("Inner agent reported back.")] },
    ],
    "SUB-B": [
      { blocks: [bashCall("touch nested-allow.txt", "Create a file from depth two")] },
      { blocks: [bashCall("touch nested-deny.txt", "Try a denied file from depth two")] },
      { blocks: [text("One allowed, one denied.")] },
    ],
  },
  async drive(ctx) {
    await ctx.turn("nest two agents that need permission");
  },
};

export const backgroundPermission: Scenario = {
  name: "background-permission",
  description: "a run_in_background subagent asks for permission after its launch turn ended",
  options: { permissionMode: "default", decidePermission: allowUnlessDeny },
  script: {
    main: [
      { blocks: [agentCall("Background writer", "[[SUB-BG]] write a file", { run_in_background: true })] },
      { blocks: [text("Started the writer in the background.")] },
      { blocks: [text("The background writer has finished.")] },
    ],
    "SUB-BG": [
      { blocks: [bashCall("touch background-allow.txt", "Create a file in the background")], delayMs: 300 },
      { blocks: [text("Wrote the file.")] },
    ],
  },
  async drive(ctx) {
    const from = ctx.log.mark;
    await ctx.turn("write a file in the background");
    await ctx.log.waitFor("task_notification", () => true, { from });
    await ctx.log.waitFor("turn_result", (r) => r.result === "The background writer has finished.", { from });
  },
};

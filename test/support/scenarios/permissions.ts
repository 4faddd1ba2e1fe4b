import { agentCall, allowUnlessDeny, bashCall, text, type Scenario } from "./types.js";

export const permissions: Scenario = {
  name: "permissions",
  description: "can_use_tool from the main agent (allowed) and from a subagent (one allowed, one denied)",
  options: {
    permissionMode: "default",
    decidePermission: allowUnlessDeny,
  },
  script: {
    main: [
      { blocks: [bashCall("touch main-allow.txt", "Create main allow file")] },
      { blocks: [agentCall("Asking sub", "[[SUB-A]] touch two files")] },
      { blocks: [text("Permissions handled.")] },
    ],
    "SUB-A": [
      { blocks: [bashCall("touch sub-allow.txt", "Create sub allow file")] },
      { blocks: [bashCall("touch sub-deny.txt", "Create sub deny file")] },
      { blocks: [text("One allowed, one denied.")] },
    ],
  },
  async drive(ctx) {
    await ctx.turn("touch some files");
  },
};

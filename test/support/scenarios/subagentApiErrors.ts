import { agentCall, bashCall, text, type Scenario } from "./types.js";

export const subagentApiErrors: Scenario = {
  name: "subagent-api-errors",
  description: "parallel subagents: one gets a 529 once (the CLI retries), the other a 400 every time (its answer is a synthetic API error)",
  options: { permissionMode: "bypassPermissions" },
  script: {
    main: [
      { blocks: [agentCall("Flaky task", "[[SUB-A]] retry once"), agentCall("Broken task", "[[SUB-B]] always fails")] },
      { blocks: [text("One subagent recovered, the other failed.")] },
    ],
    "SUB-A": [
      { blocks: [bashCall("echo after-retry", "Step after a retry")], error: { status: 529, times: 1, headers: { "retry-after": "0" } } },
      { blocks: [text("Recovered after an overload.")] },
    ],
    "SUB-B": [{ error: { status: 400, message: "scripted bad request for the broken subagent" } }],
  },
  async drive(ctx) {
    await ctx.turn("run a flaky and a broken subagent");
  },
};
